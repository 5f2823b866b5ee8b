/**
 * Decides which indexes serve a query, as Firestore does (docs/firestore-emulator.md, Indexes), and
 * refuses a query no index serves with Firestore's FAILED_PRECONDITION "The query requires an index…".
 *
 * A query is planned per disjunct of its filter (Firestore runs an OR query as a union of AND queries).
 * Each disjunct needs: its equality fields (==, in, IS NULL/NAN; array-contains/-any as CONTAINS), then
 * the query's order (explicit orderBy, then the inequality fields, then `__name__`). It is served by
 * - the `__name__` index alone when it has neither equalities nor order fields;
 * - one single-field index when it has one order field and no equalities;
 * - merged single-field indexes when it has only equalities (ascending by name);
 * - merged composite indexes, each being some equality fields followed by exactly the order fields (with
 *   the name direction), that together cover all equality fields ("index merging").
 * Anything else is refused. Filters on `__name__` need no index.
 */
import { Field as FieldProto } from "@firestore-emulator/proto/dist/google/firestore/admin/v1/field";
import {
  Index as IndexProto,
  IndexIndexField,
  IndexIndexFieldArrayConfig,
  IndexIndexFieldOrder,
  IndexQueryScope,
} from "@firestore-emulator/proto/dist/google/firestore/admin/v1/index";
import type {
  StructuredQuery,
  StructuredQueryFilter,
} from "@firestore-emulator/proto/dist/google/firestore/v1/query";
import {
  StructuredQueryCompositeFilterOperator as CompositeOp,
  StructuredQueryDirection as Direction,
  StructuredQueryFieldFilterOperator as FieldOp,
  StructuredQueryUnaryFilterOperator as UnaryOp,
} from "@firestore-emulator/proto/dist/google/firestore/v1/query";

import {
  canonicalFieldPath,
  MissingIndexError,
  type CompositeIndex,
  type FieldMode,
  type IndexCatalog,
  type IndexField,
  type QueryScope,
} from "./indexes";

const NAME = "__name__";

type Order = "ASCENDING" | "DESCENDING";

/** One conjunction of a query's filter, reduced to what decides its index. */
interface Disjunct {
  /** Equality fields in filter order, with how they are matched. */
  equalities: Map<string, "ASCENDING" | "CONTAINS">;
}

/** What one disjunct needs: equalities, then order fields, then the name in `nameOrder`. */
export interface IndexNeed {
  collectionGroup: string;
  scope: QueryScope;
  equalities: Map<string, "ASCENDING" | "CONTAINS">;
  orders: { fieldPath: string; order: Order }[];
  nameOrder: Order;
}

/** How a need is served: the indexes (single-field ones as one-field lists) whose scans are merged. */
export interface IndexPlan {
  need: IndexNeed;
  indexes: IndexField[][];
}

const EQUALITY_OPS = new Set([FieldOp.EQUAL, FieldOp.IN]);
const CONTAINS_OPS = new Set([FieldOp.ARRAY_CONTAINS, FieldOp.ARRAY_CONTAINS_ANY]);
const INEQUALITY_OPS = new Set([
  FieldOp.LESS_THAN,
  FieldOp.LESS_THAN_OR_EQUAL,
  FieldOp.GREATER_THAN,
  FieldOp.GREATER_THAN_OR_EQUAL,
  FieldOp.NOT_EQUAL,
  FieldOp.NOT_IN,
]);

/** The filter in disjunctive normal form; inequality fields are collected for the implicit order. */
function disjuncts(filter: StructuredQueryFilter | undefined, inequalities: Set<string>): Disjunct[] {
  if (!filter) return [{ equalities: new Map() }];
  switch (filter.filter_type) {
    case "composite_filter": {
      const parts = filter.composite_filter.filters.map((f) => disjuncts(f, inequalities));
      if (filter.composite_filter.op === CompositeOp.OR) return parts.flat();
      return parts.reduce<Disjunct[]>(
        (product, part) =>
          product.flatMap((left) =>
            part.map((right) => ({ equalities: new Map([...left.equalities, ...right.equalities]) })),
          ),
        [{ equalities: new Map() }],
      );
    }
    case "field_filter": {
      const path = canonicalFieldPath(filter.field_filter.field.field_path);
      const { op } = filter.field_filter;
      if (INEQUALITY_OPS.has(op) && path !== NAME) inequalities.add(path);
      if (path === NAME) return [{ equalities: new Map() }];
      if (EQUALITY_OPS.has(op)) return [{ equalities: new Map([[path, "ASCENDING"]]) }];
      if (CONTAINS_OPS.has(op)) return [{ equalities: new Map([[path, "CONTAINS"]]) }];
      return [{ equalities: new Map() }];
    }
    case "unary_filter": {
      const path = canonicalFieldPath(filter.unary_filter.field.field_path);
      const { op } = filter.unary_filter;
      if (op === UnaryOp.IS_NOT_NAN || op === UnaryOp.IS_NOT_NULL) {
        inequalities.add(path);
        return [{ equalities: new Map() }];
      }
      return [{ equalities: path === NAME ? new Map() : new Map([[path, "ASCENDING"]]) }];
    }
    case "none":
      return [{ equalities: new Map() }];
  }
}

