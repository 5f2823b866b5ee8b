/**
 * Serves a planned query from its index, as Firestore does: the equality values fix a prefix of the
 * index, a range filter on the first order field and the cursors narrow it by binary search, and the
 * entries are read in order until the limit is reached; only the documents of entries read are fetched
 * (and filtered by the rest of the query). An OR query reads each disjunct's index and merges them. An
 * aggregation whose filter and fields one index holds reads entries only, no document. Queries this does
 * not cover (an orderBy on a field fixed by `==`) return undefined and are read by scanning (`runQuery`).
 */
import type {
  StructuredQuery,
  StructuredQueryFilter,
} from "@firestore-emulator/proto/dist/google/firestore/v1/query";
import { StructuredQueryFieldFilterOperator as FieldOp } from "@firestore-emulator/proto/dist/google/firestore/v1/query";

import type { IndexDefinition, IndexEntry, MaterializedIndex } from "./index-entries";
import { canonicalFieldPath, type IndexField } from "./indexes";
import type { IndexPlan } from "./planner";
import {
  conjunction,
  disjunctLeaves,
  entryDocument,
  filterOnEntries,
  type Conjunction,
} from "./serve-filters";
import { compareByOrders, cursorSide, prepareQuery, type Position, type PreparedQuery } from "./query";
import type { Database, StoredDocument } from "./store";
import { compareReferences, compareStrings, compareValues, typeOrder, type Value } from "./values";

const NAME = "__name__";

export interface ServedQuery {
  documents: StoredDocument[];
  /** Index entries read. */
  entriesScanned: number;
  /** Documents fetched (including those the rest of the filter then rejected). */
  documentsFetched: number;
  /** Matching documents an `offset` skipped: read, and billed, but not returned. */
  skipped: number;
}

/** Most prefixes (combinations of `in` values) a query is served with; more are read by scanning. */
const MAX_PREFIXES = 30;

/** An index a plan may read, with the prefixes to read of it. */
interface Choice {
  definition: IndexDefinition;
  prefixes: Value[][];
}

/** The indexes of the plan a query may read with the longest prefix (each equally right). */
function indexChoices(plan: IndexPlan, fixed: Map<string, Value[]>): Choice[] {
  let best: Choice[] = [];
  for (const declared of plan.indexes) {
    const fields: IndexField[] = declared.filter((f) => f.fieldPath !== NAME);
    const split = fields.length - plan.need.orders.length;
    const single = fields.length === 1 && plan.need.orders.length === 0;
    const prefixFields = single ? fields : fields.slice(0, Math.max(split, 0));
    if (!single && split < 0) continue;
    const options = prefixFields.map((f) => fixed.get(f.fieldPath));
    if (options.some((v) => v === undefined || v.length === 0)) continue;
    if (best.length > 0 && best[0]!.prefixes[0]!.length > options.length) continue;
    const prefixes = (options as Value[][]).reduce<Value[][]>(
      (product, values) => product.flatMap((p) => values.map((v) => [...p, v])),
      [[]],
    );
    if (prefixes.length > MAX_PREFIXES) continue;
    const { collectionGroup, scope, nameOrder } = plan.need;
    const choice = { definition: { collectionGroup, scope, fields, nameOrder }, prefixes };
    if (best.length > 0 && best[0]!.prefixes[0]!.length < options.length) best = [];
    best.push(choice);
  }
  return best;
}

/** Of indexes that serve a query alike, the one with the fewest entries in its prefixes (the most selective). */
function chooseIndex(
  database: Database,
  choices: Choice[],
  parent: (c: Choice) => string,
): Choice | undefined {
  if (choices.length <= 1) return choices[0];
  let best: { choice: Choice; size: number } | undefined;
  for (const choice of choices) {
    const index = database.indexEntries.index(choice.definition);
    let size = 0;
    for (const prefix of choice.prefixes) {
      const [from, to] = rangeOf(index, parent(choice), prefix, []);
      size += to - from;
    }
    if (!best || size < best.size) best = { choice, size };
  }
  return best!.choice;
}

/** Compares an entry with a key (parent, then leading values) in index order. */
function compareKey(index: MaterializedIndex, entry: IndexEntry, parent: string, key: Value[]): number {
  if (entry.parent !== parent) return compareStrings(entry.parent, parent);
  for (let i = 0; i < key.length; i++) {
    const c = compareValues(entry.value(i), key[i]!);
    if (c !== 0) return index.definition.fields[i]!.mode === "DESCENDING" ? -c : c;
  }
  return 0;
}

/**
 * The [from, to) stretch of entries the prefix and the first order field's range filters allow. A range
 * filter only matches values of its operand's type, so a one-sided range also stops at that type's end.
 */
