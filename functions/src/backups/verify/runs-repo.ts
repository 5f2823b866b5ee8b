/**
 * Integrity verification's run records (docs/backup-format.md §6, docs/backup-engine.md):
 * - `verifyRuns/{runId}`: one run of an organisation: `{trigger, requestedBy, state, requestedAt,
 *   startedAt, finishedAt, updatedAt, lease {holder, until}, resourceIds, position {index, afterItem},
 *   progress, current {checkedItems, damagedItems, damaged [...]}, failureReason}`. `position` and `current`
 *   are the checkpoint: the resource in hand, the last item read, and what it found so far.
 * - `meta/verify`: `{activeRunId, lastScheduledAt}`: one run at a time per organisation, and the day of the
 *   last scheduled one.
 * Runs change only in transactions that check the lease, so a worker whose lease was taken over cannot
 * move a checkpoint back.
 */
import { randomUUID } from "node:crypto";
import type { VerifyRun, VerifyRunState, VerifyTrigger } from "@alpvault/contracts/integrity";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { takeRunLease, type RunLeaseAnswer } from "../../lib/run-lease";
import { decodeDocument, readableDocuments } from "../../lib/stored";
import { VERIFY_RUN, VERIFY_STATE, type DamageRecord, type VerifyRunRecord } from "./documents";

export type { DamageRecord, VerifyRunRecord };

export class VerifyLeaseLostError extends Error {
  constructor(runId: string) {
    super(`Verification run ${runId} is held by another worker`);
    this.name = "VerifyLeaseLostError";
  }
}

function runs(scope: Scope) {
  return organizationRef(scope).collection("verifyRuns");
}

function metaRef(scope: Scope) {
  return organizationRef(scope).collection("meta").doc("verify");
}

/** The run as the API shows it. */
export function publicRun(run: VerifyRunRecord): VerifyRun {
  return {
    runId: run.runId,
    trigger: run.trigger,
    state: run.state,
    requestedAt: run.requestedAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    resourceIds: run.resourceIds,
    progress: run.progress,
    failureReason: run.failureReason,
  };
}

const isActive = (state: VerifyRunState): boolean => state === "pending" || state === "running";

/**
 * Writes a new run unless one is active (pending or running): `{run, created}`, the active one when there
 * is one. One transaction on `meta/verify`.
 */
export async function requestVerifyRun(
  scope: Scope,
  request: { trigger: VerifyTrigger; requestedBy: string; resourceIds: string[]; now: Date },
): Promise<{ run: VerifyRunRecord; created: boolean }> {
  const meta = metaRef(scope);
  return meta.firestore.runTransaction(async (transaction) => {
    const active = decodeDocument(VERIFY_STATE, await transaction.get(meta))?.activeRunId;
    if (active) {
      const run = decodeDocument(VERIFY_RUN, await transaction.get(runs(scope).doc(active)));
      if (run && isActive(run.state)) return { run, created: false };
    }
    const ref = runs(scope).doc(randomUUID().replace(/-/g, ""));
    const at = request.now.toISOString();
    const run: VerifyRunRecord = {
      runId: ref.id,
      trigger: request.trigger,
      requestedBy: request.requestedBy,
      state: "pending",
      requestedAt: at,
      updatedAt: at,
      startedAt: null,
      finishedAt: null,
      lease: null,
      resourceIds: request.resourceIds,
      position: { index: 0, afterItem: null },
      progress: { resourcesDone: 0, checkedItems: 0, damagedItems: 0, objectsRead: 0, bytesRead: 0 },
      current: { checkedItems: 0, damagedItems: 0, damaged: [] },
      failureReason: null,
      waitingSince: null,
    };
    const { runId: _runId, ...data } = run;
    transaction.create(ref, data);
    const fields: Record<string, unknown> = { activeRunId: ref.id };
    if (request.trigger === "schedule") fields.lastScheduledAt = at;
    transaction.set(meta, fields, { merge: true });
    return { run, created: true };
  });
}

