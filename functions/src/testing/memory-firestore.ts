/**
 * An in-memory Firestore for unit tests of the repositories: the part of firebase-admin's API they use
 * (references, reads, `create`/`set`/`update`/`delete` with dotted field paths and `merge`/`mergeFields`,
 * `FieldValue.increment`/`serverTimestamp`/`delete`/`arrayUnion`, transactions, batches, bulk writers,
 * queries with filters, orders, cursors, limits, projections, collection groups, `count()` and `sum()`).
 * Writes run the repositories' own code, so a test sees the documents exactly as the product writes them.
 * Transactions apply their writes when their body resolves and never conflict; a create of a document
 * that exists fails with gRPC code 6 (ALREADY_EXISTS), an update of one that does not with 5 (NOT_FOUND).
 *
 * Use it by replacing `lib/firebase.ts` (`jest.mock("../lib/firebase", () => jest.requireActual(…)
 * .memoryFirebase())`); `memoryDatabases` then holds what the code under test wrote.
 */
import { ordersOf, projected, selectRows, type QueryOptions, type QueryScope } from "./memory-query";
import { clone, fieldOf, merged, nameOf, transformed, withField, type Data } from "./memory-values";

class FirestoreError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

let autoIds = 0;
const autoId = () => `auto${String((autoIds += 1)).padStart(8, "0")}`;

/** A document as read: what firebase-admin's `DocumentSnapshot` offers. */
export class MemorySnapshot {
  readonly id: string;
  readonly exists: boolean;
  readonly createTime: { toDate(): Date };

  constructor(
    readonly ref: MemoryDocument,
    private readonly stored: Data | undefined,
  ) {
    this.id = ref.id;
    this.exists = stored !== undefined;
    this.createTime = { toDate: () => new Date(0) };
  }

  data(): Data | undefined {
    return this.stored === undefined ? undefined : clone(this.stored);
  }

  get(field: unknown): unknown {
    return this.stored === undefined ? undefined : clone(fieldOf(this.stored, nameOf(field)));
  }
}

class MemoryQuerySnapshot {
  constructor(readonly docs: MemorySnapshot[]) {}
  get size(): number {
    return this.docs.length;
  }
  get empty(): boolean {
    return this.docs.length === 0;
  }
}

export class MemoryQuery {
  constructor(
    readonly firestore: MemoryFirestore,
    protected readonly scope: QueryScope,
    private readonly options: QueryOptions = { filters: [], orders: [] },
  ) {}

  private with(change: Partial<QueryOptions>): MemoryQuery {
    return new MemoryQuery(this.firestore, this.scope, { ...this.options, ...change });
  }

  where(field: unknown, op: string, value: unknown): MemoryQuery {
    return this.with({ filters: [...this.options.filters, { field: nameOf(field), op, value }] });
  }
  orderBy(field: unknown, direction: "asc" | "desc" = "asc"): MemoryQuery {
    return this.with({ orders: [...this.options.orders, { field: nameOf(field), direction }] });
  }
  limit(limit: number): MemoryQuery {
    return this.with({ limit });
  }
  offset(offset: number): MemoryQuery {
    return this.with({ offset });
  }
  select(...fields: unknown[]): MemoryQuery {
    return this.with({ fields: fields.map(nameOf) });
  }
  startAfter(...values: unknown[]): MemoryQuery {
    return this.with({ start: { values: this.cursorValues(values), after: true } });
  }
  startAt(...values: unknown[]): MemoryQuery {
    return this.with({ start: { values: this.cursorValues(values), after: false } });
  }
  endBefore(...values: unknown[]): MemoryQuery {
    return this.with({ end: { values: this.cursorValues(values), after: false } });
  }

  /** Cursor values: as given, or the order's fields of a snapshot (its path last). */
  private cursorValues(values: unknown[]): unknown[] {
    const [first] = values;
    if (!(first instanceof MemorySnapshot)) return values;
    const data = first.data() ?? {};
    return ordersOf(this.options).map((order) =>
      order.field === "__name__" ? first.ref.path : fieldOf(data, order.field),
    );
  }

