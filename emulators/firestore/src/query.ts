/**
 * Structured queries with Firestore's semantics: collection and collection-group (and kindless
 * all-descendants) selection, nested AND/OR filters, implicit ordering (inequality fields, then
 * `__name__`), existence of order-by fields, cursors, offset, limit, projections and aggregations.
 */
import type {
  Cursor,
  StructuredAggregationQuery,
  StructuredQuery,
  StructuredQueryFilter,
} from "@firestore-emulator/proto/dist/google/firestore/v1/query";
import {
  StructuredQueryCompositeFilterOperator as CompositeOp,
  StructuredQueryDirection as Direction,
  StructuredQueryFieldFilterOperator as FieldOp,
  StructuredQueryUnaryFilterOperator as UnaryOp,
} from "@firestore-emulator/proto/dist/google/firestore/v1/query";

import type { Database, StoredDocument } from "./store";
import {
  Code,
  compareValues,
  FirestoreError,
  fromProto,
  getField,
  isNaNValue,
  isNumber,
  numberOf,
  parseFieldPath,
  typeOrder,
  valuesEqual,
  type Value,
} from "./values";

const NAME = "__name__";

export interface Order {
  path: string;
  segments: string[];
  descending: boolean;
}

export type Predicate = (document: StoredDocument) => boolean;

export class QueryContext {
  constructor(readonly database: Database) {}

  lookup(document: StoredDocument, path: string, segments: string[]): Value | undefined {
    if (path === NAME) return { reference_value: this.database.fullName(document.path) };
    return getField(document.fields, segments);
  }
}

function segmentsOf(path: string): string[] {
  return path === NAME ? [NAME] : parseFieldPath(path);
}

const INEQUALITIES = new Set([
  FieldOp.LESS_THAN,
  FieldOp.LESS_THAN_OR_EQUAL,
  FieldOp.GREATER_THAN,
  FieldOp.GREATER_THAN_OR_EQUAL,
  FieldOp.NOT_EQUAL,
  FieldOp.NOT_IN,
]);

function matchField(op: FieldOp, actual: Value, operand: Value): boolean {
  const isNull = "null_value" in actual;
  switch (op) {
    case FieldOp.EQUAL:
      return valuesEqual(actual, operand);
    case FieldOp.NOT_EQUAL:
      return !isNull && !valuesEqual(actual, operand);
    case FieldOp.LESS_THAN:
    case FieldOp.LESS_THAN_OR_EQUAL:
    case FieldOp.GREATER_THAN:
    case FieldOp.GREATER_THAN_OR_EQUAL: {
      // Range filters only match values of the operand's type (numbers: integers and doubles alike).
      if (typeOrder(actual) !== typeOrder(operand) || isNaNValue(actual) || isNaNValue(operand)) return false;
      const c = compareValues(actual, operand);
      if (op === FieldOp.LESS_THAN) return c < 0;
      if (op === FieldOp.LESS_THAN_OR_EQUAL) return c <= 0;
      if (op === FieldOp.GREATER_THAN) return c > 0;
      return c >= 0;
    }
    case FieldOp.ARRAY_CONTAINS:
      return "array_value" in actual && actual.array_value.values.some((v) => valuesEqual(v, operand));
    case FieldOp.ARRAY_CONTAINS_ANY:
      return (
        "array_value" in actual &&
        "array_value" in operand &&
        actual.array_value.values.some((v) => operand.array_value.values.some((o) => valuesEqual(v, o)))
      );
    case FieldOp.IN:
      return "array_value" in operand && operand.array_value.values.some((o) => valuesEqual(actual, o));
    case FieldOp.NOT_IN:
      return (
        !isNull &&
        "array_value" in operand &&
        !operand.array_value.values.some((o) => "null_value" in o || valuesEqual(actual, o))
      );
    case FieldOp.OPERATOR_UNSPECIFIED:
    default:
      throw new FirestoreError(Code.INVALID_ARGUMENT, `Unsupported filter operator ${op}.`);
  }
}

/** Compiles a filter; fields used with an inequality are collected for the implicit ordering. */
function compileFilter(
  filter: StructuredQueryFilter,
  context: QueryContext,
  inequalities: Set<string>,
): Predicate {
  switch (filter.filter_type) {
    case "composite_filter": {
      const parts = filter.composite_filter.filters.map((f) => compileFilter(f, context, inequalities));
      if (filter.composite_filter.op === CompositeOp.OR) return (d) => parts.some((p) => p(d));
      return (d) => parts.every((p) => p(d));
    }
    case "field_filter": {
      const { field, op } = filter.field_filter;
      const path = field.field_path;
      const segments = segmentsOf(path);
      const operand = fromProto(filter.field_filter.value);
      if (INEQUALITIES.has(op)) inequalities.add(path);
      return (d) => {
        const actual = context.lookup(d, path, segments);
        return actual !== undefined && matchField(op, actual, operand);
      };
    }
    case "unary_filter": {
      const { op } = filter.unary_filter;
      const path = filter.unary_filter.field.field_path;
      const segments = segmentsOf(path);
      if (op === UnaryOp.IS_NOT_NAN || op === UnaryOp.IS_NOT_NULL) inequalities.add(path);
      return (d) => {
        const actual = context.lookup(d, path, segments);
        if (actual === undefined) return false;
        if (op === UnaryOp.IS_NAN) return isNaNValue(actual);
        if (op === UnaryOp.IS_NULL) return "null_value" in actual;
        if (op === UnaryOp.IS_NOT_NAN) return !("null_value" in actual) && !isNaNValue(actual);
        if (op === UnaryOp.IS_NOT_NULL) return !("null_value" in actual);
        throw new FirestoreError(Code.INVALID_ARGUMENT, `Unsupported unary operator ${op}.`);
      };
    }
    case "none":
      return () => true;
  }
}

