/**
 * Queries, as documented in https://firebase.google.com/docs/firestore/query-data/queries,
 * .../order-limit-data, .../query-cursors, .../aggregation-queries and the value ordering in
 * https://firebase.google.com/docs/firestore/manage-data/data-types.
 */
import {
  AggregateField,
  FieldPath,
  FieldValue,
  Filter,
  Timestamp,
  type CollectionReference,
} from "firebase-admin/firestore";

import { closeFirestore, firestore, ids, indexedCollection, uniqueId } from "./support";

const db = firestore();

afterAll(closeFirestore);

/**
 * Seeds a new collection: uniquely named, or, when the test's queries need composite indexes, of the
 * collection group `group` (whose indexes tests/firestore-conformance/firestore.indexes.json declares).
 */
async function seed(
  name: string,
  docs: Record<string, Record<string, unknown>>,
  group?: string,
): Promise<CollectionReference> {
  const col = group ? indexedCollection(db, group) : db.collection(uniqueId(name));
  const batch = db.batch();
  for (const [id, data] of Object.entries(docs)) batch.set(col.doc(id), data);
  await batch.commit();
  return col;
}

const people = {
  ann: { name: "Ann", age: 30, city: "Bern", tags: ["admin", "ops"], score: 7.5 },
  bob: { name: "Bob", age: 25, city: "Zurich", tags: ["dev"], score: 9 },
  cyd: { name: "Cyd", age: 30, city: "Geneva", tags: ["dev", "ops"], score: 6 },
  dan: { name: "Dan", age: 41, city: "Bern", tags: [], score: 8 },
  eve: { name: "Eve", age: 19, city: "Basel", tags: ["admin"] },
};

describe("ordering, limits and cursors", () => {
  test("when ordering by several fields with a limit, then documents sort by each field in turn and the first N are returned", async () => {
    const col = await seed("order-multi", people, "conformance-people");
    const snapshot = await col.orderBy("age", "desc").orderBy("name").limit(3).get();
    expect(ids(snapshot)).toEqual(["dan", "ann", "cyd"]);
  });

  test("when limitToLast(N) is used, then the last N documents of the ordering are returned in query order", async () => {
    const col = await seed("limit-to-last", people);
    expect(ids(await col.orderBy("age").limitToLast(2).get())).toEqual(["cyd", "dan"]);
  });

  test("when startAt/startAfter/endAt/endBefore are given field values, then the range is inclusive/exclusive as named", async () => {
    const col = await seed("cursors", people, "conformance-people");
    const byAge = col.orderBy("age").orderBy("name");
    expect(ids(await byAge.startAt(30).get())).toEqual(["ann", "cyd", "dan"]);
    expect(ids(await byAge.startAfter(30).get())).toEqual(["dan"]);
    expect(ids(await byAge.endAt(30).get())).toEqual(["eve", "bob", "ann", "cyd"]);
    expect(ids(await byAge.endBefore(30).get())).toEqual(["eve", "bob"]);
    expect(ids(await byAge.startAfter(30, "Ann").endAt(41, "Dan").get())).toEqual(["cyd", "dan"]);
  });

  test("when a cursor is a document snapshot, then the query continues after that document", async () => {
    const col = await seed("cursor-snapshot", people);
    const ann = await col.doc("ann").get();
    expect(ids(await col.orderBy("age").startAfter(ann).get())).toEqual(["cyd", "dan"]);
  });

  test("when offset(N) is used, then the first N results are skipped before the limit applies", async () => {
    const col = await seed("offset", people);
    expect(ids(await col.orderBy("name").offset(1).limit(2).get())).toEqual(["bob", "cyd"]);
  });

  test("when paging with limit and startAfter(last document), then every document is returned exactly once", async () => {
    const docs: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < 23; i++) docs[`d${String(i).padStart(2, "0")}`] = { group: i % 3 };
    const col = await seed("paging", docs);
    const seen: string[] = [];
    let query = col.orderBy("group").limit(5);
    for (;;) {
      const page = await query.get();
      seen.push(...ids(page));
      if (page.size < 5) break;
      query = col
        .orderBy("group")
        .startAfter(page.docs[page.size - 1]!)
        .limit(5);
    }
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
  });

  test("when a larger collection is paged with limits, offsets and cursors in both directions, then each page is the same stretch of the whole ordering", async () => {
    const docs: Record<string, Record<string, unknown>> = {};
    for (let index = 0; index < 240; index += 1) {
      docs[`d${String(index).padStart(3, "0")}`] = {
        rank: (index * 37) % 50,
        kind: index % 3 === 0 ? "a" : "b",
      };
    }
    const col = await seed("pages", docs, "conformance-pages");
    for (const direction of ["asc", "desc"] as const) {
      const ordered = col.where("kind", "==", "b").orderBy("rank", direction);
      const all = ids(await ordered.get());
      expect(all).toHaveLength(160);
      expect(ids(await ordered.limit(7).get())).toEqual(all.slice(0, 7));
      expect(ids(await ordered.offset(30).limit(11).get())).toEqual(all.slice(30, 41));
      const fortieth = (await ordered.limit(40).get()).docs[39]!;
      expect(ids(await ordered.startAfter(fortieth).limit(9).get())).toEqual(all.slice(40, 49));
      expect(ids(await ordered.startAt(fortieth).offset(2).limit(5).get())).toEqual(all.slice(41, 46));
      expect((await ordered.startAfter(fortieth).count().get()).data().count).toBe(120);
    }
  });

  test("when ordering by a field, then documents without that field are excluded", async () => {
    const col = await seed("order-exists", people);
    expect(ids(await col.orderBy("score").get())).toEqual(["cyd", "ann", "dan", "bob"]);
  });

  test("when a collection is queried without orderBy, then results come in document id order", async () => {
    const col = await seed("default-order", { b: { v: 1 }, a: { v: 2 }, c: { v: 0 } });
    expect(ids(await col.get())).toEqual(["a", "b", "c"]);
  });

  test("when values of different types are ordered, then they follow Firestore's type order (null < bool < number < timestamp < string < bytes < reference < geopoint < array < map)", async () => {
    const col = await seed("type-order", {
      map: { v: { a: 1 } },
      arr: { v: [1] },
      str: { v: "text" },
      num: { v: 1.5 },
      int: { v: -3 },
      bool: { v: false },
      nul: { v: null },
      time: { v: Timestamp.fromMillis(0) },
      bytes: { v: Buffer.from([1]) },
      ref: { v: db.doc("a/b") },
    });
    expect(ids(await col.orderBy("v").get())).toEqual([
      "nul",
      "bool",
      "int",
      "num",
      "time",
      "str",
      "bytes",
      "ref",
      "arr",
      "map",
    ]);
  });

  test("when integers and doubles are ordered together, then they sort numerically and 1 equals 1.0", async () => {
    const col = await seed("int-double", {
      a: { n: 2 },
      b: { n: 1.5 },
      c: { n: 1 },
      d: { n: 10 },
      e: { n: -0.5 },
    });
    expect(ids(await col.orderBy("n").get())).toEqual(["e", "c", "b", "a", "d"]);
    // The Admin SDK sends whole numbers as integers; adding a double increment stores the double 2.0.
    await col.doc("f").set({ n: 1.5 });
    await col.doc("f").update({ n: FieldValue.increment(0.5) });
    expect(ids(await col.where("n", "==", 2).get())).toEqual(["a", "f"]);
    expect(ids(await col.where("n", "in", [2, 1.5]).get())).toEqual(["a", "b", "f"]);
    expect(ids(await col.where("n", ">", 1).where("n", "<", 2).get())).toEqual(["b"]);
  });
});