  private rows(): { path: string; data: Data }[] {
    return selectRows(this.firestore.documents, this.scope, this.options);
  }

  async get(): Promise<MemoryQuerySnapshot> {
    return new MemoryQuerySnapshot(
      this.rows().map(
        ({ path, data }) =>
          new MemorySnapshot(this.firestore.reference(path), projected(data, this.options.fields)),
      ),
    );
  }

  count(): { get(): Promise<{ data(): { count: number } }> } {
    return { get: async () => ({ data: () => ({ count: this.rows().length }) }) };
  }

  aggregate(fields: Record<string, { aggregateType: string; _field?: string }>): {
    get(): Promise<{ data(): Record<string, number> }>;
  } {
    return {
      get: async () => {
        const rows = this.rows();
        const out: Record<string, number> = {};
        for (const [name, field] of Object.entries(fields)) {
          const values = rows
            .map((row) => fieldOf(row.data, field._field ?? ""))
            .filter((value): value is number => typeof value === "number");
          out[name] =
            field.aggregateType === "count" ? rows.length : values.reduce((sum, value) => sum + value, 0);
        }
        return { data: () => out };
      },
    };
  }
}

export class MemoryCollection extends MemoryQuery {
  constructor(
    firestore: MemoryFirestore,
    readonly path: string,
  ) {
    const parent = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    super(firestore, { parent, collectionId: path.slice(path.lastIndexOf("/") + 1), group: false });
  }
  get id(): string {
    return this.scope.collectionId;
  }
  doc(id: string = autoId()): MemoryDocument {
    return this.firestore.reference(`${this.path}/${id}`);
  }
  async add(data: Data): Promise<MemoryDocument> {
    const ref = this.firestore.reference(`${this.path}/${autoId()}`);
    await ref.create(data);
    return ref;
  }
}

export class MemoryDocument {
  constructor(
    readonly firestore: MemoryFirestore,
    readonly path: string,
  ) {}
  get id(): string {
    return this.path.slice(this.path.lastIndexOf("/") + 1);
  }
  get parent(): MemoryCollection {
    return new MemoryCollection(this.firestore, this.path.slice(0, this.path.lastIndexOf("/")));
  }
  collection(id: string): MemoryCollection {
    return new MemoryCollection(this.firestore, `${this.path}/${id}`);
  }
  async get(): Promise<MemorySnapshot> {
    return this.firestore.read(this);
  }
  async create(data: Data): Promise<void> {
    this.firestore.write({ kind: "create", ref: this, data });
  }
  async set(data: Data, options?: { merge?: boolean; mergeFields?: string[] }): Promise<void> {
    this.firestore.write({ kind: "set", ref: this, data, options });
  }
  async update(data: Data): Promise<void> {
    this.firestore.write({ kind: "update", ref: this, data });
  }
  async delete(): Promise<void> {
    this.firestore.write({ kind: "delete", ref: this });
  }
}

type Write =
  | { kind: "create" | "update"; ref: MemoryDocument; data: Data }
  | { kind: "set"; ref: MemoryDocument; data: Data; options?: { merge?: boolean; mergeFields?: string[] } }
  | { kind: "delete"; ref: MemoryDocument };

/** Writes gathered to be applied together (a transaction's or a batch's). */
class MemoryWrites {
  protected readonly writes: Write[] = [];
  constructor(protected readonly firestore: MemoryFirestore) {}
  create(ref: MemoryDocument, data: Data): this {
    this.writes.push({ kind: "create", ref, data });
    return this;
  }
  set(ref: MemoryDocument, data: Data, options?: { merge?: boolean; mergeFields?: string[] }): this {
    this.writes.push({ kind: "set", ref, data, options });
    return this;
  }
  update(ref: MemoryDocument, data: Data): this {
    this.writes.push({ kind: "update", ref, data });
    return this;
  }
  delete(ref: MemoryDocument): this {
    this.writes.push({ kind: "delete", ref });
    return this;
  }
  async commit(): Promise<void> {
    for (const write of this.writes.splice(0)) this.firestore.write(write);
  }
}

