/**
 * Queries of the in-memory Firestore (`memory-firestore.ts`): which documents a query selects, in which
 * order, from which cursor, as Firestore does (a filter or an order on a field leaves out the documents
 * without it; the document name orders last).
 */
import { compare, fieldOf, withField, type Data } from "./memory-values";

export interface Filter {
  field: string;
  op: string;
  value: unknown;
}

export interface Order {
  field: string;
  direction: "asc" | "desc";
}

export interface Cursor {
  values: unknown[];
  after: boolean;
}

export interface QueryOptions {
  filters: Filter[];
  orders: Order[];
  limit?: number;
  offset?: number;
  start?: Cursor;
  end?: Cursor;
  fields?: string[];
}

/** A collection (`parent` is the path of its document, "" at the root), or every collection of an id. */
export interface QueryScope {
  parent: string;
  collectionId: string;
  group: boolean;
}

const EQUALITIES = ["==", "in", "array-contains", "array-contains-any"];

/** The query's orders: an inequality's field first when not ordered, the document name last. */
export function ordersOf(options: QueryOptions): Order[] {
  const orders = [...options.orders];
  const inequality = options.filters.find((filter) => !EQUALITIES.includes(filter.op));
  if (inequality && !orders.some((order) => order.field === inequality.field)) {
    orders.unshift({ field: inequality.field, direction: "asc" });
  }
  if (!orders.some((order) => order.field === "__name__")) {
    orders.push({ field: "__name__", direction: orders[orders.length - 1]?.direction ?? "asc" });
  }
  return orders;
}

function inScope(scope: QueryScope, path: string): boolean {
  const parts = path.split("/");
  if (scope.group) return parts[parts.length - 2] === scope.collectionId;
  const collection = scope.parent ? `${scope.parent}/${scope.collectionId}` : scope.collectionId;
  return parts.slice(0, -1).join("/") === collection;
}

/** Firestore's value types as range filters tell them apart (a number is one type, integer or not). */
function typeOf(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Date) return "timestamp";
  if (typeof value === "object") return (value as object).constructor?.name ?? "object";
  return typeof value;
}

/**
 * Whether `actual` passes the filter. A range filter (<, <=, >, >=) matches only values of the operand's
 * type, as Firestore's: `deletedAtSource < "2026-…"` leaves out the documents whose value is null
 * (https://firebase.google.com/docs/firestore/query-data/order-limit-data, "value type ordering").
 */
function holds(actual: unknown, op: string, wanted: unknown): boolean {
  if (["<", "<=", ">", ">="].includes(op) && typeOf(actual) !== typeOf(wanted)) return false;
  const any = (values: unknown, value: unknown) =>
    (values as unknown[]).some((one) => compare(one, value) === 0);
  switch (op) {
    case "==":
      return compare(actual, wanted) === 0;
    case "!=":
      return compare(actual, wanted) !== 0;
    case "<":
      return compare(actual, wanted) < 0;
    case "<=":
      return compare(actual, wanted) <= 0;
    case ">":
      return compare(actual, wanted) > 0;
    case ">=":
      return compare(actual, wanted) >= 0;
    case "in":
      return any(wanted, actual);
    case "not-in":
      return !any(wanted, actual);
    case "array-contains":
      return Array.isArray(actual) && any(actual, wanted);
    case "array-contains-any":
      return Array.isArray(actual) && actual.some((entry) => any(wanted, entry));
    default:
      throw new Error(`The in-memory Firestore does not filter with '${op}'`);
  }
}

/** A reference given as a filter's value stands for its path. */
const pathOrValue = (value: unknown): unknown =>
  typeof value === "object" && value !== null && "firestore" in value && "path" in value
    ? (value as { path: unknown }).path
    : value;

/** A document id given for the document name stands for that document of the collection `path` is in. */
function qualified(path: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((entry) => qualified(path, entry));
  return typeof value === "string" && !value.includes("/")
    ? `${path.slice(0, path.lastIndexOf("/"))}/${value}`
    : value;
}

function matches(filters: Filter[], path: string, data: Data): boolean {
  return filters.every(({ field, op, value }) => {
    if (field === "__name__") return holds(path, op, qualified(path, pathOrValue(value)));
    const actual = fieldOf(data, field);
    return actual !== undefined && holds(actual, op, pathOrValue(value));
  });
}

/** Where a document lies from a cursor: below 0 before it, 0 at it, above 0 after it. */
function position(orders: Order[], path: string, data: Data, cursor: unknown[]): number {
  for (const [index, value] of cursor.entries()) {
    const order = orders[index] as Order;
    const actual = order.field === "__name__" ? path : fieldOf(data, order.field);
    // A document id as a cursor names a document of the queried collection.
    const wanted = order.field === "__name__" ? qualified(path, value) : value;
    const sign = compare(actual, wanted) * (order.direction === "desc" ? -1 : 1);
    if (sign !== 0) return sign;
  }
  return 0;
}

/** The documents a query answers, in its order. */
export function selectRows(
  documents: ReadonlyMap<string, Data>,
  scope: QueryScope,
  options: QueryOptions,
): { path: string; data: Data }[] {
  const orders = ordersOf(options);
  const valueAt = (row: { path: string; data: Data }, field: string) =>
    field === "__name__" ? row.path : fieldOf(row.data, field);
  let rows = [...documents.entries()]
    .map(([path, data]) => ({ path, data }))
    .filter((row) => inScope(scope, row.path) && matches(options.filters, row.path, row.data))
    .filter((row) => orders.every((order) => valueAt(row, order.field) !== undefined));
  rows.sort((a, b) => {
    for (const order of orders) {
      const sign = compare(valueAt(a, order.field), valueAt(b, order.field));
      if (sign !== 0) return order.direction === "desc" ? -sign : sign;
    }
    return 0;
  });
  const { start, end } = options;
  if (start)
    rows = rows.filter((row) => position(orders, row.path, row.data, start.values) > (start.after ? 0 : -1));
  if (end) rows = rows.filter((row) => position(orders, row.path, row.data, end.values) < 0);
  const from = options.offset ?? 0;
  return rows.slice(from, options.limit === undefined ? undefined : from + options.limit);
}

/** What a query with `select` answers of a document: only the fields named (all without `select`). */
export function projected(data: Data, fields: string[] | undefined): Data {
  if (!fields) return data;
  return fields.reduce<Data>((out, field) => {
    const value = fieldOf(data, field);
    return value === undefined ? out : withField(out, field, value);
  }, {});
}
