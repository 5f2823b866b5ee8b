/**
 * Index entries, as Firestore keeps them: per index, one entry per document that has every indexed field
 * (one per distinct element for an array-contains field), sorted by the collection (collection scope),
 * the field values in the index's directions, then the document name. An index is materialised when a
 * query first uses it and kept current on every write; writes are queued and applied before the next read
 * (one by one when few, each moving at most one block of entries; by a re-sort when many, e.g. after a
 * bulk load).
 */
import type { IndexField, QueryScope } from "./indexes";
import { SortedBlocks } from "./sorted-entries";
import {
  compareReferences,
  compareStrings,
  compareValues,
  getField,
  parseFieldPath,
  type Fields,
  type Value,
} from "./values";

/** What an index reads of a stored document. */
export interface IndexedDocument {
  path: string;
  fields: Fields;
}

export interface IndexDefinition {
  collectionGroup: string;
  scope: QueryScope;
  /** Indexed fields, without `__name__`. */
  fields: IndexField[];
  nameOrder: "ASCENDING" | "DESCENDING";
}

/**
 * One entry: the collection path (collection scope) or "" (collection-group scope), the document name and
 * the indexed values, the first three in fields of their own (an array would double an entry's memory).
 */
export class IndexEntry {
  private readonly v0: Value | undefined;
  private readonly v1: Value | undefined;
  private readonly v2: Value | undefined;
  private readonly more: Value[] | undefined;

  constructor(
    readonly parent: string,
    readonly path: string,
    values: readonly Value[],
  ) {
    this.v0 = values[0];
    this.v1 = values[1];
    this.v2 = values[2];
    this.more = values.length > 3 ? values.slice(3) : undefined;
  }

  /** The value of the index's i-th field. */
  value(i: number): Value {
    if (i === 0) return this.v0!;
    if (i === 1) return this.v1!;
    if (i === 2) return this.v2!;
    return this.more![i - 3]!;
  }
}

export const collectionGroupOf = (path: string): string => {
  const segments = path.split("/");
  return segments[segments.length - 2] ?? "";
};

const parentOf = (path: string): string => path.slice(0, path.lastIndexOf("/"));

export function definitionKey(definition: IndexDefinition): string {
  const fields = definition.fields.map((f) => `${f.fieldPath}:${f.mode}`).join(",");
  return `${definition.collectionGroup}|${definition.scope}|${fields}|${definition.nameOrder}`;
}

/** Distinct strings an index shares per field (beyond, values keep their own objects). */
const MAX_SHARED_STRINGS = 1 << 17;

export class MaterializedIndex {
  private readonly entries: SortedBlocks<IndexEntry>;
  /** Entries in the list now of the documents changed since the last read (by path). */
  private stale = new Map<string, IndexEntry[]>();
  /** Entries the same documents have now. */
  private fresh = new Map<string, IndexEntry[]>();
  private readonly segments: string[][];
  private readonly descending: boolean[];
  /** Per indexed field, one value object per distinct string (see `shared`). */
  private readonly strings: Map<string, Value>[];
  /** One string per collection path, so entries of one collection compare their parents by identity. */
  private readonly parents = new Map<string, string>();

  constructor(
    readonly definition: IndexDefinition,
    documents: Iterable<IndexedDocument>,
  ) {
    this.segments = definition.fields.map((f) => parseFieldPath(f.fieldPath));
    this.descending = definition.fields.map((f) => f.mode === "DESCENDING");
    this.strings = definition.fields.map(() => new Map());
    this.entries = new SortedBlocks(this.compare);
    const all: IndexEntry[] = [];
    for (const document of documents) for (const entry of this.entriesOf(document)) all.push(entry);
    this.entries.reset(all);
  }

  /**
   * One value object per distinct string of a field (values repeat across documents, e.g. a kind, or the
   * keywords of an array-contains index, which holds an entry per element): it saves an object and a
   * string per entry, and equal strings then compare by identity.
   */
  private shared(field: number, value: Value): Value {
    if (!("string_value" in value)) return value;
    const strings = this.strings[field]!;
    const known = strings.get(value.string_value);
    if (known) return known;
    if (strings.size < MAX_SHARED_STRINGS) strings.set(value.string_value, value);
    return value;
  }

