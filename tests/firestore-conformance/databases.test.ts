/**
 * Named databases, as documented in https://firebase.google.com/docs/firestore/manage-databases:
 * each database of a project is independent; Alpvault keeps one per region.
 */
import { closeFirestore, firestore, uniqueId } from "./support";

const defaultDb = firestore();
const zurich = firestore("europe-west6");
const frankfurt = firestore("europe-west3");

afterAll(closeFirestore);

test("when a document is written to a named database, then it is not visible in the default database and vice versa", async () => {
  const name = uniqueId("regional");
  await zurich.collection(name).doc("org").set({ region: "europe-west6" });
  await defaultDb.collection(name).doc("other").set({ region: "default" });
  expect((await zurich.collection(name).doc("org").get()).get("region")).toBe("europe-west6");
  expect((await defaultDb.collection(name).doc("org").get()).exists).toBe(false);
  expect((await zurich.collection(name).doc("other").get()).exists).toBe(false);
  expect((await defaultDb.collection(name).get()).docs.map((d) => d.id)).toEqual(["other"]);
});

test("when two named databases hold the same paths, then queries, counts and collection-group queries stay within one database", async () => {
  const name = uniqueId("two-regions");
  await zurich.collection(name).doc("a").set({ n: 1 });
  await zurich.collection(name).doc("b").set({ n: 2 });
  await frankfurt.collection(name).doc("a").set({ n: 10 });
  expect((await zurich.collection(name).count().get()).data().count).toBe(2);
  expect((await frankfurt.collection(name).where("n", ">", 0).get()).docs.map((d) => d.get("n"))).toEqual([
    10,
  ]);
  expect((await frankfurt.collectionGroup(name).get()).size).toBe(1);
});

test("when collections are listed in a named database, then only that database's collections appear", async () => {
  const name = uniqueId("listed");
  await frankfurt.collection(name).doc("a").set({ v: 1 });
  expect((await frankfurt.listCollections()).map((c) => c.id)).toContain(name);
  expect((await zurich.listCollections()).map((c) => c.id)).not.toContain(name);
});

test("when a transaction runs in a named database, then its reads and writes apply to that database only", async () => {
  const name = uniqueId("regional-tx");
  const ref = zurich.collection(name).doc("counter");
  await ref.set({ v: 1 });
  await defaultDb.collection(name).doc("counter").set({ v: 100 });
  await zurich.runTransaction(async (tx) => {
    const snapshot = await tx.get(ref);
    tx.update(ref, { v: (snapshot.get("v") as number) + 1 });
  });
  expect((await ref.get()).get("v")).toBe(2);
  expect((await defaultDb.collection(name).doc("counter").get()).get("v")).toBe(100);
});
