import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { deleteApp, initializeApp, type App } from "firebase-admin/app";
import { AggregateField, FieldPath, Filter, getFirestore, type Firestore } from "firebase-admin/firestore";

import { NodeFirestoreEmulator } from "./node-emulator";
import type { RequestReads } from "./stats";

const INDEXES = {
  indexes: [
    {
      collectionGroup: "items",
      queryScope: "COLLECTION",
      fields: [
        { fieldPath: "kind", order: "ASCENDING" },
        { fieldPath: "rank", order: "DESCENDING" },
      ],
    },
  ],
};

let dir: string;
let emulator: NodeFirestoreEmulator;
let app: App;
let db: Firestore;
let statsPort: number;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "alpvault-serve-"));
  await writeFile(join(dir, "firestore.indexes.json"), JSON.stringify(INDEXES));
  const port = await freePort();
  statsPort = await freePort();
  emulator = new NodeFirestoreEmulator({
    host: "127.0.0.1",
    port,
    statsPort,
    indexesFiles: [join(dir, "firestore.indexes.json")],
  });
  await emulator.start();
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  app = initializeApp({ projectId: "demo-alpvault" }, `serve-${port}`);
  db = getFirestore(app);
  // 1,000 items: kind "a" for every third, rank 0..99 ten times over.
  for (let start = 0; start < 1000; start += 500) {
    const batch = db.batch();
    for (let i = start; i < start + 500; i++) {
      const id = `i${String(i).padStart(4, "0")}`;
      batch.set(db.doc(`mailboxes/m1/items/${id}`), { kind: i % 3 === 0 ? "a" : "b", rank: i % 100 });
    }
    await batch.commit();
  }
  await db.doc("mailboxes/m2/items/other").set({ kind: "b", rank: 1000 });
  // Ranks of other types sort after numbers (strings) or before them (null).
  await db.doc("mailboxes/m1/items/worded").set({ kind: "z", rank: "high" });
  await db.doc("mailboxes/m1/items/unranked").set({ kind: "z", rank: null });
});