  /** Entries of one document. */
  entriesOf(document: IndexedDocument): IndexEntry[] {
    let parent = "";
    if (this.definition.scope === "COLLECTION") {
      const collection = parentOf(document.path);
      parent = this.parents.get(collection) ?? collection;
      if (parent === collection) this.parents.set(collection, collection);
    }
    let tuples: Value[][] = [[]];
    for (let i = 0; i < this.definition.fields.length; i++) {
      const found = getField(document.fields, this.segments[i]!);
      if (found === undefined) return [];
      if (this.definition.fields[i]!.mode !== "CONTAINS") {
        const value = this.shared(i, found);
        tuples = tuples.map((t) => [...t, value]);
        continue;
      }
      if (!("array_value" in found)) return [];
      const distinct: Value[] = [];
      for (const element of found.array_value.values) {
        if (!distinct.some((d) => compareValues(d, element) === 0)) distinct.push(this.shared(i, element));
      }
      tuples = tuples.flatMap((t) => distinct.map((element) => [...t, element]));
    }
    return tuples.map((values) => new IndexEntry(parent, document.path, values));
  }

  /** Queues the change of one document of the collection group (`after` undefined: deleted). */
  update(path: string, before: IndexedDocument | undefined, after: IndexedDocument | undefined): void {
    if (!this.stale.has(path)) this.stale.set(path, before ? this.entriesOf(before) : []);
    this.fresh.set(path, after ? this.entriesOf(after) : []);
  }

  /** Entries order: parent, values in the fields' directions, name in its direction. */
  readonly compare = (a: IndexEntry, b: IndexEntry): number => {
    if (a.parent !== b.parent) return compareStrings(a.parent, b.parent);
    for (let i = 0; i < this.descending.length; i++) {
      const va = a.value(i);
      const vb = b.value(i);
      if (va === vb) continue;
      const c = compareValues(va, vb);
      if (c !== 0) return this.descending[i] ? -c : c;
    }
    const c = compareReferences(a.path, b.path);
    return this.definition.nameOrder === "DESCENDING" ? -c : c;
  };

  /** The sorted entries, with queued writes applied. */
  sorted(): SortedBlocks<IndexEntry> {
    if (this.fresh.size === 0) return this.entries;
    if (this.fresh.size * 64 > this.entries.length) {
      // Many changes (a bulk load): one sort instead of one insert each.
      const kept = this.entries.toArray().filter((e) => !this.stale.has(e.path));
      for (const entries of this.fresh.values()) for (const entry of entries) kept.push(entry);
      this.entries.reset(kept);
    } else {
      for (const entries of this.stale.values()) for (const entry of entries) this.entries.remove(entry);
      for (const entries of this.fresh.values()) for (const entry of entries) this.entries.insert(entry);
    }
    this.stale = new Map();
    this.fresh = new Map();
    return this.entries;
  }

  /** The first position whose entry satisfies `atOrAfter` (which must be false, then true, along the order). */
  lowerBound(atOrAfter: (entry: IndexEntry) => boolean, from = 0, to = this.sorted().length): number {
    return this.sorted().lowerBound(atOrAfter, from, to);
  }
}

/** The materialised indexes of one database, kept current by its writes. */
export class IndexEntries {
  private readonly indexes = new Map<string, MaterializedIndex>();
  private readonly byGroup = new Map<string, MaterializedIndex[]>();

  /** `members` lists the documents of a collection group (read when one of its indexes is first used). */
  constructor(private readonly members: (group: string) => Iterable<IndexedDocument>) {}

  /** The index for a definition, built from the collection group's documents on first use. */
  index(definition: IndexDefinition): MaterializedIndex {
    const key = definitionKey(definition);
    let index = this.indexes.get(key);
    if (!index) {
      index = new MaterializedIndex(definition, this.members(definition.collectionGroup));
      this.indexes.set(key, index);
      const group = this.byGroup.get(definition.collectionGroup) ?? [];
      group.push(index);
      this.byGroup.set(definition.collectionGroup, group);
    }
    return index;
  }

  /** Called by the database on every stored change. */
  /** Called by the database on every stored change; `before` unpacks the document as it was. */
  changed(path: string, before: () => IndexedDocument | undefined, after: IndexedDocument | undefined): void {
    const indexes = this.byGroup.get(collectionGroupOf(path));
    if (!indexes) return;
    const previous = before();
    for (const index of indexes) index.update(path, previous, after);
  }

  clear(): void {
    this.indexes.clear();
    this.byGroup.clear();
  }
}
