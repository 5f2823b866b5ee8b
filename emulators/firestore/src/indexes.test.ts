import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Index } from "@firestore-emulator/proto/dist/google/firestore/admin/v1/index";
import { deleteApp, initializeApp, type App } from "firebase-admin/app";
import { AggregateField, Filter, getFirestore, type Firestore, type Query } from "firebase-admin/firestore";

import { NodeFirestoreEmulator } from "./node-emulator";

const INDEXES = {
  indexes: [
    {
      collectionGroup: "ranked",
      queryScope: "COLLECTION",
      fields: [
        { fieldPath: "kind", order: "ASCENDING" },
        { fieldPath: "rank", order: "DESCENDING" },
      ],
    },
    {
      collectionGroup: "merged",
      queryScope: "COLLECTION",
      fields: [
        { fieldPath: "a", order: "ASCENDING" },
        { fieldPath: "c", order: "ASCENDING" },
      ],
    },
    {
      collectionGroup: "merged",
      queryScope: "COLLECTION",
      fields: [
        { fieldPath: "b", order: "DESCENDING" },
        { fieldPath: "c", order: "ASCENDING" },
      ],
    },
    {
      collectionGroup: "people",
      queryScope: "COLLECTION",
      fields: [
        { fieldPath: "city", order: "ASCENDING" },
        { fieldPath: "age", order: "ASCENDING" },
      ],
    },
  ],
  fieldOverrides: [
    {
      collectionGroup: "grouped",
      fieldPath: "v",
      indexes: [{ order: "ASCENDING", queryScope: "COLLECTION_GROUP" }],
    },
    { collectionGroup: "logs", fieldPath: "payload", indexes: [] },
  ],
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let dir: string;
const running: { emulator: NodeFirestoreEmulator; app: App }[] = [];

async function start(options: { relaxedIndexes?: boolean } = {}): Promise<Firestore> {
  const port = await freePort();
  const emulator = new NodeFirestoreEmulator({
    host: "127.0.0.1",
    port,
    indexesFiles: [join(dir, "firestore.indexes.json")],
    ...options,
  });
  await emulator.start();
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  const app = initializeApp({ projectId: "demo-alpvault" }, `indexes-${port}`);
  running.push({ emulator, app });
  return getFirestore(app);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "alpvault-indexes-"));
  await writeFile(join(dir, "firestore.indexes.json"), JSON.stringify(INDEXES));
});

afterAll(async () => {
  for (const { emulator, app } of running) {
    await deleteApp(app);
    await emulator.stop();
  }
  await rm(dir, { recursive: true, force: true });
});

/** The error a query fails with, or undefined when it is served. */
async function failure(
  query: Query | Promise<unknown>,
): Promise<{ code?: number; details?: string } | undefined> {
  try {
    await ("get" in query ? query.get() : query);
    return undefined;
  } catch (error) {
    return error as { code?: number; details?: string };
  }
}

/** The index a "requires an index" message links to, decoded from its create_composite parameter. */
function linkedIndex(details: string): { name: string; scope: number; fields: string[] } {
  const encoded = /create_composite=([A-Za-z0-9+/=]+)/.exec(details)?.[1];
  if (!encoded) throw new Error(`No create_composite link in: ${details}`);
  const index = Index.deserializeBinary(Buffer.from(encoded, "base64"));
  return {
    name: index.name,
    scope: index.query_scope,
    fields: index.fields.map((f) => `${f.field_path} ${f.has_array_config ? "CONTAINS" : f.order}`),
  };
}

