/**
 * The document store: one `Database` per `projects/{p}/databases/{d}`, documents kept as immutable
 * records (a write replaces the record), so reads never copy and a commit is applied all at once.
 */
import type { Write } from "@firestore-emulator/proto/dist/google/firestore/v1/write";
import { DocumentTransformFieldTransformServerValue as ServerValue } from "@firestore-emulator/proto/dist/google/firestore/v1/write";

import { packFields, unpackFields } from "./codec";
import { IndexEntries } from "./index-entries";
import {
  Code,
  compareValues,
  fieldsFromProto,
  FirestoreError,
  fromProto,
  getField,
  isNumber,
  numberOf,
  parseFieldPath,
  setField,
  valuesEqual,
  type Fields,
  type Timestamp,
  type Value,
} from "./values";

export interface StoredDocument {
  /** Path below `.../documents`, e.g. `users/u1/sessions/s1`. */
  path: string;
  fields: Fields;
  createTime: Timestamp;
  updateTime: Timestamp;
}

export interface WriteOutcome {
  updateTime?: Timestamp;
  transformResults: Value[];
}

const parentOf = (path: string): string => path.slice(0, path.lastIndexOf("/"));

/** A document as the store keeps it: its fields packed (see codec.ts), unpacked when read. */
interface PackedDocument {
  path: string;
  packed: Buffer;
  createTime: Timestamp;
  updateTime: Timestamp;
}

/** The stored record a document read from the store came from (to see a write that changes nothing). */
const origins = new WeakMap<StoredDocument, PackedDocument>();

function unpack(record: PackedDocument): StoredDocument {
  const { path, createTime, updateTime } = record;
  const document = { path, fields: unpackFields(record.packed), createTime, updateTime };
  origins.set(document, record);
  return document;
}

export class Database {
  private readonly records = new Map<string, PackedDocument>();
  /** Documents by collection path, for collection queries without a full scan. */
  private readonly byCollection = new Map<string, Map<string, PackedDocument>>();
  /** Entries of the indexes queries have used so far, kept current by `put` and `delete`. */
  readonly indexEntries = new IndexEntries((group) => this.inGroup(group));

  constructor(
    /** `projects/{project}/databases/{database}` */
    readonly name: string,
  ) {}

  get project(): string {
    return this.name.split("/")[1] as string;
  }

  get databaseId(): string {
    return this.name.split("/")[3] as string;
  }

  fullName(path: string): string {
    return path ? `${this.name}/documents/${path}` : `${this.name}/documents`;
  }

  get size(): number {
    return this.records.size;
  }

  get(path: string): StoredDocument | undefined {
    const record = this.records.get(path);
    return record && unpack(record);
  }

  /** A document's fields packed: those stored when it was read from this database, else packed now. */
  packed(document: StoredDocument): Buffer {
    return origins.get(document)?.packed ?? packFields(document.fields);
  }

  has(path: string): boolean {
    return this.records.has(path);
  }

  put(document: StoredDocument): void {
    const before = this.records.get(document.path);
    if (before && origins.get(document) === before) return;
    const record: PackedDocument = {
      path: document.path,
      packed: packFields(document.fields),
      createTime: document.createTime,
      updateTime: document.updateTime,
    };
    this.records.set(document.path, record);
    this.indexEntries.changed(document.path, () => before && unpack(before), document);
    const collection = parentOf(document.path);
    let members = this.byCollection.get(collection);
    if (!members) this.byCollection.set(collection, (members = new Map()));
    members.set(document.path, record);
  }

  delete(path: string): void {
    const before = this.records.get(path);
    if (!before) return;
    this.records.delete(path);
    this.indexEntries.changed(path, () => unpack(before), undefined);
    const collection = parentOf(path);
    const members = this.byCollection.get(collection);
    members?.delete(path);
    if (members?.size === 0) this.byCollection.delete(collection);
  }

  /** Every document path, in no particular order. */
  paths(): IterableIterator<string> {
    return this.records.keys();
  }

  /** Every document (unpacked one by one as the iteration reaches it). */
  *all(): Iterable<StoredDocument> {
    for (const record of this.records.values()) yield unpack(record);
  }

