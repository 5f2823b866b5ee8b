/**
 * The indexes a database has, as Firestore keeps them (see docs/firestore-emulator.md, Indexes):
 * - automatic single-field indexes: for every field of every document, ascending and descending and (for
 *   arrays) array-contains, with collection scope; none with collection-group scope;
 * - `fieldOverrides` from firestore.indexes.json replace those automatic settings for one field of one
 *   collection group (and its subfields), e.g. to exempt a field or to add collection-group scope;
 * - composite indexes declared in firestore.indexes.json, per collection group and scope.
 */
import { readFileSync } from "node:fs";

import { Code, FirestoreError, parseFieldPath } from "./values";

export type QueryScope = "COLLECTION" | "COLLECTION_GROUP";
/** How one field is indexed: ordered either way, or by the elements of an array. */
export type FieldMode = "ASCENDING" | "DESCENDING" | "CONTAINS";

export interface IndexField {
  /** Canonical field path (see `canonicalFieldPath`); `__name__` for the document name. */
  fieldPath: string;
  mode: FieldMode;
}

export interface CompositeIndex {
  collectionGroup: string;
  queryScope: QueryScope;
  fields: IndexField[];
}

export interface SingleFieldIndex {
  mode: FieldMode;
  queryScope: QueryScope;
}

export interface FieldOverride {
  collectionGroup: string;
  fieldPath: string;
  /** Replaces the automatic single-field indexes of the field; empty = exempt from indexing. */
  indexes: SingleFieldIndex[];
}

/** The automatic single-field settings for a field without an override. */
const AUTOMATIC: readonly SingleFieldIndex[] = [
  { mode: "ASCENDING", queryScope: "COLLECTION" },
  { mode: "DESCENDING", queryScope: "COLLECTION" },
  { mode: "CONTAINS", queryScope: "COLLECTION" },
];

const SIMPLE_SEGMENT = /^[A-Za-z_][A-Za-z_0-9]*$/;

