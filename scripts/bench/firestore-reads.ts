/**
 * Firestore reads of this process, for the scale benches.
 *
 * - `clientReads()`: counted on the client, around firebase-admin's read calls: the documents every query,
 *   `getAll`, document `get` and transaction read returned (what Firestore bills per document), and the
 *   aggregation queries (billed one read per 1,000 index entries; the client cannot see the entries, so
 *   each counts 1 here). Documents a query skips with `offset` are billed too but never reach the client:
 *   only the emulator's own count shows them.
 * - the emulator's own count (`OwnFirestore.billedReads()`, `own-firestore.ts`): the reads it billed as
 *   Firestore bills them (including documents an `offset` skips and one read per 1,000 index entries an
 *   aggregation matches); the official emulator does not count, and the figure is then reported as not
 *   measured.
 */
import { Firestore, Query, Transaction } from "firebase-admin/firestore";

export interface ReadCount {
  /** Queries, getAll calls and transaction reads. */
  calls: number;
  /** Documents they returned. */
  documents: number;
  /** Aggregation queries (`count()`, `sum()`). */
  aggregations: number;
}

/** Billed reads as the client sees them: documents returned, plus one per aggregation. */
export function billed(count: ReadCount): number {
  return count.documents + count.aggregations;
}

function sizeOf(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  if (result && typeof result === "object" && "size" in result) return Number(result.size) || 0;
  return 1; // a single document snapshot
}

type Method = (this: unknown, ...args: unknown[]) => Promise<unknown>;

/** Counts firebase-admin's reads in this process until `stop()`; `count` is live. */
export function clientReads(db: Firestore): { count: ReadCount; stop(): void } {
  const count: ReadCount = { calls: 0, documents: 0, aggregations: 0 };
  const restore: (() => void)[] = [];
  const wrap = (prototype: object, name: string, onResult: (result: unknown) => void) => {
    const target = prototype as Record<string, Method>;
    const original = target[name] as Method;
    target[name] = async function (this: unknown, ...args: unknown[]) {
      const result = await original.apply(this, args);
      onResult(result);
      return result;
    };
    restore.push(() => {
      target[name] = original;
    });
  };
  const documents = (result: unknown) => {
    count.calls += 1;
    count.documents += sizeOf(result);
  };
  wrap(Query.prototype, "get", documents);
  wrap(Firestore.prototype, "getAll", documents);
  wrap(Transaction.prototype, "get", documents);
  wrap(Transaction.prototype, "getAll", documents);
  // firebase-admin exports AggregateQuery as a type only: its prototype is reached through a query's count().
  wrap(Object.getPrototypeOf(db.collection("reads").count()) as object, "get", () => {
    count.aggregations += 1;
  });
  return { count, stop: () => restore.reverse().forEach((undo) => undo()) };
}