/** The index needs of a collection or collection-group query (none for a kindless query). */
export function indexNeeds(query: StructuredQuery): IndexNeed[] {
  const from = query.from[0];
  if (!from || !from.collection_id) return [];
  const inequalities = new Set<string>();
  const parts = disjuncts(query.has_where ? query.where : undefined, inequalities);
  const orders = query.order_by.map((o) => ({
    fieldPath: canonicalFieldPath(o.field.field_path),
    order: (o.direction === Direction.DESCENDING ? "DESCENDING" : "ASCENDING") as Order,
  }));
  for (const path of [...inequalities].sort()) {
    if (!orders.some((o) => o.fieldPath === path)) orders.push({ fieldPath: path, order: "ASCENDING" });
  }
  const nameAt = orders.findIndex((o) => o.fieldPath === NAME);
  const nameOrder = nameAt >= 0 ? orders[nameAt]!.order : (orders[orders.length - 1]?.order ?? "ASCENDING");
  const significant = nameAt >= 0 ? orders.slice(0, nameAt) : orders;
  return parts.map(({ equalities }) => ({
    collectionGroup: from.collection_id,
    scope: from.all_descendants ? "COLLECTION_GROUP" : "COLLECTION",
    equalities,
    // Ordering by a field fixed by an equality changes nothing.
    orders: significant.filter((o) => equalities.get(o.fieldPath) !== "ASCENDING"),
    nameOrder,
  }));
}

/** The indexes that serve a need, or undefined when none do. */
export function planNeed(need: IndexNeed, catalog: IndexCatalog): IndexPlan | undefined {
  const { collectionGroup, scope, equalities, orders, nameOrder } = need;
  const single = (fieldPath: string, mode: FieldMode) =>
    catalog.hasSingleField(collectionGroup, fieldPath, mode, scope);
  if (equalities.size === 0 && orders.length === 0) {
    return { need, indexes: [[{ fieldPath: NAME, mode: nameOrder }]] };
  }
  if (equalities.size === 0 && orders.length === 1) {
    const [{ fieldPath, order }] = orders as [{ fieldPath: string; order: Order }];
    if (order === nameOrder && single(fieldPath, order))
      return { need, indexes: [[{ fieldPath, mode: order }]] };
  }
  const indexes: IndexField[][] = [];
  const covered = new Set<string>();
  if (orders.length === 0 && nameOrder === "ASCENDING") {
    for (const [fieldPath, mode] of equalities) {
      if (!single(fieldPath, mode)) continue;
      indexes.push([{ fieldPath, mode }]);
      covered.add(fieldPath);
    }
  }
  for (const index of catalog.compositesFor(collectionGroup, scope)) {
    const prefix = servingPrefix(index, need);
    if (!prefix || (prefix.every((f) => covered.has(f)) && prefix.length > 0)) continue;
    indexes.push(index.fields);
    for (const field of prefix) covered.add(field);
  }
  const complete = [...equalities.keys()].every((f) => covered.has(f)) && indexes.length > 0;
  return complete ? { need, indexes } : undefined;
}

/**
 * The equality fields a composite index serves for a need: the index must be those equality fields (in
 * any order; equalities either direction, array-contains as CONTAINS), then exactly the need's order
 * fields, then the name (declared, or implied in the direction of the last field) in the need's order.
 */