function rangeOf(
  index: MaterializedIndex,
  parent: string,
  prefix: Value[],
  ranges: Conjunction["ranges"],
): [number, number] {
  const field = index.definition.fields[prefix.length];
  let low: { value: Value; inclusive: boolean } | undefined;
  let high: { value: Value; inclusive: boolean } | undefined;
  for (const range of field && field.mode !== "CONTAINS" ? ranges : []) {
    if (range.path !== field!.fieldPath) continue;
    const greater = range.op === FieldOp.GREATER_THAN || range.op === FieldOp.GREATER_THAN_OR_EQUAL;
    const inclusive = range.op === FieldOp.GREATER_THAN_OR_EQUAL || range.op === FieldOp.LESS_THAN_OR_EQUAL;
    const first = greater === (field!.mode === "ASCENDING"); // the bound at the start of the index order
    if (first) low ??= { value: range.value, inclusive };
    else high ??= { value: range.value, inclusive };
  }
  const bounded = low ?? high;
  // Where an entry's value lies against the bounded type's block in index order: <0 before, >0 after.
  const typeSide = (e: IndexEntry): number => {
    if (!bounded) return 0;
    const c = typeOrder(e.value(prefix.length)) - typeOrder(bounded.value);
    return field!.mode === "DESCENDING" ? -c : c;
  };
  const atOrAfter = (e: IndexEntry, strict: boolean): boolean => {
    const c = compareKey(index, e, parent, prefix);
    if (c !== 0) return c > 0;
    const side = typeSide(e);
    return strict ? side > 0 : side >= 0;
  };
  const from = low
    ? index.lowerBound((e) => {
        const c = compareKey(index, e, parent, [...prefix, low!.value]);
        return low!.inclusive ? c >= 0 : c > 0;
      })
    : index.lowerBound((e) => atOrAfter(e, false));
  const to = high
    ? index.lowerBound((e) => {
        const c = compareKey(index, e, parent, [...prefix, high!.value]);
        return high!.inclusive ? c > 0 : c >= 0;
      }, from)
    : index.lowerBound((e) => atOrAfter(e, true), from);
  return [from, to];
}

/** Compares an entry with a cursor position over the query's orders (index suffix, then the name). */
function entryToPosition(
  database: Database,
  entry: IndexEntry,
  position: Position,
  prepared: PreparedQuery,
  offset: number,
): number {
  for (let i = 0; i < position.values.length; i++) {
    const order = prepared.orders[i]!;
    const value: Value =
      order.path === NAME ? { reference_value: database.fullName(entry.path) } : entry.value(offset + i);
    const c = compareValues(value, position.values[i]!);
    if (c !== 0) return order.descending ? -c : c;
  }
  return 0;
}

/** The entries of one prefix the query reads, in index order, up to `wanted` matching documents. */
function readPrefix(
  read: {
    database: Database;
    index: MaterializedIndex;
    prepared: PreparedQuery;
    parent: string;
    within: string;
    /** Check the filter on the entries and fetch no document (aggregations the index serves whole). */
    entriesOnly: boolean;
  },
  prefix: Value[],
  ranges: Conjunction["ranges"],
  wanted: number,
  served: ServedQuery,
): { entry: IndexEntry; document: StoredDocument }[] {
  const { database, index, prepared, parent, within } = read;
  const entries = index.sorted();
  const [from, end] = rangeOf(index, parent, prefix, ranges);
  const position = (e: IndexEntry, p: Position) => entryToPosition(database, e, p, prepared, prefix.length);
  let start = from;
  if (prepared.start) {
    const startOnly = { ...prepared, end: undefined };
    start = index.lowerBound((e) => cursorSide((p) => position(e, p), startOnly) >= 0, from, end);
  }
  const found: { entry: IndexEntry; document: StoredDocument }[] = [];
  for (let i = start; i < end && found.length < wanted; i++) {
    const entry = entries.at(i);
    served.entriesScanned += 1;
    if (prepared.end && cursorSide((p) => position(entry, p), prepared) > 0) break;
    if (within && !entry.path.startsWith(within)) continue;
    const document = read.entriesOnly ? entryDocument(index, entry) : database.get(entry.path);
    if (!document) continue;
    if (!read.entriesOnly) served.documentsFetched += 1;
    if (prepared.predicate(document)) found.push({ entry, document });
  }
  return found;
}

type Found = { entry: IndexEntry; document: StoredDocument };

/** The query being served and what every disjunct's read shares. */
interface Serving {
  database: Database;
  parentPath: string;
  collectionId: string;
  prepared: PreparedQuery;
  wanted: number;
  /** Fields an aggregation reads (undefined: not an aggregation, or one over several disjuncts). */
  aggregated?: readonly string[];
}