export function compareByOrders(
  a: StoredDocument,
  b: StoredDocument,
  orders: Order[],
  context: QueryContext,
): number {
  for (const order of orders) {
    const c = compareValues(
      context.lookup(a, order.path, order.segments) as Value,
      context.lookup(b, order.path, order.segments) as Value,
    );
    if (c !== 0) return order.descending ? -c : c;
  }
  return 0;
}

/** A cursor's position: its values (a `__name__` string made a reference), checked against the order. */
export interface Position {
  values: Value[];
  before: boolean;
}

function positionOf(cursor: Cursor, orders: Order[], context: QueryContext): Position {
  const values = cursor.values.map(fromProto);
  if (values.length > orders.length) {
    throw new FirestoreError(Code.INVALID_ARGUMENT, "Too many cursor values for the query's order.");
  }
  return {
    before: cursor.before,
    values: values.map((value, i) =>
      (orders[i] as Order).path === NAME && "string_value" in value
        ? { reference_value: `${context.database.fullName("")}/${value.string_value}` }
        : value,
    ),
  };
}

/** <0: the document sorts before the cursor position, 0: at it, >0: after it. */
function compareToPosition(
  document: StoredDocument,
  position: Position,
  orders: Order[],
  context: QueryContext,
): number {
  for (let i = 0; i < position.values.length; i++) {
    const order = orders[i] as Order;
    const c = compareValues(
      context.lookup(document, order.path, order.segments) as Value,
      position.values[i] as Value,
    );
    if (c !== 0) return order.descending ? -c : c;
  }
  return 0;
}

/**
 * The `count` first documents in `compare` order, sorted: a bounded max-heap, so a page of a large
 * collection costs n·log(count) comparisons instead of a full sort.
 */
