/**
 * The lease of a run, as its repository takes it: in one transaction, a run still open, and not held by
 * another worker whose lease is live, starts (or goes on) running under `holder` until `until`. `leaseRun`
 * for runs that stretch workers work on (see stretch.ts); `takeRunLease` for runs that say why a lease was
 * refused (backup and verification runs).
 */
import type { DocumentReference, DocumentSnapshot } from "firebase-admin/firestore";

export interface RunLease {
  holder: string;
  until: string;
}

/** What a repository says about its runs for the lease. */
export interface LeasedRuns<T> {
  /** The run the document holds (undefined: none). */
  decode(snapshot: DocumentSnapshot): T | undefined;
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
    const run = runs.decode(await transaction.get(ref));
    if (!run || !runs.open(run)) return undefined;
    if (run.lease && run.lease.holder !== holder && run.lease.until > now) return undefined;
    const update = { state: "running", lease: { holder, until }, ...runs.alsoWrite?.(run, now) };
    transaction.update(ref, update);
    return { ...run, ...update } as T;
  });
}

/** Why a lease was given or not. */
export type RunLeaseAnswer = "taken" | "held-by-another" | "finished" | "missing";

/** What a repository says about its runs for `takeRunLease`. */
export interface AnsweredRuns<T> {
  decode(snapshot: DocumentSnapshot): T | undefined;
  /** Whether the run ended (no lease any more). */
  finished(run: T): boolean;
  /**
   * A document read in the same transaction that may hold every run back (the organisation's GC lock):
   * `blocks` says whether it does at `now` (the answer is then "held-by-another").
   */
  blocker?: { ref: DocumentReference; blocks(snapshot: DocumentSnapshot, now: string): boolean };
  /** More fields to write with the lease (when the run was updated). */
  alsoWrite?(now: string): Record<string, unknown>;
}

/**
 * Takes the run's lease for `holder` until `until`: a pending run becomes running (`startedAt` set).
 * "held-by-another" when another holder's lease is live at `now` (or the blocker blocks); "finished" when
 * the run ended; "missing" when there is no such run.
 */
export async function takeRunLease<T extends { state: string; lease?: RunLease | null }>(
  ref: DocumentReference,
  runs: AnsweredRuns<T>,
  holder: string,
  until: string,
  now: string,
): Promise<RunLeaseAnswer> {
  return ref.firestore.runTransaction(async (transaction) => {
    const [snapshot, blocking] = runs.blocker
      ? await transaction.getAll(ref, runs.blocker.ref)
      : [await transaction.get(ref)];
    const run = runs.decode(snapshot as DocumentSnapshot);
    if (!run) return "missing";
    if (runs.finished(run)) return "finished";
    if (run.lease && run.lease.holder !== holder && run.lease.until > now) return "held-by-another";
    if (runs.blocker && blocking && runs.blocker.blocks(blocking, now)) return "held-by-another";
    const update: Record<string, unknown> = { lease: { holder, until }, ...runs.alsoWrite?.(now) };
    if (run.state === "pending") {
      update.state = "running";
      update.startedAt = now;
    }
    transaction.update(ref, update);
    return "taken";
  });
}