/**
 * Reads one disjunct (a conjunction of simple filters) from its plan's index: up to `wanted` documents
 * matching the whole query, in query order; undefined when this plan cannot be read from an index.
 */
function serveDisjunct(
  serving: Serving,
  leaves: StructuredQueryFilter[],
  plan: IndexPlan,
  served: ServedQuery,
): Found[] | undefined {
  const { database, parentPath, collectionId, prepared, wanted, aggregated } = serving;
  const filters: Conjunction | undefined = { fixed: new Map(), ranges: [] };
  if (!leaves.every((leaf) => conjunction(leaf, filters))) return undefined;
  const orderPaths = prepared.orders.filter((o) => o.path !== NAME).map((o) => canonicalFieldPath(o.path));
  if (orderPaths.some((p) => plan.need.equalities.has(p))) return undefined;
  const collection = parentPath ? `${parentPath}/${collectionId}` : collectionId;
  const parentOf = (c: Choice) => (c.definition.scope === "COLLECTION" ? collection : "");
  const chosen = chooseIndex(database, indexChoices(plan, filters.fixed), parentOf);
  if (!chosen) return undefined;

  const index = database.indexEntries.index(chosen.definition);
  const collectionScope = chosen.definition.scope === "COLLECTION";
  const modes = new Map(chosen.definition.fields.map((f) => [f.fieldPath, f.mode]));
  const entriesOnly =
    aggregated !== undefined &&
    modes.size === chosen.definition.fields.length &&
    leaves.every((leaf) => filterOnEntries(leaf, modes)) &&
    aggregated.every((path) => modes.has(path) && modes.get(path) !== "CONTAINS");
  const read = {
    database,
    index,
    prepared,
    parent: collectionScope ? collection : "",
    within: !collectionScope && parentPath ? `${parentPath}/` : "",
    entriesOnly,
  };
  const found = chosen.prefixes.flatMap((prefix) => readPrefix(read, prefix, filters.ranges, wanted, served));
  if (chosen.prefixes.length === 1) return found;
  // Several prefixes (`in`): merged in query order (the index order after the prefix), each document once.
  const suffixAt = chosen.prefixes[0]!.length;
  const { fields, nameOrder } = index.definition;
  const compareSuffix = (a: IndexEntry, b: IndexEntry) => {
    for (let i = suffixAt; i < fields.length; i++) {
      const c = compareValues(a.value(i), b.value(i));
      if (c !== 0) return fields[i]!.mode === "DESCENDING" ? -c : c;
    }
    const c = compareReferences(a.path, b.path);
    return nameOrder === "DESCENDING" ? -c : c;
  };
  found.sort((a, b) => compareSuffix(a.entry, b.entry));
  return onceEach(found);
}

function onceEach(found: Found[]): Found[] {
  const seen = new Set<string>();
  return found.filter(({ document }) => !seen.has(document.path) && seen.add(document.path));
}

/**
 * Serves a query from its planned indexes, or undefined when it must be read by scanning. An OR query is
 * read per disjunct, each from its own index up to offset + limit documents, merged in query order (each
 * document once), as Firestore runs it as a union. `aggregated`: the query is an aggregation over these
 * fields (none for `count()`); when one index holds its whole filter and these fields, the documents
 * returned are made of the entries' values and no document is fetched.
 */
export function serveQuery(
  database: Database,
  parentPath: string,
  query: StructuredQuery,
  plans: readonly IndexPlan[] | undefined,
  aggregated?: readonly string[],
): ServedQuery | undefined {
  const from = query.from[0];
  if (!plans?.length || !from?.collection_id || query.from.length !== 1) return undefined;
  const disjuncts = disjunctLeaves(query.has_where ? query.where : undefined);
  if (disjuncts.length !== plans.length) return undefined;
  const limit = query.has_limit ? query.limit.value : Number.POSITIVE_INFINITY;
  const prepared = prepareQuery(database, query);
  const serving: Serving = {
    database,
    parentPath,
    collectionId: from.collection_id,
    prepared,
    wanted: query.offset + limit,
    aggregated: plans.length === 1 ? aggregated : undefined,
  };
  const served: ServedQuery = { documents: [], entriesScanned: 0, documentsFetched: 0, skipped: 0 };
  const lists: Found[][] = [];
  for (let i = 0; i < plans.length; i++) {
    const found = serveDisjunct(serving, disjuncts[i]!, plans[i]!, served);
    if (!found) return undefined;
    lists.push(found);
  }
  let found = lists[0]!;
  if (lists.length > 1) {
    const { context, orders } = prepared;
    found = onceEach(lists.flat().sort((a, b) => compareByOrders(a.document, b.document, orders, context)));
  }
  served.skipped = Math.min(query.offset, found.length);
  served.documents = found.slice(query.offset, query.offset + limit).map((f) => f.document);
  return served;
}