function servingPrefix(index: CompositeIndex, need: IndexNeed): string[] | undefined {
  const fields = [...index.fields];
  const last = fields[fields.length - 1]!;
  let nameMode: FieldMode = last.mode === "DESCENDING" ? "DESCENDING" : "ASCENDING";
  if (last.fieldPath === NAME) {
    nameMode = last.mode;
    fields.pop();
  }
  if (nameMode !== need.nameOrder) return undefined;
  const split = fields.length - need.orders.length;
  if (split < 0) return undefined;
  const suffixMatches = need.orders.every((o, i) => {
    const field = fields[split + i]!;
    return field.fieldPath === o.fieldPath && field.mode === o.order;
  });
  if (!suffixMatches) return undefined;
  const prefix = fields.slice(0, split);
  const prefixMatches = prefix.every((field) => {
    const wanted = need.equalities.get(field.fieldPath);
    return wanted === "CONTAINS"
      ? field.mode === "CONTAINS"
      : wanted !== undefined && field.mode !== "CONTAINS";
  });
  return prefixMatches ? prefix.map((f) => f.fieldPath) : undefined;
}

/** Plans every disjunct of a query; throws Firestore's "requires an index" error for the first unserved. */
export function planQuery(
  query: StructuredQuery,
  catalog: IndexCatalog,
  database: { project: string; databaseId: string },
): IndexPlan[] {
  return indexNeeds(query).map((need) => {
    const plan = planNeed(need, catalog);
    if (!plan) throw new MissingIndexError(missingIndexMessage(need, database));
    return plan;
  });
}

// --- the error ---------------------------------------------------------------------------------------
// Production answers with a console link whose query parameter is the base64 of the admin API's Index
// message (create_composite) or Field message (create_exemption, for a single-field index).

const ORDER_PROTO = {
  ASCENDING: IndexIndexFieldOrder.ASCENDING,
  DESCENDING: IndexIndexFieldOrder.DESCENDING,
};

function fieldProto(field: IndexField): Parameters<typeof IndexIndexField.fromObject>[0] {
  return field.mode === "CONTAINS"
    ? { field_path: field.fieldPath, array_config: IndexIndexFieldArrayConfig.CONTAINS }
    : { field_path: field.fieldPath, order: ORDER_PROTO[field.mode] };
}

const SINGLE_FIELD_NAMES: Record<FieldMode, string> = {
  ASCENDING: "ASC",
  DESCENDING: "DESC",
  CONTAINS: "ARRAY_CONTAINS",
};

/** The fields of the index a need asks for: equalities, order fields, then the name. */
export function suggestedIndex(need: IndexNeed): IndexField[] {
  return [
    ...[...need.equalities].map(([fieldPath, mode]) => ({ fieldPath, mode })),
    ...need.orders.map((o) => ({ fieldPath: o.fieldPath, mode: o.order })),
    { fieldPath: NAME, mode: need.nameOrder },
  ];
}

export function missingIndexMessage(
  need: IndexNeed,
  database: { project: string; databaseId: string },
): string {
  const { project, databaseId } = database;
  const consoleUrl =
    `https://console.firebase.google.com/v1/r/project/${project}/firestore/` +
    (databaseId === "(default)" ? "indexes" : `databases/${databaseId}/indexes`);
  const group = `projects/${project}/databases/${databaseId}/collectionGroups/${need.collectionGroup}`;
  const scope = need.scope === "COLLECTION" ? IndexQueryScope.COLLECTION : IndexQueryScope.COLLECTION_GROUP;
  const fields = suggestedIndex(need);
  const wanted = fields.filter((f) => f.fieldPath !== NAME);
  if (
    wanted.length === 1 &&
    need.nameOrder === (wanted[0]!.mode === "DESCENDING" ? "DESCENDING" : "ASCENDING")
  ) {
    const field = wanted[0]!;
    const exemption = FieldProto.fromObject({
      name: `${group}/fields/${field.fieldPath}`,
      index_config: { indexes: [{ query_scope: scope, fields: [fieldProto(field)] }] },
    });
    const kind = `${need.scope === "COLLECTION_GROUP" ? "COLLECTION_GROUP_" : ""}${SINGLE_FIELD_NAMES[field.mode]}`;
    return (
      `The query requires ${/^[AEIOU]/.test(kind) ? "an" : "a"} ${kind} index for collection ` +
      `${need.collectionGroup} and field ${field.fieldPath}. You can create it here: ` +
      `${consoleUrl}?create_exemption=${base64(exemption.serializeBinary())}`
    );
  }
  const index = IndexProto.fromObject({
    name: `${group}/indexes/_`,
    query_scope: scope,
    fields: fields.map(fieldProto),
  });
  const readable = fields.map((f) => `${f.fieldPath} ${f.mode}`).join(", ");
  return (
    `The query requires an index. You can create it here: ` +
    `${consoleUrl}?create_composite=${base64(index.serializeBinary())} ` +
    `(collection group ${need.collectionGroup}, ${need.scope} scope: ${readable})`
  );
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");