describe("filters", () => {
  test("when filtering with in and not-in, then documents match (not-in also excludes documents missing the field)", async () => {
    const col = await seed("in-not-in", { ...people, zed: { name: "Zed" } });
    expect(ids(await col.where("city", "in", ["Bern", "Basel"]).get())).toEqual(["ann", "dan", "eve"]);
    expect(ids(await col.where("city", "not-in", ["Bern", "Basel"]).get())).toEqual(["cyd", "bob"]);
  });

  test("when filtering with array-contains and array-contains-any, then documents whose array holds the value(s) match", async () => {
    const col = await seed("array-contains", people);
    expect(ids(await col.where("tags", "array-contains", "ops").get())).toEqual(["ann", "cyd"]);
    expect(ids(await col.where("tags", "array-contains-any", ["dev", "admin"]).get())).toEqual([
      "ann",
      "bob",
      "cyd",
      "eve",
    ]);
  });

  test("when filtering with !=, then documents missing the field or holding null are excluded", async () => {
    const col = await seed("not-equal", {
      a: { v: 1 },
      b: { v: 2 },
      c: { v: null },
      d: { other: 1 },
      e: { v: "1" },
    });
    expect(ids(await col.where("v", "!=", 1).get())).toEqual(["b", "e"]);
  });

  test("when filtering with == null, then only documents whose field is null match (not missing fields)", async () => {
    const col = await seed("is-null", { a: { v: null }, b: { v: 0 }, c: { other: null }, d: { v: "" } });
    expect(ids(await col.where("v", "==", null).get())).toEqual(["a"]);
    expect(ids(await col.where("v", "!=", null).get())).toEqual(["b", "d"]);
  });

  test("when a range filter is used, then it only matches values of the same type", async () => {
    const col = await seed("range-type", { a: { v: 5 }, b: { v: "5" }, c: { v: true }, d: { v: 0.5 } });
    expect(ids(await col.where("v", ">", 0).get())).toEqual(["d", "a"]);
    expect(ids(await col.where("v", ">=", "").get())).toEqual(["b"]);
  });

  test("when filtering and ordering on a nested field path, then the nested value is used", async () => {
    const col = await seed("nested-path", {
      a: { meta: { size: { bytes: 30 } } },
      b: { meta: { size: { bytes: 10 } } },
      c: { meta: { size: { bytes: 20 } } },
      d: { meta: { other: 1 } },
    });
    expect(
      ids(await col.where("meta.size.bytes", ">=", 15).orderBy("meta.size.bytes", "desc").get()),
    ).toEqual(["a", "c"]);
    expect(ids(await col.orderBy(new FieldPath("meta", "size", "bytes")).get())).toEqual(["b", "c", "a"]);
  });

  test("when a string prefix range is queried (>= p and < p + \\uf8ff), then exactly the prefixed values match", async () => {
    const col = await seed("prefix", {
      a: { s: "alp" },
      b: { s: "alpvault" },
      c: { s: "alq" },
      d: { s: "al" },
    });
    expect(ids(await col.where("s", ">=", "alp").where("s", "<", "alp\uf8ff").get())).toEqual(["a", "b"]);
  });

  test("when Filter.or contains Filter.and groups, then a document matches if any group matches entirely", async () => {
    const col = await seed("or-and", people, "conformance-people");
    const filter = Filter.or(
      Filter.and(Filter.where("city", "==", "Bern"), Filter.where("age", ">", 35)),
      Filter.and(Filter.where("city", "==", "Geneva"), Filter.where("tags", "array-contains", "dev")),
      Filter.where("name", "==", "Eve"),
    );
    expect(ids(await col.where(filter).get()).sort()).toEqual(["cyd", "dan", "eve"]);
  });

  test("when filtering by document id (FieldPath.documentId()), then ids compare as names", async () => {
    const col = await seed("doc-id", { a: { v: 1 }, b: { v: 2 }, c: { v: 3 } });
    expect(ids(await col.where(FieldPath.documentId(), ">", "a").get())).toEqual(["b", "c"]);
    expect(ids(await col.where(FieldPath.documentId(), "in", ["a", "c"]).get())).toEqual(["a", "c"]);
  });
});