/** When the last scheduled run was requested (undefined: never). */
export async function lastScheduledVerify(scope: Scope): Promise<string | undefined> {
  return decodeDocument(VERIFY_STATE, await metaRef(scope).get())?.lastScheduledAt;
}

export async function readVerifyRun(scope: Scope, runId: string): Promise<VerifyRunRecord | undefined> {
  return decodeDocument(VERIFY_RUN, await runs(scope).doc(runId).get());
}

/** The organisation's most recent runs, newest first (one that does not decode is left out, logged). */
export async function recentVerifyRuns(scope: Scope, limit: number): Promise<VerifyRunRecord[]> {
  const snapshot = await runs(scope).orderBy("requestedAt", "desc").limit(limit).get();
  return readableDocuments(VERIFY_RUN, snapshot.docs);
}

/** Active runs nobody works on: no live lease and no change for `staleMs` (the dispatcher enqueues them). */
export async function strandedVerifyRuns(
  scope: Scope,
  now: Date,
  staleMs: number,
): Promise<VerifyRunRecord[]> {
  const snapshot = await runs(scope).where("state", "in", ["pending", "running"]).get();
  const at = now.toISOString();
  const stale = new Date(now.getTime() - staleMs).toISOString();
  return readableDocuments(VERIFY_RUN, snapshot.docs).filter(
    (run) => !(run.lease && run.lease.until > at) && run.updatedAt <= stale,
  );
}

export type VerifyLeaseAnswer = RunLeaseAnswer;

export async function takeVerifyLease(
  scope: Scope,
  runId: string,
  holder: string,
  until: string,
  now: string,
): Promise<VerifyLeaseAnswer> {
  return takeRunLease(
    runs(scope).doc(runId),
    {
      decode: (snapshot) => decodeDocument(VERIFY_RUN, snapshot),
      finished: (run) => !isActive(run.state),
      alsoWrite: (at) => ({ updatedAt: at }),
    },
    holder,
    until,
    now,
  );
}

/** Saves the checkpoint (position, progress, what the resource in hand found); checks the lease. */
export async function saveVerifyCheckpoint(
  scope: Scope,
  runId: string,
  holder: string,
  checkpoint: Pick<VerifyRunRecord, "position" | "progress" | "current" | "waitingSince">,
  now: string,
  release = false,
): Promise<void> {
  const ref = runs(scope).doc(runId);
  await ref.firestore.runTransaction(async (transaction) => {
    const run = decodeDocument(VERIFY_RUN, await transaction.get(ref));
    if (!run || run.lease?.holder !== holder || !isActive(run.state)) throw new VerifyLeaseLostError(runId);
    transaction.update(ref, {
      position: checkpoint.position,
      progress: checkpoint.progress,
      current: checkpoint.current,
      waitingSince: checkpoint.waitingSince,
      updatedAt: now,
      ...(release ? { lease: null } : {}),
    });
  });
}

/** Ends the run (and the organisation's active run); checks the lease. */
export async function finishVerifyRun(
  scope: Scope,
  runId: string,
  holder: string,
  outcome: { state: "succeeded" | "failed"; failureReason?: string },
  progress: VerifyRun["progress"],
  now: string,
): Promise<void> {
  const ref = runs(scope).doc(runId);
  const meta = metaRef(scope);
  await ref.firestore.runTransaction(async (transaction) => {
    const [snapshot, metaSnapshot] = await transaction.getAll(ref, meta);
    const run = decodeDocument(VERIFY_RUN, snapshot!);
    if (!run || run.lease?.holder !== holder || !isActive(run.state)) throw new VerifyLeaseLostError(runId);
    transaction.update(ref, {
      state: outcome.state,
      failureReason: outcome.failureReason ?? null,
      finishedAt: now,
      updatedAt: now,
      lease: null,
      progress,
      current: { checkedItems: 0, damagedItems: 0, damaged: [] },
    });
    if (decodeDocument(VERIFY_STATE, metaSnapshot!)?.activeRunId === runId)
      transaction.set(meta, { activeRunId: null }, { merge: true });
  });
}
