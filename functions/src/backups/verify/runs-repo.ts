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
import type { DamagedItem, VerifyRun, VerifyRunState, VerifyTrigger } from "@alpvault/contracts/integrity";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { takeRunLease, type RunLeaseAnswer } from "../../lib/run-lease";

/** A damaged item as a run keeps it until its resource is healed and recorded. */
export interface DamageRecord {
  itemKey: string;
  kind: DamagedItem["kind"];
  name: string;
  brokenObjects: string[];
  brokenChunks: string[];
}

export interface VerifyRunRecord extends VerifyRun {
  requestedBy: string;
  lease: { holder: string; until: string } | null;
  position: { index: number; afterItem: string | null };
  current: { checkedItems: number; damagedItems: number; damaged: DamageRecord[] };
  /** A resource's damage is confirmed and healed under the GC lock; set while waiting for it. */
  waitingSince: string | null;
  updatedAt: string;
}

export class VerifyLeaseLostError extends Error {
  constructor(runId: string) {
    super(`Verification run ${runId} is held by another worker`);
    this.name = "VerifyLeaseLostError";
  }
}

const STATES: readonly VerifyRunState[] = ["pending", "running", "succeeded", "failed"];

function runs(scope: Scope) {
  return organizationRef(scope).collection("verifyRuns");
}

function metaRef(scope: Scope) {
  return organizationRef(scope).collection("meta").doc("verify");
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const count = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;

function decodeDamage(value: unknown): DamageRecord | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const strings = (list: unknown): string[] =>
    Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === "string") : [];
  if (typeof v.itemKey !== "string" || typeof v.name !== "string") return undefined;
  if (v.kind !== "gmail-message" && v.kind !== "drive-file") return undefined;
  return {
    itemKey: v.itemKey,
    kind: v.kind,
    name: v.name,
    brokenObjects: strings(v.brokenObjects),
    brokenChunks: strings(v.brokenChunks),
  };
}

function decodeVerifyRun(id: string, data: Record<string, unknown> | undefined): VerifyRunRecord | undefined {
  if (!data) return undefined;
  const progress = (data.progress ?? {}) as Record<string, unknown>;
  const position = (data.position ?? {}) as Record<string, unknown>;
  const current = (data.current ?? {}) as Record<string, unknown>;
  const lease = data.lease as { holder?: unknown; until?: unknown } | null | undefined;
  return {
    runId: id,
    trigger: data.trigger === "schedule" ? "schedule" : "manual",
    state: STATES.includes(data.state as VerifyRunState) ? (data.state as VerifyRunState) : "pending",
    requestedAt: text(data.requestedAt) ?? "",
    requestedBy: text(data.requestedBy) ?? "",
    startedAt: text(data.startedAt),
    finishedAt: text(data.finishedAt),
    updatedAt: text(data.updatedAt) ?? text(data.requestedAt) ?? "",
    resourceIds: Array.isArray(data.resourceIds)
      ? data.resourceIds.filter((entry): entry is string => typeof entry === "string")
      : [],
    progress: {
      resourcesDone: count(progress.resourcesDone),
      checkedItems: count(progress.checkedItems),
      damagedItems: count(progress.damagedItems),
      objectsRead: count(progress.objectsRead),
      bytesRead: count(progress.bytesRead),
    },
    failureReason: text(data.failureReason),
    lease:
      lease && typeof lease.holder === "string" && typeof lease.until === "string"
        ? { holder: lease.holder, until: lease.until }
        : null,
    position: { index: count(position.index), afterItem: text(position.afterItem) },
    current: {
      checkedItems: count(current.checkedItems),
      damagedItems: count(current.damagedItems),
      damaged: Array.isArray(current.damaged)
        ? current.damaged.flatMap((entry) => decodeDamage(entry) ?? [])
        : [],
    },
    waitingSince: text(data.waitingSince),
  };
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
    const active = text((await transaction.get(meta)).get("activeRunId"));
    if (active) {
      const snapshot = await transaction.get(runs(scope).doc(active));
      const run = decodeVerifyRun(snapshot.id, snapshot.data());
      if (run && isActive(run.state)) return { run, created: false };
    }
    const ref = runs(scope).doc(randomUUID().replace(/-/g, ""));
    const at = request.now.toISOString();
    const data = {
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
    transaction.create(ref, data);
    const fields: Record<string, unknown> = { activeRunId: ref.id };
    if (request.trigger === "schedule") fields.lastScheduledAt = at;
    transaction.set(meta, fields, { merge: true });
    return { run: decodeVerifyRun(ref.id, data) as VerifyRunRecord, created: true };
  });
}

/** When the last scheduled run was requested (undefined: never). */
export async function lastScheduledVerify(scope: Scope): Promise<string | undefined> {
  return text((await metaRef(scope).get()).get("lastScheduledAt")) ?? undefined;
}

export async function readVerifyRun(scope: Scope, runId: string): Promise<VerifyRunRecord | undefined> {
  const snapshot = await runs(scope).doc(runId).get();
  return decodeVerifyRun(snapshot.id, snapshot.data());
}

/** The organisation's most recent runs, newest first. */
export async function recentVerifyRuns(scope: Scope, limit: number): Promise<VerifyRunRecord[]> {
  const snapshot = await runs(scope).orderBy("requestedAt", "desc").limit(limit).get();
  return snapshot.docs.flatMap((doc) => decodeVerifyRun(doc.id, doc.data()) ?? []);
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
  return snapshot.docs
    .flatMap((doc) => decodeVerifyRun(doc.id, doc.data()) ?? [])
    .filter((run) => !(run.lease && run.lease.until > at) && run.updatedAt <= stale);
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
      decode: (snapshot) => decodeVerifyRun(snapshot.id, snapshot.data()),
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
    const snapshot = await transaction.get(ref);
    const run = decodeVerifyRun(snapshot.id, snapshot.data());
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
    const run = decodeVerifyRun(snapshot!.id, snapshot!.data());
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
    if (metaSnapshot?.get("activeRunId") === runId)
      transaction.set(meta, { activeRunId: null }, { merge: true });
  });
}