describe("collections, projections and aggregations", () => {
  test("when a collection-group query runs, then it returns documents of every collection with that id, at any depth, and nothing else", async () => {
    // The group id is fixed (its collection-group index is declared); a unique run value isolates the test.
    const group = "conformance-grouped";
    const run = uniqueId("run");
    await db.collection("cg-users").doc(`${run}-u1`).collection(group).doc("x").set({ run, v: 1 });
    await db.collection("cg-users").doc(`${run}-u2`).collection(group).doc("y").set({ run, v: 2 });
    await db.collection(group).doc(`${run}-z`).set({ run, v: 3 });
    await db.doc(`deep/${run}/more/b/${group}/w`).set({ run, v: 4 });
    await db
      .collection("cg-users")
      .doc(`${run}-u1`)
      .collection(`${group}-other`)
      .doc("no")
      .set({ run, v: 5 });
    await db.collection(group).doc(`${run}-z`).collection("child").doc("no2").set({ run, v: 6 });
    const snapshot = await db.collectionGroup(group).where("run", "==", run).orderBy("v").get();
    expect(snapshot.docs.map((d) => d.ref.path)).toEqual([
      `cg-users/${run}-u1/${group}/x`,
      `cg-users/${run}-u2/${group}/y`,
      `${group}/${run}-z`,
      `deep/${run}/more/b/${group}/w`,
    ]);
    const fromTwo = db.collectionGroup(group).where("run", "==", run).where("v", ">=", 2);
    expect(ids(await fromTwo.get()).sort()).toEqual([`${run}-z`, "w", "y"]);
  });

  test("when a subcollection is queried, then only its own documents are returned", async () => {
    const col = db.collection(uniqueId("parent"));
    await col.doc("p1").collection("items").doc("a").set({ v: 1 });
    await col.doc("p2").collection("items").doc("b").set({ v: 2 });
    expect(ids(await col.doc("p1").collection("items").get())).toEqual(["a"]);
    expect((await col.get()).size).toBe(0);
  });

  test("when select() is used, then documents carry only the selected fields", async () => {
    const col = await seed("select", { a: { keep: 1, drop: 2, nested: { keep: 3, drop: 4 } } });
    const [doc] = (await col.select("keep", "nested.keep").get()).docs;
    expect(doc!.data()).toEqual({ keep: 1, nested: { keep: 3 } });
    const [empty] = (await col.select().get()).docs;
    expect(empty!.id).toBe("a");
    expect(empty!.data()).toEqual({});
  });

  test("when count() runs, then it returns the number of matching documents (honouring limit)", async () => {
    const col = await seed("count", people);
    expect((await col.count().get()).data().count).toBe(5);
    expect((await col.where("age", "==", 30).count().get()).data().count).toBe(2);
    expect((await col.limit(3).count().get()).data().count).toBe(3);
    expect((await db.collection(uniqueId("empty")).count().get()).data().count).toBe(0);
  });

  test("when sum() and average() run, then they aggregate the numeric values of matching documents", async () => {
    const col = await seed("sum-avg", people);
    const snapshot = await col
      .aggregate({
        total: AggregateField.sum("age"),
        mean: AggregateField.average("score"),
        n: AggregateField.count(),
      })
      .get();
    expect(snapshot.data()).toEqual({ total: 145, mean: 7.625, n: 5 });
  });
});
