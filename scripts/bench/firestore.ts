/**
 * Firestore emulator throughput, measured through firebase-admin as the product uses it: batched
 * writes, BulkWriter, pages read from an index (with the reads each costs), and read-modify-write
 * transactions (sequential and concurrent on one document).
 */

import { deleteApp, initializeApp } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";

import { startFirestore, type RunningFirestore } from "../../emulators/firestore/src/index";
import { freePort } from "../ports";
import { timed, type Bench, type BenchResult } from "./types";

const WRITES = 10_000;
const BATCH_SIZE = 500;
const TRANSACTIONS = 1_000;
const CONCURRENCY = 10;
const PAGES = 1_000;
const PAGE_SIZE = 50;

async function incrementInTransaction(db: Firestore, path: string): Promise<void> {
  const ref = db.doc(path);
  await db.runTransaction(async (tx) => {
    const value: unknown = (await tx.get(ref)).get("value");
    tx.set(ref, { value: (typeof value === "number" ? value : 0) + 1 });
  });
}

/** Times `work`, then records `check()` (a correctness figure read after the timing) as the note. */
async function record(
  name: string,
  operations: number,
  work: () => Promise<unknown>,
  check: () => Promise<string>,
): Promise<BenchResult> {
  const milliseconds = await timed(work);
  return { name, operations, milliseconds, note: await check() };
}

/** Pages of the batched collection, read from its index (orderBy i desc, after a cursor): reads per page. */
async function pagedQueries(db: Firestore, emulator: RunningFirestore): Promise<BenchResult> {
  emulator.reads?.reset();
  const result = await record(
    `indexed pages of ${PAGE_SIZE} (orderBy + startAfter over ${WRITES.toLocaleString("en")} docs)`,
    PAGES,
    async () => {
      for (let page = 0; page < PAGES; page++) {
        const after = (page * 7919) % WRITES;
        await db.collection("bench-batched").orderBy("i", "desc").startAfter(after).limit(PAGE_SIZE).get();
      }
    },
    async () => {
      const totals = emulator.reads?.snapshot().totals;
      if (!totals) return "reads not counted (official emulator)";
      const per = (n: number) => (n / totals.requests).toFixed(1);
      return `per page: ${per(totals.billedReads)} billed reads, ${per(totals.entriesScanned)} index entries`;
    },
  );
  return result;
}

async function measure(db: Firestore, emulator: RunningFirestore): Promise<BenchResult[]> {
  const stored = async (path: string) => `stored: ${(await db.collection(path).count().get()).data().count}`;
  const counter = async (path: string) => `counter: ${(await db.doc(path).get()).get("value")}`;
  const results: BenchResult[] = [];

  results.push(
    await record(
      `batched writes (batches of ${BATCH_SIZE})`,
      WRITES,
      async () => {
        for (let start = 0; start < WRITES; start += BATCH_SIZE) {
          const batch = db.batch();
          for (let i = start; i < start + BATCH_SIZE; i++) {
            batch.set(db.doc(`bench-batched/d${i}`), { i, text: `document ${i}` });
          }
          await batch.commit();
        }
      },
      () => stored("bench-batched"),
    ),
  );

  results.push(await pagedQueries(db, emulator));

  results.push(
    await record(
      "BulkWriter writes (throttling off)",
      WRITES,
      async () => {
        const writer = db.bulkWriter({ throttling: false });
        for (let i = 0; i < WRITES; i++)
          void writer.set(db.doc(`bench-bulk/d${i}`), { i, text: `document ${i}` });
        await writer.close();
      },
      () => stored("bench-bulk"),
    ),
  );

  results.push(
    await record(
      "transactions, sequential (read + write one doc)",
      TRANSACTIONS,
      async () => {
        for (let i = 0; i < TRANSACTIONS; i++) await incrementInTransaction(db, "bench-tx/sequential");
      },
      () => counter("bench-tx/sequential"),
    ),
  );

  results.push(
    await record(
      `transactions, concurrency ${CONCURRENCY} (same doc)`,
      TRANSACTIONS,
      async () => {
        const worker = async () => {
          for (let i = 0; i < TRANSACTIONS / CONCURRENCY; i++)
            await incrementInTransaction(db, "bench-tx/concurrent");
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      },
      () => counter("bench-tx/concurrent"),
    ),
  );

  return results;
}

export const firestoreBench: Bench = {
  id: "firestore",
  title: "Firestore (our Node emulator, firebase-admin client)",
  async run() {
    const port = await freePort();
    const emulator = await startFirestore({ port });
    process.env.FIRESTORE_EMULATOR_HOST = `${emulator.host}:${port}`;
    process.env.METADATA_SERVER_DETECTION ??= "none";
    const app = initializeApp({ projectId: "demo-alpvault" }, `bench-${port}`);
    try {
      const results = await measure(getFirestore(app), emulator);
      return results.map((r) => ({ ...r, name: `${r.name} [${emulator.kind}]` }));
    } finally {
      await deleteApp(app);
      await emulator.stop();
    }
  },
};