describe("with strict indexes", () => {
  let db: Firestore;
  beforeAll(async () => {
    db = await start();
  });

  test("when a query needs only automatic single-field indexes, then it is served", async () => {
    const col = db.collection("anything");
    await col.doc("d").set({ a: 1, b: 2, tags: ["x"] });
    expect(await failure(col.orderBy("a", "desc"))).toBeUndefined();
    expect(await failure(col.where("a", ">", 0))).toBeUndefined();
    expect(await failure(col.where("a", "==", 1).where("b", "==", 2))).toBeUndefined();
    expect(await failure(col.where("tags", "array-contains", "x").where("a", "==", 1))).toBeUndefined();
    expect(await failure(col.where("a", "in", [1, 2]))).toBeUndefined();
    expect(await failure(col.count().get())).toBeUndefined();
    expect((await col.where("a", "==", 1).where("b", "==", 2).get()).size).toBe(1);
  });

  test("when a query needs an undeclared composite index, then it fails with FAILED_PRECONDITION naming that index", async () => {
    const error = await failure(db.collection("anything").where("a", "==", 1).orderBy("b", "desc"));
    expect(error?.code).toBe(9);
    expect(error?.details).toMatch(
      /^The query requires an index\. You can create it here: https:\/\/console\.firebase\.google\.com\/v1\/r\/project\/demo-alpvault\/firestore\/indexes\?create_composite=\S+ /,
    );
    expect(error?.details).toContain(
      "(collection group anything, COLLECTION scope: a ASCENDING, b DESCENDING, __name__ DESCENDING)",
    );
    expect(linkedIndex(error!.details!)).toEqual({
      name: "projects/demo-alpvault/databases/(default)/collectionGroups/anything/indexes/_",
      scope: 1,
      fields: ["a 1", "b 2", "__name__ 2"],
    });
  });

  test("when a declared composite index matches the query's equalities and order, then it is served, and not in the other direction", async () => {
    const col = db.collection("parents").doc("p1").collection("ranked");
    expect(await failure(col.where("kind", "==", "b").orderBy("rank", "desc").limit(3))).toBeUndefined();
    expect((await failure(col.where("kind", "==", "b").orderBy("rank")))?.code).toBe(9);
    expect((await failure(col.where("kind", "==", "b").where("rank", ">", 2)))?.code).toBe(9);
  });

  test("when equality filters share an order, then composite indexes are merged to serve them", async () => {
    const col = db.collection("merged");
    expect(await failure(col.where("a", "==", 1).where("b", "==", 2).orderBy("c"))).toBeUndefined();
    expect(await failure(col.where("b", "==", 2).orderBy("c"))).toBeUndefined();
    const error = await failure(col.where("a", "==", 1).where("d", "==", 2).orderBy("c"));
    expect(linkedIndex(error!.details!).fields).toEqual(["a 1", "d 1", "c 1", "__name__ 1"]);
  });

  test("when a query orders by two fields or filters two ranges, then it needs a composite index", async () => {
    const col = db.collection("anything");
    expect(linkedIndex((await failure(col.orderBy("a").orderBy("b")))!.details!).fields).toEqual([
      "a 1",
      "b 1",
      "__name__ 1",
    ]);
    expect(linkedIndex((await failure(col.where("a", ">", 1).where("b", "<", 2)))!.details!).fields).toEqual([
      "a 1",
      "b 1",
      "__name__ 1",
    ]);
  });

  test("when array-contains is combined with an order on another field, then the index asks for CONTAINS", async () => {
    const error = await failure(db.collection("anything").where("tags", "array-contains", "x").orderBy("a"));
    expect(linkedIndex(error!.details!).fields).toEqual(["tags CONTAINS", "a 1", "__name__ 1"]);
  });

  test("when an OR query has a disjunct no index serves, then it is refused with that disjunct's index", async () => {
    const people = db.collection("people");
    const bern = Filter.and(Filter.where("city", "==", "Bern"), Filter.where("age", ">", 35));
    expect(
      await failure(
        people.where(Filter.or(Filter.where("city", "==", "Bern"), Filter.where("name", "==", "Eve"))),
      ),
    ).toBeUndefined();
    expect(await failure(people.where(Filter.or(bern, Filter.where("city", "==", "Basel"))))).toBeUndefined();
    // The query's order (age, from the inequality) applies to every disjunct.
    const error = await failure(people.where(Filter.or(bern, Filter.where("name", "==", "Eve"))));
    expect(linkedIndex(error!.details!).fields).toEqual(["name 1", "age 1", "__name__ 1"]);
  });

  test("when a collection group query filters a field without a collection-group index, then it asks for that single-field index", async () => {
    expect(await failure(db.collectionGroup("grouped").where("v", ">=", 2))).toBeUndefined();
    expect(await failure(db.collectionGroup("anything"))).toBeUndefined();
    const error = await failure(db.collectionGroup("anything").where("v", ">=", 2));
    expect(error?.code).toBe(9);
    expect(error?.details).toMatch(
      /^The query requires a COLLECTION_GROUP_ASC index for collection anything and field v\. You can create it here: https:\/\/console\.firebase\.google\.com\/v1\/r\/project\/demo-alpvault\/firestore\/indexes\?create_exemption=\S+$/,
    );
  });

  test("when a field override exempts a field, then ordering by it is refused", async () => {
    expect((await failure(db.collection("logs").orderBy("payload.size")))?.code).toBe(9);
    expect(await failure(db.collection("logs").orderBy("at"))).toBeUndefined();
  });

  test("when an aggregation's query needs an undeclared index, then it is refused too", async () => {
    const query = db.collection("anything").where("a", "==", 1).orderBy("b");
    expect((await failure(query.count().get()))?.code).toBe(9);
    expect((await failure(query.aggregate({ total: AggregateField.sum("a") }).get()))?.code).toBe(9);
  });

  test("when the query runs on a named database, then the link names that database", async () => {
    const named = getFirestore(running[0]!.app, "europe-west6");
    const error = await failure(named.collection("anything").where("a", "==", 1).orderBy("b"));
    expect(error?.details).toContain(
      "https://console.firebase.google.com/v1/r/project/demo-alpvault/firestore/databases/europe-west6/indexes?create_composite=",
    );
    expect(linkedIndex(error!.details!).name).toBe(
      "projects/demo-alpvault/databases/europe-west6/collectionGroups/anything/indexes/_",
    );
  });
});

test("when indexes are relaxed, then a query without its index is served", async () => {
  const db = await start({ relaxedIndexes: true });
  const col = db.collection("anything");
  await col.doc("d1").set({ a: 1, b: 2 });
  await col.doc("d2").set({ a: 1, b: 3 });
  expect((await col.where("a", "==", 1).orderBy("b", "desc").get()).docs.map((d) => d.id)).toEqual([
    "d2",
    "d1",
  ]);
});
