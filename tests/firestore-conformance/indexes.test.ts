/**
 * Indexes, as documented in https://firebase.google.com/docs/firestore/query-data/index-overview
 * ("Index types in Cloud Firestore"), .../query-data/indexing ("Manage indexes") and
 * .../query-data/aggregation-queries: queries are served from indexes in the index's order, cursors are
 * positions in it, aggregations run over the same range, and a query that needs an index the database does
 * not have fails with FAILED_PRECONDITION and a link that creates it. The official emulator does not
 * enforce indexes, so the refusal cases check nothing there.
 */
import { Index } from "@firestore-emulator/proto/dist/google/firestore/admin/v1/index";
import { AggregateField, FieldPath } from "firebase-admin/firestore";

import {
  closeFirestore,
  emulatorEnforcesIndexes,
  firestore,
  ids,
  indexedCollection,
  PROJECT_ID,
  Status,
  uniqueId,
} from "./support";

const db = firestore();

afterAll(closeFirestore);

/** The error a query fails with. */
async function refusal(query: { get(): Promise<unknown> }): Promise<{ code?: number; details?: string }> {
  try {
    await query.get();
  } catch (error) {
    return error as { code?: number; details?: string };
  }
  throw new Error("Expected the query to be refused, but it was served.");
}

/** The index a "requires an index" message links to, from its create_composite parameter. */
function linkedIndex(details: string): { name: string; fields: string[] } {
  const encoded = /create_composite=([A-Za-z0-9+/=_-]+)/.exec(details)?.[1];
  if (!encoded) throw new Error(`No create_composite link in: ${details}`);
  const index = Index.deserializeBinary(Buffer.from(encoded, "base64"));
  const order = (o: number) => (o === 1 ? "ASCENDING" : "DESCENDING");
  return {
    name: index.name,
    fields: index.fields.map((f) => `${f.field_path} ${f.has_array_config ? "CONTAINS" : order(f.order)}`),
  };
}

async function seedPages(): Promise<ReturnType<typeof indexedCollection>> {
  const col = indexedCollection(db, "conformance-pages");
  const batch = db.batch();
  for (let index = 0; index < 30; index += 1) {
    const id = `d${String(index).padStart(2, "0")}`;
    batch.set(col.doc(id), { kind: index % 3 === 0 ? "a" : "b", rank: index % 10 });
  }
  await batch.commit();
  return col;
}

test("when a query needs a composite index the database does not have, then it fails with FAILED_PRECONDITION and a link creating that index", async () => {
  if (!(await emulatorEnforcesIndexes())) return;
  const col = indexedCollection(db, "conformance-people");
  await col.doc("ann").set({ city: "Bern", score: 7 });
  const error = await refusal(col.where("city", "==", "Bern").orderBy("score", "desc"));
  expect(error.code).toBe(Status.FAILED_PRECONDITION);
  expect(error.details).toMatch(
    new RegExp(
      `^The query requires an index\\. You can create it here: https://console\\.firebase\\.google\\.com/v1/r/project/${PROJECT_ID}/firestore/indexes\\?create_composite=`,
    ),
  );
  expect(linkedIndex(error.details!)).toEqual({
    name: `projects/${PROJECT_ID}/databases/(default)/collectionGroups/conformance-people/indexes/_`,
    fields: ["city ASCENDING", "score DESCENDING", "__name__ DESCENDING"],
  });
});

test("when a collection-group query filters a field that has no collection-group index, then it fails with FAILED_PRECONDITION", async () => {
  if (!(await emulatorEnforcesIndexes())) return;
  const group = uniqueId("ungrouped");
  await db.collection("cg-users").doc("u1").collection(group).doc("x").set({ v: 1 });
  const error = await refusal(db.collectionGroup(group).where("v", ">=", 1));
  expect(error.code).toBe(Status.FAILED_PRECONDITION);
  expect(error.details).toMatch(
    new RegExp(
      `^The query requires a COLLECTION_GROUP_ASC index for collection ${group} and field v\\. You can create it here: `,
    ),
  );
});

test("when a declared composite index serves a query, then results come in its order and cursors are positions in it", async () => {
  const col = await seedPages();
  const query = col.where("kind", "==", "b").orderBy("rank", "desc");
  const all = (await query.get()).docs.map((d) => ({ rank: d.get("rank") as number, id: d.id }));
  const expected = all.slice().sort((a, b) => b.rank - a.rank || (b.id < a.id ? -1 : 1));
  expect(all).toHaveLength(20);
  expect(all).toEqual(expected);
  expect(ids(await query.startAt(7).endBefore(5).get())).toEqual(
    all.filter((d) => d.rank <= 7 && d.rank > 5).map((d) => d.id),
  );
  const byName = query.orderBy(FieldPath.documentId(), "desc");
  expect(ids(await byName.startAfter(8, "d18").limit(2).get())).toEqual(all.slice(3, 5).map((d) => d.id));
});

test("when count() and sum() run over a cursor range of an indexed query, then they aggregate exactly that range", async () => {
  const col = await seedPages();
  const query = col.where("kind", "==", "b").orderBy("rank").startAfter(3).endAt(8);
  const ranks = (await query.get()).docs.map((d) => d.get("rank") as number);
  expect(ranks).toEqual([4, 4, 5, 5, 6, 6, 7, 7, 8, 8]);
  const totals = await query
    .aggregate({ n: AggregateField.count(), total: AggregateField.sum("rank") })
    .get();
  expect(totals.data()).toEqual({ n: 10, total: 60 });
  expect((await query.limit(3).count().get()).data().count).toBe(3);
});

test("when count() runs on a query with limit(n), then it counts at most the first n documents the query returns", async () => {
  // firebase-admin sends `query.limit(n).count()` as a RunAggregationQuery whose structured query carries
  // the limit (no `up_to` on the count).
  const col = await seedPages();
  const query = col.where("kind", "==", "b").orderBy("rank", "desc");
  expect((await query.limit(7).count().get()).data().count).toBe(7);
  expect((await query.limit(50).count().get()).data().count).toBe(20);
  expect((await query.startAfter(2).limit(5).count().get()).data().count).toBe(4);
});