class MemoryTransaction extends MemoryWrites {
  async get(target: MemoryDocument | MemoryQuery): Promise<MemorySnapshot | MemoryQuerySnapshot> {
    return target instanceof MemoryDocument ? this.firestore.read(target) : target.get();
  }
  async getAll(...refs: MemoryDocument[]): Promise<MemorySnapshot[]> {
    return refs.map((ref) => this.firestore.read(ref));
  }
}

export class MemoryFirestore {
  readonly documents = new Map<string, Data>();

  collection(path: string): MemoryCollection {
    return new MemoryCollection(this, path);
  }
  collectionGroup(collectionId: string): MemoryQuery {
    return new MemoryQuery(this, { parent: "", collectionId, group: true });
  }
  doc(path: string): MemoryDocument {
    return this.reference(path);
  }
  reference(path: string): MemoryDocument {
    return new MemoryDocument(this, path);
  }
  read(ref: MemoryDocument): MemorySnapshot {
    return new MemorySnapshot(ref, this.documents.get(ref.path));
  }
  async getAll(...refs: MemoryDocument[]): Promise<MemorySnapshot[]> {
    return refs.map((ref) => this.read(ref));
  }
  batch(): MemoryWrites {
    return new MemoryWrites(this);
  }
  async runTransaction<T>(body: (transaction: MemoryTransaction) => Promise<T>): Promise<T> {
    const transaction = new MemoryTransaction(this);
    const result = await body(transaction);
    await transaction.commit();
    return result;
  }
  bulkWriter() {
    const pending: Promise<void>[] = [];
    const run = (write: Write) => {
      const done = Promise.resolve().then(() => this.write(write));
      pending.push(done.catch(() => undefined));
      return done;
    };
    return {
      create: (ref: MemoryDocument, data: Data) => run({ kind: "create", ref, data }),
      set: (ref: MemoryDocument, data: Data, options?: { merge?: boolean }) =>
        run({ kind: "set", ref, data, options }),
      update: (ref: MemoryDocument, data: Data) => run({ kind: "update", ref, data }),
      close: async () => void (await Promise.all(pending)),
    };
  }

  /** Applies one write, as Firestore would. */
  write(write: Write): void {
    const { path } = write.ref;
    const existing = this.documents.get(path);
    if (write.kind === "delete") {
      this.documents.delete(path);
      return;
    }
    if (write.kind === "create" && existing) throw new FirestoreError(6, `ALREADY_EXISTS: ${path}`);
    if (write.kind === "update" && !existing) throw new FirestoreError(5, `NOT_FOUND: ${path}`);
    if (write.kind === "set" && !write.options?.merge && !write.options?.mergeFields) {
      this.documents.set(path, transformed({}, write.data));
      return;
    }
    if (write.kind === "set" && write.options?.mergeFields) {
      const fields = write.options.mergeFields;
      this.documents.set(
        path,
        fields.reduce((out, field) => withField(out, field, fieldOf(write.data, field)), existing ?? {}),
      );
      return;
    }
    this.documents.set(
      path,
      write.kind === "update"
        ? transformed(existing ?? {}, write.data, true)
        : merged(existing ?? {}, write.data),
    );
  }
}

/** The databases `memoryFirebase` answers from unless given others: the global one is `(default)`. */
export const memoryDatabases = new Map<string, MemoryFirestore>();

/**
 * `lib/firebase.ts` answering from memory: the global database and one database per region database id,
 * each created on first use in `databases`.
 */
export function memoryFirebase(databases = memoryDatabases) {
  const database = (id: string) => {
    const found = databases.get(id) ?? new MemoryFirestore();
    databases.set(id, found);
    return found;
  };
  return { adminApp: () => ({}), globalDb: () => database("(default)"), regionDb: database };
}