function firstInOrder<T>(items: T[], count: number, compare: (a: T, b: T) => number): T[] {
  if (count <= 0) return [];
  const heap: T[] = [];
  const up = (index: number) => {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (compare(heap[index] as T, heap[parent] as T) <= 0) return;
      [heap[index], heap[parent]] = [heap[parent] as T, heap[index] as T];
      index = parent;
    }
  };
  const down = (index: number) => {
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let largest = index;
      if (left < heap.length && compare(heap[left] as T, heap[largest] as T) > 0) largest = left;
      if (right < heap.length && compare(heap[right] as T, heap[largest] as T) > 0) largest = right;
      if (largest === index) return;
      [heap[index], heap[largest]] = [heap[largest] as T, heap[index] as T];
      index = largest;
    }
  };
  for (const item of items) {
    if (heap.length < count) {
      heap.push(item);
      up(heap.length - 1);
    } else if (compare(item, heap[0] as T) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}

function candidates(
  database: Database,
  parentPath: string,
  query: StructuredQuery,
): Iterable<StoredDocument> {
  if (query.from.length !== 1) {
    throw new FirestoreError(Code.INVALID_ARGUMENT, "A query must select exactly one collection.");
  }
  const { collection_id: collectionId, all_descendants: allDescendants } = query.from[0]!;
  if (!allDescendants) {
    return database.inCollection(parentPath ? `${parentPath}/${collectionId}` : collectionId);
  }
  const prefix = parentPath ? `${parentPath}/` : "";
  const result: StoredDocument[] = [];
  for (const path of database.paths()) {
    if (!path.startsWith(prefix)) continue;
    if (collectionId) {
      const segments = path.split("/");
      if (segments[segments.length - 2] !== collectionId) continue;
    }
    result.push(database.get(path)!);
  }
  return result;
}

/** A query compiled for reading: its filter, full ordering and cursor positions. */
export interface PreparedQuery {
  context: QueryContext;
  predicate: Predicate;
  /** Explicit orders, then inequality fields, then `__name__`. */
  orders: Order[];
  start?: Position;
  end?: Position;
}

export function prepareQuery(database: Database, query: StructuredQuery): PreparedQuery {
  const context = new QueryContext(database);
  const inequalities = new Set<string>();
  const predicate = query.has_where ? compileFilter(query.where, context, inequalities) : () => true;

  const orders: Order[] = query.order_by.map((o) => ({
    path: o.field.field_path,
    segments: segmentsOf(o.field.field_path),
    descending: o.direction === Direction.DESCENDING,
  }));
  for (const path of [...inequalities].sort()) {
    if (!orders.some((o) => o.path === path))
      orders.push({ path, segments: segmentsOf(path), descending: false });
  }
  if (!orders.some((o) => o.path === NAME)) {
    orders.push({ path: NAME, segments: [NAME], descending: orders[orders.length - 1]?.descending ?? false });
  }
  const start = query.has_start_at ? positionOf(query.start_at, orders, context) : undefined;
  const end = query.has_end_at ? positionOf(query.end_at, orders, context) : undefined;
  return { context, predicate, orders, start, end };
}

/** Whether a document (or index entry, through `compare`) is inside the cursors: -1 before, 0 in, 1 after. */
export function cursorSide(compare: (position: Position) => number, prepared: PreparedQuery): number {
  const { start, end } = prepared;
  if (start) {
    const c = compare(start);
    if (start.before ? c < 0 : c <= 0) return -1;
  }
  if (end) {
    const c = compare(end);
    if (end.before ? c >= 0 : c > 0) return 1;
  }
  return 0;
}

/**
 * Runs a structured query below `parentPath` ("" = the database root) by reading every candidate document
 * (used when no index plan serves it). Cursors are checked on each document as it is read; with a limit
 * only the first `offset + limit` documents are put in order. `ordered: false` (aggregations) skips
 * ordering when neither offset nor limit depends on it. `counter` receives the documents examined and the
 * matching documents the offset skipped.
 */
export function runQuery(
  database: Database,
  parentPath: string,
  query: StructuredQuery,
  options: { ordered?: boolean; counter?: { examined: number; skipped: number } } = {},
): StoredDocument[] {
  const prepared = prepareQuery(database, query);
  const { context, predicate, orders } = prepared;
  let documents: StoredDocument[] = [];
  for (const document of candidates(database, parentPath, query)) {
    if (options.counter) options.counter.examined += 1;
    // Ordering by a field also filters for its existence.
    if (!orders.every((o) => context.lookup(document, o.path, o.segments) !== undefined)) continue;
    if (!predicate(document)) continue;
    if (cursorSide((p) => compareToPosition(document, p, orders, context), prepared) !== 0) continue;
    documents.push(document);
  }
  if (options.ordered === false && !query.has_limit && query.offset === 0) return documents;
  const compare = (a: StoredDocument, b: StoredDocument) => compareByOrders(a, b, orders, context);
  const wanted = query.has_limit ? query.offset + query.limit.value : Number.POSITIVE_INFINITY;
  documents = wanted < documents.length ? firstInOrder(documents, wanted, compare) : documents.sort(compare);
  if (options.counter) options.counter.skipped += Math.min(query.offset, documents.length);
  if (query.offset > 0) documents = documents.slice(query.offset);
  if (query.has_limit) documents = documents.slice(0, query.limit.value);
  return documents;
}

/** Projection paths of a query's `select`, or undefined for whole documents. */
export function projectionOf(query: StructuredQuery): string[][] | undefined {
  if (!query.has_select) return undefined;
  return query.select.fields
    .map((f) => f.field_path)
    .filter((p) => p !== NAME)
    .map(parseFieldPath);
}

export function runAggregation(
  database: Database,
  parentPath: string,
  aggregation: StructuredAggregationQuery,
  documents = runQuery(database, parentPath, aggregation.structured_query, { ordered: false }),
): Record<string, Value> {
  const result: Record<string, Value> = {};
  for (const agg of aggregation.aggregations) {
    if (agg.operator === "count") {
      const upTo = agg.count.has_up_to ? Number(agg.count.up_to.value) : Infinity;
      result[agg.alias] = { integer_value: Math.min(documents.length, upTo) };
      continue;
    }
    if (agg.operator !== "sum" && agg.operator !== "avg") {
      throw new FirestoreError(Code.INVALID_ARGUMENT, "Unknown aggregation.");
    }
    const segments = parseFieldPath(agg[agg.operator].field.field_path);
    const numbers = documents
      .map((d) => getField(d.fields, segments))
      .filter(
        (v): v is Extract<Value, { integer_value: number } | { double_value: number }> => !!v && isNumber(v),
      );
    const sum = numbers.reduce((total, v) => total + numberOf(v), 0);
    if (agg.operator === "sum") {
      const allIntegers = numbers.every((v) => "integer_value" in v) && Number.isSafeInteger(sum);
      result[agg.alias] = allIntegers ? { integer_value: sum } : { double_value: sum };
    } else {
      result[agg.alias] = numbers.length === 0 ? { null_value: 0 } : { double_value: sum / numbers.length };
    }
  }
  return result;
}