/** One spelling per field path: simple segments bare, others in backticks, joined with dots. */
export function canonicalFieldPath(path: string): string {
  if (path === "__name__") return path;
  return parseFieldPath(path)
    .map((segment) =>
      SIMPLE_SEGMENT.test(segment) ? segment : `\`${segment.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``,
    )
    .join(".");
}

export class IndexCatalog {
  constructor(
    readonly composites: readonly CompositeIndex[] = [],
    readonly overrides: readonly FieldOverride[] = [],
  ) {}

  /** Only the automatic single-field indexes. */
  static automatic(): IndexCatalog {
    return new IndexCatalog();
  }

  /** The indexes several `firestore.indexes.json` declare together. */
  static fromFiles(files: readonly string[]): IndexCatalog {
    const catalogs = files.map((file) => IndexCatalog.fromFile(file));
    return new IndexCatalog(
      catalogs.flatMap((c) => c.composites),
      catalogs.flatMap((c) => c.overrides),
    );
  }

  /** The indexes a `firestore.indexes.json` declares (the file `firebase deploy` reads). */
  static fromFile(file: string): IndexCatalog {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new Error(`Cannot read the index definitions ${file}: ${(error as Error).message}`);
    }
    return IndexCatalog.fromJson(json, file);
  }

  static fromJson(json: unknown, source = "firestore.indexes.json"): IndexCatalog {
    const fail = (what: string): never => {
      throw new Error(`Invalid index definition in ${source}: ${what}`);
    };
    const root = isObject(json) ? json : fail("not an object");
    const composites = arrayOf(root.indexes, "indexes", fail).map((entry, i) =>
      compositeFrom(entry, `indexes[${i}]`, fail),
    );
    const overrides = arrayOf(root.fieldOverrides, "fieldOverrides", fail).map((entry, i) =>
      overrideFrom(entry, `fieldOverrides[${i}]`, fail),
    );
    return new IndexCatalog(composites, overrides);
  }

  /**
   * The single-field indexes of a field in a collection group: its override's (the override of the
   * nearest enclosing map field counts for subfields), else the automatic ones.
   */
  singleField(collectionGroup: string, fieldPath: string): readonly SingleFieldIndex[] {
    if (fieldPath === "__name__") return AUTOMATIC.filter((i) => i.mode !== "CONTAINS");
    let best: FieldOverride | undefined;
    for (const override of this.overrides) {
      if (override.collectionGroup !== collectionGroup) continue;
      const applies = fieldPath === override.fieldPath || fieldPath.startsWith(`${override.fieldPath}.`);
      if (applies && (!best || override.fieldPath.length > best.fieldPath.length)) best = override;
    }
    return best ? best.indexes : AUTOMATIC;
  }

  hasSingleField(collectionGroup: string, fieldPath: string, mode: FieldMode, scope: QueryScope): boolean {
    return this.singleField(collectionGroup, fieldPath).some(
      (index) => index.mode === mode && index.queryScope === scope,
    );
  }

  compositesFor(collectionGroup: string, scope: QueryScope): CompositeIndex[] {
    return this.composites.filter((i) => i.collectionGroup === collectionGroup && i.queryScope === scope);
  }
}

type Fail = (what: string) => never;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown, what: string, fail: Fail): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : fail(`${what} is not a list`);
}

function stringAt(entry: Record<string, unknown>, key: string, where: string, fail: Fail): string {
  const value = entry[key];
  return typeof value === "string" && value !== "" ? value : fail(`${where}.${key} is missing`);
}

function scopeOf(value: unknown, where: string, fail: Fail): QueryScope {
  if (value === undefined) return "COLLECTION";
  return value === "COLLECTION" || value === "COLLECTION_GROUP"
    ? value
    : fail(`${where}.queryScope must be COLLECTION or COLLECTION_GROUP`);
}

function modeOf(entry: Record<string, unknown>, where: string, fail: Fail): FieldMode {
  if (entry.order === "ASCENDING" || entry.order === "DESCENDING") return entry.order;
  if (entry.arrayConfig === "CONTAINS") return "CONTAINS";
  return fail(`${where} needs order ASCENDING/DESCENDING or arrayConfig CONTAINS`);
}

function compositeFrom(entry: unknown, where: string, fail: Fail): CompositeIndex {
  if (!isObject(entry)) return fail(`${where} is not an object`);
  const fields = arrayOf(entry.fields, `${where}.fields`, fail).map((field, i) => {
    const at = `${where}.fields[${i}]`;
    if (!isObject(field)) return fail(`${at} is not an object`);
    return {
      fieldPath: canonicalFieldPath(stringAt(field, "fieldPath", at, fail)),
      mode: modeOf(field, at, fail),
    };
  });
  if (fields.length === 0) fail(`${where} has no fields`);
  return {
    collectionGroup: stringAt(entry, "collectionGroup", where, fail),
    queryScope: scopeOf(entry.queryScope, where, fail),
    fields,
  };
}

function overrideFrom(entry: unknown, where: string, fail: Fail): FieldOverride {
  if (!isObject(entry)) return fail(`${where} is not an object`);
  const indexes = arrayOf(entry.indexes, `${where}.indexes`, fail).map((index, i) => {
    const at = `${where}.indexes[${i}]`;
    if (!isObject(index)) return fail(`${at} is not an object`);
    return { mode: modeOf(index, at, fail), queryScope: scopeOf(index.queryScope, at, fail) };
  });
  return {
    collectionGroup: stringAt(entry, "collectionGroup", where, fail),
    fieldPath: canonicalFieldPath(stringAt(entry, "fieldPath", where, fail)),
    indexes,
  };
}

/** Thrown by the planner: a query no index serves. */
export class MissingIndexError extends FirestoreError {
  constructor(message: string) {
    super(Code.FAILED_PRECONDITION, message);
  }
}