afterAll(async () => {
  await deleteApp(app);
  await emulator.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The reads of the one request `run` makes. */
async function readsOf(run: () => Promise<unknown>): Promise<RequestReads> {
  emulator.service.stats.reset();
  await run();
  const { recent } = emulator.service.stats.snapshot();
  expect(recent).toHaveLength(1);
  return recent[0]!;
}

const items = () => db.collection("mailboxes/m1/items");

test("when a query is served by its composite index with a limit, then it reads only the entries and documents it returns", async () => {
  const query = items().where("kind", "==", "b").orderBy("rank", "desc").limit(8);
  let found: string[] = [];
  const reads = await readsOf(async () => {
    found = (await query.get()).docs.map((d) => d.id);
  });
  // Rank 99, then 98; within a rank by name, descending like the last order.
  expect(found).toEqual(["i0899", "i0799", "i0599", "i0499", "i0299", "i0199", "i0998", "i0898"]);
  expect(reads).toMatchObject({
    rpc: "RunQuery",
    entriesScanned: 8,
    documentsRead: 8,
    returned: 8,
    billedReads: 8,
  });
});

test("when a page starts after a cursor, then the entries before it are not read", async () => {
  const query = items()
    .where("kind", "==", "b")
    .orderBy("rank", "desc")
    .orderBy(FieldPath.documentId(), "desc");
  const reads = await readsOf(() => query.startAfter(50, "i0050").limit(10).get());
  expect(reads).toMatchObject({ entriesScanned: 10, documentsRead: 10, billedReads: 10 });
});

test("when a range filter runs on a single-field index, then only the entries in the range (and its type) are read", async () => {
  let count = 0;
  const reads = await readsOf(async () => {
    count = (await items().where("rank", ">=", 95).get()).size;
  });
  expect(count).toBe(50);
  expect(reads).toMatchObject({ entriesScanned: 50, documentsRead: 50, billedReads: 50 });
  const below = await readsOf(() => items().where("rank", "<", 2).get());
  expect(below).toMatchObject({ returned: 20, entriesScanned: 20 });
});

test("when a query returns nothing, then it is billed one read", async () => {
  const reads = await readsOf(() => items().where("kind", "==", "c").get());
  expect(reads).toMatchObject({ returned: 0, billedReads: 1, entriesScanned: 0 });
});

test("when count() and sum() run, then they are billed one read per 1,000 index entries", async () => {
  const reads = await readsOf(() =>
    items()
      .aggregate({ n: AggregateField.count(), s: AggregateField.sum("rank") })
      .get(),
  );
  // 1,002 items: two batches of up to 1,000 index entries.
  expect(reads).toMatchObject({ rpc: "RunAggregationQuery", billedReads: 2 });
  const counted = await readsOf(async () => {
    expect((await items().where("kind", "==", "b").count().get()).data().count).toBe(666);
  });
  expect(counted.billedReads).toBe(1);
});

test("when count() runs on an index that holds its whole filter, then it reads index entries only, no document", async () => {
  const counted = await readsOf(async () => {
    expect((await items().where("kind", "==", "b").count().get()).data().count).toBe(666);
  });
  expect(counted).toMatchObject({ entriesScanned: 666, documentsRead: 0, billedReads: 1 });
  // sum() of an indexed field too; sum() of a field the index does not hold fetches the documents.
  const summed = await readsOf(async () => {
    const result = await items()
      .where("rank", ">=", 95)
      .aggregate({ s: AggregateField.sum("rank") })
      .get();
    expect(result.data().s).toBe((95 + 96 + 97 + 98 + 99) * 10);
  });
  expect(summed).toMatchObject({ entriesScanned: 50, documentsRead: 0, billedReads: 1 });
  const fetched = await readsOf(() =>
    items()
      .where("kind", "==", "b")
      .aggregate({ s: AggregateField.sum("rank") })
      .get(),
  );
  expect(fetched).toMatchObject({ entriesScanned: 666, documentsRead: 666, billedReads: 1 });
});

test("when count() runs on a query with a limit, then it stops at the limit and is billed for the entries it read", async () => {
  const counted = await readsOf(async () => {
    expect((await items().where("kind", "==", "b").limit(10).count().get()).data().count).toBe(10);
  });
  expect(counted).toMatchObject({ entriesScanned: 10, documentsRead: 0, billedReads: 1 });
  const large = await readsOf(async () => {
    expect((await items().limit(1001).count().get()).data().count).toBe(1001);
  });
  expect(large).toMatchObject({ entriesScanned: 1001, billedReads: 2 });
});

test("when documents are fetched by name, then each one asked for is billed, found or not", async () => {
  const refs = [items().doc("i0001"), items().doc("i0002"), items().doc("missing")];
  const reads = await readsOf(() => db.getAll(...refs));
  expect(reads).toMatchObject({ rpc: "BatchGetDocuments", documentsRead: 2, billedReads: 3 });
});

test("when the index prefix takes several values (in), then each value's range is read up to the limit and merged in order", async () => {
  const query = items().where("kind", "in", ["a", "b"]).orderBy("rank", "desc").limit(3);
  let found: string[] = [];
  const reads = await readsOf(async () => {
    found = (await query.get()).docs.map((d) => d.id);
  });
  expect(found).toEqual(["i0999", "i0899", "i0799"]);
  expect(reads).toMatchObject({ returned: 3, billedReads: 3, entriesScanned: 6 });
});

test("when documents change after an index was used, then the index serves the new state", async () => {
  const top = () => items().where("kind", "==", "b").orderBy("rank", "desc").limit(2).get();
  expect((await top()).docs.map((d) => d.id)).toEqual(["i0899", "i0799"]);
  await items().doc("i0001").update({ rank: 500 });
  await items().doc("i0899").delete();
  await items().doc("i0003").update({ kind: "b", rank: 400 });
  expect((await top()).docs.map((d) => d.id)).toEqual(["i0001", "i0003"]);
  const reads = await readsOf(top);
  expect(reads.entriesScanned).toBe(2);
});

test("when a query runs in a transaction, then its reads are counted too", async () => {
  const reads = await readsOf(() =>
    db.runTransaction(async (tx) =>
      tx.get(items().where("kind", "==", "a").orderBy("rank", "desc").limit(3)),
    ),
  );
  expect(reads).toMatchObject({ rpc: "RunQuery", returned: 3, billedReads: 3 });
});

test("when a query skips documents with an offset, then the skipped documents are read and billed too", async () => {
  const query = items().where("kind", "==", "b").orderBy("rank", "desc").offset(20).limit(5);
  let found = 0;
  const reads = await readsOf(async () => {
    found = (await query.get()).size;
  });
  expect(found).toBe(5);
  expect(reads).toMatchObject({ entriesScanned: 25, documentsRead: 25, returned: 5, billedReads: 25 });
  const inTransaction = await readsOf(() => db.runTransaction(async (tx) => tx.get(query)));
  expect(inTransaction).toMatchObject({ rpc: "RunQuery", returned: 5, billedReads: 25 });
  // Past the end: nothing returned, every matching document skipped (kind "z": two).
  const pastTheEnd = await readsOf(() => items().where("kind", "==", "z").offset(5).get());
  expect(pastTheEnd).toMatchObject({ returned: 0, billedReads: 2 });
  // A query read by scanning (an order on a field fixed by ==) bills its skipped documents the same way.
  const scanned = await readsOf(() => items().where("kind", "==", "z").orderBy("kind").offset(1).get());
  expect(scanned).toMatchObject({ returned: 1, billedReads: 2 });
});

test("when an OR query runs, then each disjunct is read from its own index and the results merged in order", async () => {
  const either = Filter.or(Filter.where("kind", "==", "z"), Filter.where("rank", "==", 99));
  let found: string[] = [];
  const reads = await readsOf(async () => {
    found = (await items().where(either).limit(3).get()).docs.map((d) => d.id);
  });
  expect(found).toEqual(["i0099", "i0199", "i0299"]);
  // Kind "z": its two entries; rank 99: the first three.
  expect(reads).toMatchObject({ entriesScanned: 5, documentsRead: 5, returned: 3, billedReads: 3 });
});

test("when equalities are served by merging single-field indexes, then the one with the fewest entries is read", async () => {
  const counted = await readsOf(async () => {
    const n = (await items().where("kind", "==", "b").where("rank", "==", 42).count().get()).data().count;
    expect(n).toBe(6);
  });
  // rank == 42: ten entries (kind "b": hundreds), each document then checked for its kind.
  expect(counted).toMatchObject({ entriesScanned: 10, documentsRead: 10, billedReads: 1 });
});

test("when the figures are asked for over HTTP, then they are the requests' reads, and a reset starts again", async () => {
  const url = `http://127.0.0.1:${statsPort}/emulator/v1/stats`;
  expect((await fetch(`${url}:reset`, { method: "POST" })).status).toBe(200);
  await items().where("kind", "==", "b").orderBy("rank", "desc").limit(4).get();
  const body = (await (await fetch(url)).json()) as {
    totals: { requests: number; billedReads: number };
    recent: RequestReads[];
  };
  expect(body.totals).toMatchObject({ requests: 1, billedReads: 4 });
  expect(body.recent).toEqual([
    {
      rpc: "RunQuery",
      database: "projects/demo-alpvault/databases/(default)",
      entriesScanned: 4,
      documentsRead: 4,
      returned: 4,
      billedReads: 4,
    },
  ]);
  expect((await fetch(`${url}:reset`, { method: "POST" })).status).toBe(200);
  expect(((await (await fetch(url)).json()) as { totals: { requests: number } }).totals.requests).toBe(0);
  expect((await fetch(`http://127.0.0.1:${statsPort}/anything`)).status).toBe(404);
});
