/**
 * The lease of a run that stretch workers work on (see stretch.ts), as its repository takes it: in one
 * transaction, a run still open, and not held by another worker whose lease is live, starts (or goes on)
 * running under `holder` until `until`.
 */
import type { DocumentReference } from "firebase-admin/firestore";

export interface RunLease {
  holder: string;
  until: string;
}

/** What a repository says about its runs for the lease. */
export interface LeasedRuns<T> {
  decode(data: Record<string, unknown> | undefined): T | undefined;
  /** Whether the run may still be worked on (not finished). */
  open(run: T): boolean;
  /** More fields to write with the lease (a start time, a delivery count). */
  alsoWrite?(run: T, now: string): Record<string, unknown>;
}

/** Takes the run's lease: the run as it is now, or undefined when it is finished or held by another. */
export async function leaseRun<T extends { lease: RunLease | null }>(
  ref: DocumentReference,
  runs: LeasedRuns<T>,
  holder: string,
  until: string,
  now: string,
): Promise<T | undefined> {
  return ref.firestore.runTransaction(async (transaction) => {
    const run = runs.decode((await transaction.get(ref)).data());
    if (!run || !runs.open(run)) return undefined;
    if (run.lease && run.lease.holder !== holder && run.lease.until > now) return undefined;
    const update = { state: "running", lease: { holder, until }, ...runs.alsoWrite?.(run, now) };
    transaction.update(ref, update);
    return { ...run, ...update } as T;
  });
}
