/**
 * The filters of a query as the index reader sees them (serve.ts): its disjuncts, each a conjunction of
 * simple filters, the values they fix and the ranges they bound, and what an index entry can check alone.
 */
import type { StructuredQueryFilter } from "@firestore-emulator/proto/dist/google/firestore/v1/query";
import {
  StructuredQueryCompositeFilterOperator as CompositeOp,
  StructuredQueryFieldFilterOperator as FieldOp,
  StructuredQueryUnaryFilterOperator as UnaryOp,
} from "@firestore-emulator/proto/dist/google/firestore/v1/query";

import type { IndexEntry, MaterializedIndex } from "./index-entries";
import { canonicalFieldPath, type IndexField } from "./indexes";
import type { StoredDocument } from "./store";
import { fromProto, parseFieldPath, setField, type Fields, type Value } from "./values";

const NAME = "__name__";

export interface Conjunction {
  /**
   * The values a field may take: one for `==`, IS NULL, IS NAN and `array-contains` (the element), several
   * for `in` and `array-contains-any`.
   */
  fixed: Map<string, Value[]>;
  ranges: { path: string; op: FieldOp; value: Value }[];
}

/** The query's filter as a conjunction of simple filters, or undefined when it has an OR. */
export function conjunction(
  filter: StructuredQueryFilter | undefined,
  into: Conjunction,
): Conjunction | undefined {
  if (!filter) return into;
  if (filter.filter_type === "composite_filter") {
    if (filter.composite_filter.op !== CompositeOp.AND) return undefined;
    for (const part of filter.composite_filter.filters) if (!conjunction(part, into)) return undefined;
    return into;
  }
  if (filter.filter_type === "unary_filter") {
    const path = canonicalFieldPath(filter.unary_filter.field.field_path);
    const { op } = filter.unary_filter;
    if (op === UnaryOp.IS_NULL) into.fixed.set(path, [{ null_value: 0 }]);
    if (op === UnaryOp.IS_NAN) into.fixed.set(path, [{ double_value: NaN }]);
    return into;
  }
  if (filter.filter_type === "field_filter") {
    const path = canonicalFieldPath(filter.field_filter.field.field_path);
    const { op } = filter.field_filter;
    const value = fromProto(filter.field_filter.value);
    if ((op === FieldOp.EQUAL || op === FieldOp.ARRAY_CONTAINS) && !into.fixed.has(path))
      into.fixed.set(path, [value]);
    const many = op === FieldOp.IN || op === FieldOp.ARRAY_CONTAINS_ANY;
    if (many && "array_value" in value && !into.fixed.has(path))
      into.fixed.set(path, value.array_value.values);
    const range = [
      FieldOp.LESS_THAN,
      FieldOp.LESS_THAN_OR_EQUAL,
      FieldOp.GREATER_THAN,
      FieldOp.GREATER_THAN_OR_EQUAL,
    ];
    if (range.includes(op)) into.ranges.push({ path, op, value });
  }
  return into;
}

/**
 * Whether every filter of the query can be checked on the index's entries: each names `__name__` or an
 * indexed field, and an array-contains field only with array-contains(-any).
 */
export function filterOnEntries(
  filter: StructuredQueryFilter | undefined,
  modes: ReadonlyMap<string, IndexField["mode"]>,
): boolean {
  if (!filter) return true;
  if (filter.filter_type === "composite_filter")
    return filter.composite_filter.filters.every((part) => filterOnEntries(part, modes));
  let path: string;
  let contains = false;
  if (filter.filter_type === "field_filter") {
    path = canonicalFieldPath(filter.field_filter.field.field_path);
    const { op } = filter.field_filter;
    contains = op === FieldOp.ARRAY_CONTAINS || op === FieldOp.ARRAY_CONTAINS_ANY;
  } else if (filter.filter_type === "unary_filter") {
    path = canonicalFieldPath(filter.unary_filter.field.field_path);
  } else return false;
  if (path === NAME) return true;
  const mode = modes.get(path);
  return mode !== undefined && (mode === "CONTAINS") === contains;
}

const NO_TIME = { seconds: 0, nanos: 0 };

/** What an entry tells of its document: the indexed values (an array-contains field: the one element). */
export function entryDocument(index: MaterializedIndex, entry: IndexEntry): StoredDocument {
  let fields: Fields = {};
  index.definition.fields.forEach((field, i) => {
    const value = entry.value(i);
    const indexed = field.mode === "CONTAINS" ? { array_value: { values: [value] } } : value;
    fields = setField(fields, parseFieldPath(field.fieldPath), indexed);
  });
  return { path: entry.path, fields, createTime: NO_TIME, updateTime: NO_TIME };
}

/** The filter in disjunctive normal form, as lists of simple filters, in the planner's disjunct order. */
export function disjunctLeaves(filter: StructuredQueryFilter | undefined): StructuredQueryFilter[][] {
  if (!filter) return [[]];
  if (filter.filter_type !== "composite_filter") return [[filter]];
  const parts = filter.composite_filter.filters.map(disjunctLeaves);
  if (filter.composite_filter.op === CompositeOp.OR) return parts.flat();
  return parts.reduce<StructuredQueryFilter[][]>(
    (product, part) => product.flatMap((left) => part.map((right) => [...left, ...right])),
    [[]],
  );
}
