/**
 * Index entries, as Firestore keeps them: per index, one entry per document that has every indexed field
 * (one per distinct element for an array-contains field), sorted by the collection (collection scope),
 * the field values in the index's directions, then the document name. An index is materialised when a
 * query first uses it and kept current on every write; writes are queued and applied before the next read
 * (one by one when few, by a re-sort when many, e.g. after a bulk load).
 */
import type { IndexField, QueryScope } from "./indexes";
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

export interface IndexEntry {
  /** The collection path (collection scope) or "" (collection-group scope). */
  parent: string;
  values: Value[];
  path: string;
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

export class MaterializedIndex {
  private entries: IndexEntry[] = [];
  private readonly byPath = new Map<string, IndexEntry[]>();
  private removed = new Set<IndexEntry>();
  private added: IndexEntry[] = [];
  private readonly segments: string[][];

  constructor(
    readonly definition: IndexDefinition,
    documents: Iterable<IndexedDocument>,
  ) {
    this.segments = definition.fields.map((f) => parseFieldPath(f.fieldPath));
    for (const document of documents) this.update(document.path, document);
  }

  /** Entries of one document. */
  entriesOf(document: IndexedDocument): IndexEntry[] {
    const parent = this.definition.scope === "COLLECTION" ? parentOf(document.path) : "";
    let tuples: Value[][] = [[]];
    for (let i = 0; i < this.definition.fields.length; i++) {
      const value = getField(document.fields, this.segments[i]!);
      if (value === undefined) return [];
      if (this.definition.fields[i]!.mode !== "CONTAINS") {
        tuples = tuples.map((t) => [...t, value]);
        continue;
      }
      if (!("array_value" in value)) return [];
      const distinct: Value[] = [];
      for (const element of value.array_value.values) {
        if (!distinct.some((d) => compareValues(d, element) === 0)) distinct.push(element);
      }
      tuples = tuples.flatMap((t) => distinct.map((element) => [...t, element]));
    }
    return tuples.map((values) => ({ parent, values, path: document.path }));
  }

  /** Queues the change of one document of the collection group (`after` undefined: deleted). */
  update(path: string, after: IndexedDocument | undefined): void {
    for (const entry of this.byPath.get(path) ?? []) this.removed.add(entry);
    const entries = after ? this.entriesOf(after) : [];
    if (entries.length > 0) this.byPath.set(path, entries);
    else this.byPath.delete(path);
    this.added.push(...entries);
  }

  /** Entries order: parent, values in the fields' directions, name in its direction. */
  readonly compare = (a: IndexEntry, b: IndexEntry): number => {
    if (a.parent !== b.parent) return compareStrings(a.parent, b.parent);
    for (let i = 0; i < a.values.length; i++) {
      const c = compareValues(a.values[i]!, b.values[i]!);
      if (c !== 0) return this.definition.fields[i]!.mode === "DESCENDING" ? -c : c;
    }
    const c = compareReferences(a.path, b.path);
    return this.definition.nameOrder === "DESCENDING" ? -c : c;
  };

  /** The sorted entries, with queued writes applied. */
  sorted(): readonly IndexEntry[] {
    const changes = this.removed.size + this.added.length;
    if (changes === 0) return this.entries;
    const added = this.added.filter((e) => !this.removed.has(e));
    if (changes * 16 > this.entries.length) {
      this.entries = this.entries
        .filter((e) => !this.removed.has(e))
        .concat(added)
        .sort(this.compare);
    } else {
      for (const entry of this.removed) {
        const at = this.lowerBound((e) => this.compare(e, entry) >= 0);
        if (this.entries[at] === entry) this.entries.splice(at, 1);
      }
      for (const entry of added)
        this.entries.splice(
          this.lowerBound((e) => this.compare(e, entry) >= 0),
          0,
          entry,
        );
    }
    this.removed = new Set();
    this.added = [];
    return this.entries;
  }

  /** The first position whose entry satisfies `atOrAfter` (which must be false, then true, along the order). */
  lowerBound(atOrAfter: (entry: IndexEntry) => boolean, from = 0, to = this.entries.length): number {
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (atOrAfter(this.entries[middle]!)) high = middle;
      else low = middle + 1;
    }
    return low;
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
  changed(path: string, after: IndexedDocument | undefined): void {
    for (const index of this.byGroup.get(collectionGroupOf(path)) ?? []) index.update(path, after);
  }

  clear(): void {
    this.indexes.clear();
    this.byGroup.clear();
  }
}