  *inCollection(collectionPath: string): Iterable<StoredDocument> {
    const members = this.byCollection.get(collectionPath);
    if (members) for (const record of members.values()) yield unpack(record);
  }

  /** The documents of every collection whose id is `group`. */
  *inGroup(group: string): Iterable<StoredDocument> {
    for (const [collection, members] of this.byCollection) {
      if (collection.slice(collection.lastIndexOf("/") + 1) !== group) continue;
      for (const record of members.values()) yield unpack(record);
    }
  }

  /** Ids of the collections directly below `parentPath` ("" = root) that hold at least one document. */
  collectionIds(parentPath: string): string[] {
    const prefix = parentPath ? `${parentPath}/` : "";
    const ids = new Set<string>();
    for (const collection of this.byCollection.keys()) {
      if (!collection.startsWith(prefix)) continue;
      ids.add(collection.slice(prefix.length).split("/")[0] as string);
    }
    return [...ids].sort();
  }

  clear(): void {
    this.records.clear();
    this.byCollection.clear();
    this.indexEntries.clear();
  }
}

/** The longest collection or document id. */
const MAX_ID_BYTES = 1_500;

export class Store {
  readonly databases = new Map<string, Database>();
  private lastMicros = 0;

  database(name: string): Database {
    let database = this.databases.get(name);
    if (!database) this.databases.set(name, (database = new Database(name)));
    return database;
  }

  /** Resolves `projects/p/databases/d/documents[/path]` to its database and path. */
  resolve(name: string): { database: Database; path: string } {
    const match = /^(projects\/[^/]+\/databases\/[^/]+)\/documents(?:\/(.*))?$/.exec(name);
    if (!match) throw new FirestoreError(Code.INVALID_ARGUMENT, `Invalid resource name: ${name}`);
    const path = match[2] ?? "";
    // Collection and document ids are at most 1,500 bytes (Firestore quotas and limits); Firestore refuses
    // a longer one in any request, a read as well as a write, with this text.
    if (path.split("/").some((segment) => Buffer.byteLength(segment) > MAX_ID_BYTES)) {
      throw new FirestoreError(Code.INVALID_ARGUMENT, "The key path element name is longer than 1500 bytes.");
    }
    return { database: this.database(match[1] as string), path };
  }

  resolveDocument(name: string): { database: Database; path: string } {
    const resolved = this.resolve(name);
    const segments = resolved.path.split("/");
    if (!resolved.path || segments.length % 2 !== 0 || segments.some((s) => s === "")) {
      throw new FirestoreError(Code.INVALID_ARGUMENT, `Invalid document name: ${name}`);
    }
    return resolved;
  }

  /** Makes later commit times greater than `time` (after loading saved data). */
  advanceClock(time: Timestamp): void {
    this.lastMicros = Math.max(this.lastMicros, time.seconds * 1e6 + Math.floor(time.nanos / 1000));
  }

  /** A strictly increasing commit time with microsecond precision, like Firestore's. */
  commitTime(): Timestamp {
    this.lastMicros = Math.max(this.lastMicros + 1, Date.now() * 1000);
    return { seconds: Math.floor(this.lastMicros / 1e6), nanos: (this.lastMicros % 1e6) * 1000 };
  }

  /** The document names a write touches. */
  static writeTarget(write: Write): string {
    if (write.has_update) return write.update.name;
    if (write.has_delete) return write.delete;
    if (write.has_transform) return write.transform.document;
    throw new FirestoreError(Code.INVALID_ARGUMENT, "A write has no operation.");
  }

  /**
   * Applies writes atomically: every write is checked and computed against the state left by the ones
   * before it; nothing is stored unless all succeed.
   */
  commit(writes: Write[], time: Timestamp): WriteOutcome[] {
    const staged = new Map<string, { database: Database; path: string; document: StoredDocument | null }>();
    const outcomes = writes.map((write) => {
      const { database, path } = this.resolveDocument(Store.writeTarget(write));
      const key = database.fullName(path);
      const current = staged.has(key) ? staged.get(key)!.document : (database.get(path) ?? null);
      const { document, outcome } = applyWrite(current, path, write, time, database.fullName(path));
      staged.set(key, { database, path, document });
      return outcome;
    });
    for (const { database, path, document } of staged.values()) {
      if (document) database.put(document);
      else database.delete(path);
    }
    return outcomes;
  }
}

