/**
 * Backup run records in Firestore (`backupRuns/{runId}` under `organizations/{organizationId}` in the
 * organisation's region database, decoded by `run-documents.ts`): the lease a worker holds on its run while
 * it backs the resource up (the `Catalog` calls `loadRun`, `takeLease`, `saveCheckpoint`, `releaseLease`
 * and `finishRun`, each one read or transaction). No run takes a lease while the organisation's garbage
 * collector holds its lock (`gcLockRef`).
 */
import type { DocumentData, DocumentReference } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { decodeDocument } from "../../lib/stored";
import { stripUndefined } from "../../lib/strip-undefined";
import { takeRunLease } from "../../lib/run-lease";
import {
  LeaseLostError,
  MAX_ITEM_ERRORS,
  type Checkpoint,
  type LeaseAnswer,
  type RunExpectation,
  type RunOutcome,
  type RunProgress,
  type RunRecord,
  type RunState,
} from "../../engine/runner/catalog";
import { BACKUP_RUN, GC_LOCK } from "./run-documents";

function isFinished(state: RunState): boolean {
  return state === "succeeded" || state === "failed";
}

/**
 * The organisation's garbage-collection lock (`meta/gc`: `{holder, sweepingUntil}`): while it is live, no
 * run takes a lease (`retention/gc.ts`).
 */
export function gcLockRef(scope: Scope): DocumentReference {
  return organizationRef(scope).collection("meta").doc("gc");
}

function runRef(scope: Scope, runId: string): DocumentReference {
  return organizationRef(scope).collection("backupRuns").doc(runId);
}

export async function loadRun(scope: Scope, runId: string): Promise<RunRecord | undefined> {
  return decodeDocument(BACKUP_RUN, await runRef(scope, runId).get());
}

export async function takeLease(
  scope: Scope,
  runId: string,
  holder: string,
  until: string,
  now: string,
): Promise<LeaseAnswer> {
  return takeRunLease(
    runRef(scope, runId),
    {
      decode: (snapshot) => decodeDocument(BACKUP_RUN, snapshot),
      finished: (run) => isFinished(run.state),
      // The garbage collector of the organisation is at work: no run may start or go on until it is done.
      blocker: {
        ref: gcLockRef(scope),
        blocks: (gc, at) => (decodeDocument(GC_LOCK, gc)?.sweepingUntil ?? "") > at,
      },
    },
    holder,
    until,
    now,
  );
}

export async function saveCheckpoint(
  scope: Scope,
  runId: string,
  holder: string,
  checkpoint: Checkpoint,
): Promise<void> {
  const ref = runRef(scope, runId);
  await organizationRef(scope).firestore.runTransaction(async (transaction) => {
    const run = decodeDocument(BACKUP_RUN, await transaction.get(ref));
    if (!run || run.lease?.holder !== holder || isFinished(run.state)) throw new LeaseLostError(runId);
    const room = Math.max(0, MAX_ITEM_ERRORS - run.itemErrors.length);
    transaction.update(
      ref,
      stripUndefined({
        cursor: checkpoint.cursor,
        progress: checkpoint.progress,
        unitsUsed: checkpoint.unitsUsed,
        itemErrors: [...run.itemErrors, ...checkpoint.newItemErrors.slice(0, room)],
        itemErrorCount: run.itemErrorCount + checkpoint.newItemErrors.length,
        listing: checkpoint.listing,
        services: checkpoint.services,
        partial: checkpoint.partial ?? null,
        expected: checkpoint.expected,
      }),
    );
  });
}

/** The run's live progress (and expectation): one plain write, no lease check (the screens alone read them). */
export async function saveLiveProgress(
  scope: Scope,
  runId: string,
  progress: RunProgress,
  expected?: RunExpectation | null,
): Promise<void> {
  await runRef(scope, runId).update({ liveProgress: progress, ...(expected ? { expected } : {}) });
}

export async function releaseLease(scope: Scope, runId: string, holder: string): Promise<void> {
  const ref = runRef(scope, runId);
  await organizationRef(scope).firestore.runTransaction(async (transaction) => {
    const run = decodeDocument(BACKUP_RUN, await transaction.get(ref));
    if (run?.lease?.holder === holder) transaction.update(ref, { lease: null });
  });
}

export async function finishRun(
  scope: Scope,
  runId: string,
  holder: string,
  outcome: RunOutcome,
  at: string,
): Promise<void> {
  const ref = runRef(scope, runId);
  await organizationRef(scope).firestore.runTransaction(async (transaction) => {
    const run = decodeDocument(BACKUP_RUN, await transaction.get(ref));
    if (!run || run.lease?.holder !== holder || isFinished(run.state)) throw new LeaseLostError(runId);
    const update: DocumentData = { state: outcome.state, finishedAt: at, lease: null };
    if (outcome.state === "failed") update.failureReason = outcome.failureReason;
    transaction.update(ref, update);
  });
}
