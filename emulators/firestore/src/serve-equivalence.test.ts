/**
 * Reading a query from its index must give exactly what reading every document gives (`runQuery`, the
 * behaviour the conformance suite pins down): random documents, random queries, both paths compared, also
 * as aggregations read from index entries only.
 */
import {
  StructuredQuery,
  StructuredQueryDirection as Direction,
  StructuredQueryFieldFilterOperator as Op,
} from "@firestore-emulator/proto/dist/google/firestore/v1/query";

import { IndexCatalog } from "./indexes";
import { planQuery } from "./planner";
import { runQuery } from "./query";
import { serveQuery } from "./serve";
import { Store, type Database } from "./store";
import type { Fields, Value } from "./values";

const catalog = IndexCatalog.fromJson({
  indexes: [
    {
      collectionGroup: "c",
      fields: [
        { fieldPath: "a", order: "ASCENDING" },
        { fieldPath: "b", order: "DESCENDING" },
      ],
    },
    {
      collectionGroup: "c",
      fields: [
        { fieldPath: "a", order: "ASCENDING" },
        { fieldPath: "b", order: "ASCENDING" },
      ],
    },
    {
      collectionGroup: "c",
      fields: [
        { fieldPath: "tags", arrayConfig: "CONTAINS" },
        { fieldPath: "b", order: "ASCENDING" },
      ],
    },
    {
      collectionGroup: "c",
      queryScope: "COLLECTION_GROUP",
      fields: [
        { fieldPath: "a", order: "ASCENDING" },
        { fieldPath: "b", order: "ASCENDING" },
      ],
    },
  ],
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
const int = (n: number): Value => ({ integer_value: n });

function seedDatabase(next: () => number): Database {
  const store = new Store();
  const database = store.database("projects/p/databases/(default)");
  for (let i = 0; i < 300; i++) {
    const fields: Fields = {};
    if (next() < 0.9)
      fields.a = pick(next, [
        int(0),
        int(1),
        int(2),
        { double_value: 1 },
        { string_value: "x" },
        { null_value: 0 },
      ]);
    if (next() < 0.9)
      fields.b = pick(next, [
        int(Math.floor(next() * 20)),
        { double_value: next() * 20 },
        { double_value: NaN },
        { string_value: "s" },
      ]);
    if (next() < 0.7)
      fields.tags = { array_value: { values: [pick(next, [int(1), int(2)]), pick(next, [int(2), int(3)])] } };
    const parent = pick(next, ["c", "p/1/c", "p/2/c"]);
    const time = { seconds: 1, nanos: i * 1000 };
    database.put({
      path: `${parent}/d${String(i).padStart(3, "0")}`,
      fields,
      createTime: time,
      updateTime: time,
    });
  }
  return database;
}

type FilterObject = Record<string, unknown>;
const field = (path: string, op: number, value: Value): FilterObject => ({
  field_filter: { field: { field_path: path }, op, value },
});

/** A random query over collection c: equality/in/array-contains, a range on b, an order on b, cursors, limit. */
function randomQuery(next: () => number): { parent: string; query: StructuredQuery } {
  const filters: FilterObject[] = [];
  const equality = pick(next, ["none", "eq", "in", "contains", "contains-any"]);
  if (equality === "eq")
    filters.push(field("a", Op.EQUAL, pick(next, [int(0), int(1), { double_value: 1 }, { null_value: 0 }])));
  if (equality === "in") filters.push(field("a", Op.IN, { array_value: { values: [int(1), int(2)] } }));
  if (equality === "contains") filters.push(field("tags", Op.ARRAY_CONTAINS, int(2)));
  if (equality === "contains-any")
    filters.push(field("tags", Op.ARRAY_CONTAINS_ANY, { array_value: { values: [int(1), int(3)] } }));
  if (next() < 0.5)
    filters.push(
      field(
        "b",
        pick(next, [Op.LESS_THAN, Op.LESS_THAN_OR_EQUAL, Op.GREATER_THAN, Op.GREATER_THAN_OR_EQUAL]),
        int(Math.floor(next() * 20)),
      ),
    );
  if (next() < 0.2) filters.push(field("b", Op.NOT_EQUAL, int(5)));
  const direction =
    equality === "contains" || equality === "contains-any"
      ? Direction.ASCENDING
      : pick(next, [Direction.ASCENDING, Direction.DESCENDING]);
  const groupQuery = equality !== "contains" && equality !== "contains-any" && next() < 0.3;
  const object: Record<string, unknown> = {
    from: [{ collection_id: "c", all_descendants: groupQuery }],
    order_by: [{ field: { field_path: "b" }, direction }],
  };
  if (filters.length === 1) object.where = filters[0];
  if (filters.length > 1) object.where = { composite_filter: { op: 1 /* AND */, filters } };
  if (filters.length > 0 && next() < 0.3) {
    // An OR: the filter so far, or a second disjunct served by its own index.
    const other = direction === Direction.ASCENDING && !groupQuery && next() < 0.5;
    const second = other ? field("tags", Op.ARRAY_CONTAINS, int(3)) : field("a", Op.EQUAL, int(2));
    object.where = { composite_filter: { op: 2 /* OR */, filters: [object.where, second] } };
  }
  if (next() < 0.3) object.start_at = { values: [int(Math.floor(next() * 20))], before: next() < 0.5 };
  if (next() < 0.3) object.end_at = { values: [int(Math.floor(next() * 20))], before: next() < 0.5 };
  if (next() < 0.5) object.limit = { value: 1 + Math.floor(next() * 10) };
  if (next() < 0.3) object.offset = Math.floor(next() * 5);
  const parent = groupQuery ? pick(next, ["", "p/1"]) : pick(next, ["", "p/1", "p/2"]);
  return {
    parent,
    query: StructuredQuery.fromObject(object as Parameters<typeof StructuredQuery.fromObject>[0]),
  };
}

test("when random queries are read from their index, then the results equal reading every document", () => {
  const next = random(17);
  const database = seedDatabase(next);
  let served = 0;
  let fromEntries = 0;
  let disjunctive = 0;
  for (let round = 0; round < 600; round++) {
    const { parent, query } = randomQuery(next);
    let plans;
    try {
      plans = planQuery(query, catalog, database);
    } catch {
      continue; // no index: refused in strict mode, nothing to compare
    }
    const fromIndex = serveQuery(database, parent, query, plans);
    if (!fromIndex) continue;
    served += 1;
    if (plans.length > 1) disjunctive += 1;
    const expectedDocuments = runQuery(database, parent, query);
    const expected = expectedDocuments.map((d) => d.path);
    expect({ round, parent, paths: fromIndex.documents.map((d) => d.path) }).toEqual({
      round,
      parent,
      paths: expected,
    });
    // As an aggregation (count(), then sum("b")): entries only when the index holds the filter and field.
    for (const aggregated of [[], ["b"]]) {
      const aggregation = serveQuery(database, parent, query, plans, aggregated)!;
      if (aggregation.documentsFetched === 0 && expected.length > 0) fromEntries += 1;
      const bOf = (documents: { fields: Fields }[]) => documents.map((d) => JSON.stringify(d.fields.b));
      expect({ round, aggregated, paths: aggregation.documents.map((d) => d.path) }).toEqual({
        round,
        aggregated,
        paths: expected,
      });
      expect(bOf(aggregation.documents)).toEqual(bOf(expectedDocuments));
    }
    if (round % 50 === 0) {
      // Writes after the indexes exist: they must be kept current.
      const path = `c/d${String(round).padStart(3, "0")}`;
      const time = { seconds: 2, nanos: round };
      database.put({ path, fields: { a: int(1), b: int(round % 20) }, createTime: time, updateTime: time });
      database.delete(`p/1/c/d${String(round + 1).padStart(3, "0")}`);
    }
  }
  expect(served).toBeGreaterThan(200);
  expect(disjunctive).toBeGreaterThan(30);
  expect(fromEntries).toBeGreaterThan(50);
});