const notFound = (name: string) => new FirestoreError(Code.NOT_FOUND, `No document to update: ${name}`);

function applyWrite(
  current: StoredDocument | null,
  path: string,
  write: Write,
  time: Timestamp,
  name: string,
): { document: StoredDocument | null; outcome: WriteOutcome } {
  if (write.has_current_document) {
    const precondition = write.current_document;
    if (precondition.has_exists) {
      if (precondition.exists && !current) throw notFound(name);
      if (!precondition.exists && current) {
        throw new FirestoreError(Code.ALREADY_EXISTS, `Document already exists: ${name}`);
      }
    } else if (precondition.has_update_time) {
      const expected = precondition.update_time;
      if (!current) throw notFound(name);
      if (
        current.updateTime.seconds !== Number(expected.seconds) ||
        current.updateTime.nanos !== expected.nanos
      ) {
        throw new FirestoreError(Code.FAILED_PRECONDITION, `The document was updated since: ${name}`);
      }
    }
  }
  if (write.has_delete) return { document: null, outcome: { transformResults: [] } };

  let fields: Fields;
  let transforms = write.update_transforms;
  if (write.has_update) {
    const incoming = fieldsFromProto(write.update.fields);
    if (write.has_update_mask) {
      fields = current?.fields ?? {};
      for (const fieldPath of write.update_mask.field_paths) {
        const segments = parseFieldPath(fieldPath);
        fields = setField(fields, segments, getField(incoming, segments));
      }
    } else {
      fields = incoming;
    }
  } else {
    fields = current?.fields ?? {};
    transforms = write.transform.field_transforms;
  }

  const transformResults: Value[] = [];
  for (const transform of transforms) {
    const segments = parseFieldPath(transform.field_path);
    const value = applyTransform(getField(fields, segments), transform, time);
    fields = setField(fields, segments, value);
    transformResults.push(value);
  }

  const unchanged =
    current !== null &&
    compareValues({ map_value: { fields } }, { map_value: { fields: current.fields } }) === 0;
  const document: StoredDocument = unchanged
    ? current
    : { path, fields, createTime: current?.createTime ?? time, updateTime: time };
  return { document, outcome: { updateTime: document.updateTime, transformResults } };
}

type FieldTransform = Write["update_transforms"][number];

function applyTransform(current: Value | undefined, transform: FieldTransform, time: Timestamp): Value {
  switch (transform.transform_type) {
    case "set_to_server_value":
      if (transform.set_to_server_value !== ServerValue.REQUEST_TIME) {
        throw new FirestoreError(Code.INVALID_ARGUMENT, "Unknown server value.");
      }
      return { timestamp_value: time };
    case "increment":
    case "maximum":
    case "minimum": {
      const operand = fromProto(transform[transform.transform_type]);
      if (!isNumber(operand))
        throw new FirestoreError(Code.INVALID_ARGUMENT, "Numeric transform needs a number.");
      if (!current || !isNumber(current)) return operand;
      if (transform.transform_type === "increment") {
        const sum = numberOf(current) + numberOf(operand);
        return "integer_value" in current && "integer_value" in operand
          ? { integer_value: sum }
          : { double_value: sum };
      }
      const c = compareValues(operand, current);
      const takeOperand = transform.transform_type === "maximum" ? c > 0 : c < 0;
      return takeOperand ? operand : current;
    }
    case "append_missing_elements": {
      const values = current && "array_value" in current ? [...current.array_value.values] : [];
      for (const element of transform.append_missing_elements.values.map(fromProto)) {
        if (!values.some((v) => valuesEqual(v, element))) values.push(element);
      }
      return { array_value: { values } };
    }
    case "remove_all_from_array": {
      const remove = transform.remove_all_from_array.values.map(fromProto);
      const values = current && "array_value" in current ? current.array_value.values : [];
      return { array_value: { values: values.filter((v) => !remove.some((r) => valuesEqual(v, r))) } };
    }
    case "none":
      throw new FirestoreError(Code.INVALID_ARGUMENT, "A field transform has no operation.");
  }
}
