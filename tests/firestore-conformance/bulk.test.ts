/**
 * BulkWriter (BatchWrite), listCollections / listDocuments (ListCollectionIds, ListDocuments) and
 * recursiveDelete, as documented in the Node.js server SDK reference
 * (https://cloud.google.com/nodejs/docs/reference/firestore/latest/firestore/bulkwriter,
 * .../firestore#_google_cloud_firestore_Firestore_recursiveDelete_member_1).
 */
import { bulkWrites } from "../../functions/src/lib/bulk-writes";
import { closeFirestore, firestore, Status, uniqueId } from "./support";

jest.setTimeout(120_000);

const db = firestore();

afterAll(closeFirestore);

test("when a BulkWriter writes 1,000 documents, then all of them are stored", async () => {
  const col = db.collection(uniqueId("bulk"));
  const writer = db.bulkWriter({ throttling: false });
  for (let i = 0; i < 1000; i++) void writer.set(col.doc(`d${String(i).padStart(4, "0")}`), { i });
  await writer.close();
  expect((await col.count().get()).data().count).toBe(1000);
  expect((await col.doc("d0999").get()).get("i")).toBe(999);
  expect((await col.orderBy("i", "desc").limit(1).get()).docs[0]!.id).toBe("d0999");
});

test("when one BulkWriter write fails, then it is reported for that write only and the others succeed", async () => {
  const col = db.collection(uniqueId("bulk-partial"));
  await col.doc("taken").set({ v: 0 });
  const writer = db.bulkWriter({ throttling: false });
  const failures: number[] = [];
  writer.onWriteError((error) => {
    failures.push(Number(error.code));
    return false; // do not retry
  });
  const results = [
    writer.create(col.doc("fresh"), { v: 1 }).then(
      () => "ok",
      () => "failed",
    ),
    writer.create(col.doc("taken"), { v: 2 }).then(
      () => "ok",
      () => "failed",
    ),
    writer.update(col.doc("missing"), { v: 3 }).then(
      () => "ok",
      () => "failed",
    ),
    writer.set(col.doc("other"), { v: 4 }).then(
      () => "ok",
      () => "failed",
    ),
  ];
  await writer.close();
  expect(await Promise.all(results)).toEqual(["ok", "failed", "failed", "ok"]);
  expect(failures.sort()).toEqual([Status.NOT_FOUND, Status.ALREADY_EXISTS].sort());
  expect((await col.doc("taken").get()).get("v")).toBe(0);
  expect((await col.doc("other").get()).get("v")).toBe(4);
});

test("when listCollections() is called on a document, then it lists the ids of its subcollections that hold documents", async () => {
  const parent = db.collection(uniqueId("list-parent")).doc("p");
  await parent.collection("alpha").doc("a").set({ v: 1 });
  await parent.collection("beta").doc("b").collection("deeper").doc("c").set({ v: 1 });
  await parent.parent.doc("sibling").collection("gamma").doc("g").set({ v: 1 });
  const collections = await parent.listCollections();
  expect(collections.map((c) => c.id).sort()).toEqual(["alpha", "beta"]);
});

test("when listCollections() is called on the database, then root collections (including ones holding only subcollections) are listed", async () => {
  const root = uniqueId("list-root");
  await db.doc(`${root}/missing-parent/child/c`).set({ v: 1 });
  const rootIds = (await db.listCollections()).map((c) => c.id);
  expect(rootIds).toContain(root);
});

test("when listDocuments() is called, then it includes documents that only exist as parents of subcollections", async () => {
  const col = db.collection(uniqueId("list-docs"));
  await col.doc("real").set({ v: 1 });
  await col.doc("ghost").collection("sub").doc("s").set({ v: 1 });
  const refs = await col.listDocuments();
  expect(refs.map((r) => r.id).sort()).toEqual(["ghost", "real"]);
  expect((await col.doc("ghost").get()).exists).toBe(false);
});

test("when recursiveDelete() is called on a collection, then its documents and all nested subcollections are deleted, and nothing else", async () => {
  const name = uniqueId("recursive");
  const col = db.collection(name);
  const sibling = db.collection(`${name}-sibling`);
  await col.doc("a").set({ v: 1 });
  await col.doc("a").collection("sub").doc("b").set({ v: 2 });
  await col.doc("ghost").collection("sub").doc("c").collection("deeper").doc("d").set({ v: 3 });
  await sibling.doc("keep").set({ v: 4 });
  await db.recursiveDelete(col);
  expect((await col.get()).size).toBe(0);
  expect((await col.doc("a").collection("sub").get()).size).toBe(0);
  expect((await db.doc(`${name}/ghost/sub/c/deeper/d`).get()).exists).toBe(false);
  expect((await sibling.doc("keep").get()).exists).toBe(true);
});

test("when recursiveDelete() is called on a document, then the document and its subcollections are deleted but its siblings remain", async () => {
  const col = db.collection(uniqueId("recursive-doc"));
  await col.doc("a").set({ v: 1 });
  await col.doc("a").collection("sub").doc("b").set({ v: 2 });
  await col.doc("z").set({ v: 3 });
  await db.recursiveDelete(col.doc("a"));
  expect((await col.doc("a").get()).exists).toBe(false);
  expect((await col.doc("a").collection("sub").doc("b").get()).exists).toBe(false);
  expect((await col.doc("z").get()).exists).toBe(true);
});

describe("the product's bulk writes (functions/src/lib/bulk-writes.ts)", () => {
  test("when a create finds its document written meanwhile, then onExists says so and no rejection is left unhandled", async () => {
    const col = db.collection(uniqueId("bulk-writes"));
    await col.doc("taken").set({ v: 0 });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const writer = bulkWrites(db);
      let existed = 0;
      writer.create(col.doc("taken"), { v: 1 }, () => (existed += 1));
      writer.create(col.doc("fresh"), { v: 2 }, () => (existed += 1));
      await writer.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(existed).toBe(1);
      expect(unhandled).toEqual([]);
      expect((await col.doc("taken").get()).get("v")).toBe(0);
      expect((await col.doc("fresh").get()).get("v")).toBe(2);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  test("when an update finds no document, then close rejects with its failure once every other write is done", async () => {
    const col = db.collection(uniqueId("bulk-writes-missing"));
    const writer = bulkWrites(db);
    writer.update(col.doc("gone"), { v: 1 });
    writer.set(col.doc("kept"), { v: 2 });
    await expect(writer.close()).rejects.toMatchObject({ code: Status.NOT_FOUND });
    expect((await col.doc("kept").get()).get("v")).toBe(2);
  });
});
