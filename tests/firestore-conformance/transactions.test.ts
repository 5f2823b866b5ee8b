/**
 * Transactions, as documented in https://firebase.google.com/docs/firestore/manage-data/transactions
 * and https://firebase.google.com/docs/firestore/transaction-data-contention: server SDKs lock the
 * documents a transaction reads, so concurrent transactions on the same documents serialise (the SDK
 * retries on contention) and every committed transaction saw a consistent state.
 */
import { FieldValue } from "firebase-admin/firestore";

import { closeFirestore, firestore, indexedCollection, rejectionCode, Status, uniqueId } from "./support";

jest.setTimeout(60_000);

const db = firestore();

afterAll(closeFirestore);

test("when 2×50 transactions increment one counter concurrently (read, then write read+1), then it ends at exactly 100", async () => {
  const counter = db.collection(uniqueId("tx-counter")).doc("c");
  await counter.set({ value: 0 });
  const increment = () =>
    db.runTransaction(async (tx) => {
      const snapshot = await tx.get(counter);
      tx.update(counter, { value: (snapshot.get("value") as number) + 1 });
    });
  const wave = () => Promise.all(Array.from({ length: 50 }, increment));
  await Promise.all([wave(), wave()]);
  expect((await counter.get()).get("value")).toBe(100);
});

test("when concurrent transactions move money between accounts, then the total is conserved", async () => {
  const col = db.collection(uniqueId("tx-transfer"));
  const accounts = ["a", "b", "c", "d"];
  await Promise.all(accounts.map((id) => col.doc(id).set({ balance: 100 })));
  const transfer = (from: string, to: string) =>
    db.runTransaction(async (tx) => {
      const [source, target] = await tx.getAll(col.doc(from), col.doc(to));
      tx.update(col.doc(from), { balance: (source!.get("balance") as number) - 10 });
      tx.update(col.doc(to), { balance: (target!.get("balance") as number) + 10 });
    });
  const moves = Array.from({ length: 40 }, (_, i) => [accounts[i % 4]!, accounts[(i * 3 + 1) % 4]!] as const);
  await Promise.all(moves.map(([from, to]) => transfer(from, to)));
  const balances = (await col.get()).docs.map((d) => d.get("balance") as number);
  expect(balances.reduce((a, b) => a + b, 0)).toBe(400);
  // Each account sends 10 moves of 10 and receives 10 moves of 10.
  expect(balances).toEqual([100, 100, 100, 100]);
});

test("when the transaction function throws, then none of its writes are committed and the error is returned", async () => {
  const ref = db.collection(uniqueId("tx-throw")).doc("d");
  await ref.set({ v: 1 });
  await expect(
    db.runTransaction(async (tx) => {
      await tx.get(ref);
      tx.update(ref, { v: 2 });
      throw new Error("business rule failed");
    }),
  ).rejects.toThrow("business rule failed");
  expect((await ref.get()).get("v")).toBe(1);
});

test("when a transaction reads a query and writes based on it, then the writes are committed atomically", async () => {
  const col = db.collection(uniqueId("tx-query"));
  await Promise.all([
    col.doc("a").set({ state: "due" }),
    col.doc("b").set({ state: "due" }),
    col.doc("c").set({ state: "done" }),
  ]);
  const claimed = await db.runTransaction(async (tx) => {
    const due = await tx.get(col.where("state", "==", "due"));
    due.docs.forEach((d) => tx.update(d.ref, { state: "running" }));
    return due.docs.map((d) => d.id);
  });
  expect(claimed).toEqual(["a", "b"]);
  expect((await col.where("state", "==", "running").get()).size).toBe(2);
});

test("when two transactions concurrently claim the same queued jobs, then each job is claimed exactly once", async () => {
  // Ordered by n among the free jobs: the composite index of conformance-jobs serves it.
  const col = indexedCollection(db, "conformance-jobs");
  await Promise.all(Array.from({ length: 10 }, (_, i) => col.doc(`job${i}`).set({ owner: null, n: i })));
  const claim = (worker: string) =>
    db.runTransaction(async (tx) => {
      const free = await tx.get(col.where("owner", "==", null).orderBy("n").limit(1));
      const job = free.docs[0];
      if (!job) return null;
      tx.update(job.ref, { owner: worker });
      return job.id;
    });
  const results = await Promise.all(Array.from({ length: 14 }, (_, i) => claim(`w${i}`)));
  const claimedIds = results.filter((r): r is string => r !== null);
  expect(claimedIds).toHaveLength(10);
  expect(new Set(claimedIds).size).toBe(10);
  expect((await col.where("owner", "==", null).get()).size).toBe(0);
});

test("when a transaction uses create() on an existing document, then the transaction fails with ALREADY_EXISTS", async () => {
  const ref = db.collection(uniqueId("tx-create")).doc("d");
  await ref.set({ v: 1 });
  const code = await rejectionCode(
    db.runTransaction(async (tx) => {
      tx.create(ref, { v: 2 });
    }),
  );
  expect(code).toBe(Status.ALREADY_EXISTS);
  expect((await ref.get()).get("v")).toBe(1);
});

test("when a read-only transaction reads documents, then it sees committed data", async () => {
  const col = db.collection(uniqueId("tx-readonly"));
  await col.doc("a").set({ v: 1 });
  const values = await db.runTransaction(
    async (tx) => {
      const [a, b] = await tx.getAll(col.doc("a"), col.doc("b"));
      return [a!.get("v"), b!.exists];
    },
    { readOnly: true },
  );
  expect(values).toEqual([1, false]);
});

test("when transactions and plain increments hit one document concurrently, then no update is lost", async () => {
  const ref = db.collection(uniqueId("tx-mixed")).doc("d");
  await ref.set({ value: 0 });
  await Promise.all([
    ...Array.from({ length: 20 }, () =>
      db.runTransaction(async (tx) => {
        const s = await tx.get(ref);
        tx.update(ref, { value: (s.get("value") as number) + 1 });
      }),
    ),
    ...Array.from({ length: 20 }, () => ref.update({ value: FieldValue.increment(1) })),
  ]);
  expect((await ref.get()).get("value")).toBe(40);
});
