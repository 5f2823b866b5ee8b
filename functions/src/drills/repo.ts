/**
 * Restore drills of one organisation in its region database: `organizations/{id}/meta/drills` (the
 * settings, the next scheduled drill and the active run: one drill at a time), `…/drillRuns/{runId}` (a
 * run: state, counts, per-resource results, the position reached, a lease) and
 * `…/drillRuns/{runId}/items/{seq}` (each drawn item and its outcome, in drawing order).
 */
import type { Transaction } from "firebase-admin/firestore";
import {
  DRILL_DEFAULT_SAMPLE_SIZE,
  DRILL_DEFAULT_SCHEDULE,
  DRILL_SCHEDULES,
  type DrillCounts,
  type DrillItem,
  type DrillRun,
  type DrillSchedule,
  type DrillSettingsRequest,
} from "@alpvault/contracts/drills";
import { leaseRun } from "../lib/run-lease";
import { organizationRef, type Scope } from "../lib/tenancy";

export interface StoredDrillSettings extends DrillSettingsRequest {
  sandboxEmail: string | null;
  nextDrillAt: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
  activeRunId: string | null;
}

/** Where a drill is: the resources it drills, the one in hand, and the drawn items of that one. */
export interface DrillPosition {
  resourceIndex: number;
  /** Whether the resource in hand has had its sample drawn (its items are `itemsFrom` to `itemsTo`). */
  sampled: boolean;
  itemsFrom: number;
  itemsTo: number;
  /** The next item to check. */
  itemIndex: number;
  /** Whether the sandbox has been cleared of what the drill restored. */
  cleaned: boolean;
}

export interface StoredDrillRun extends DrillRun {
  /** The resources to drill, fixed when the run starts (null before). */
  resourceIds: string[] | null;
  position: DrillPosition;
  /** The Gmail label and Drive folder of the sandbox the run restores into. */
  restoreName: string;
  lease: { holder: string; until: string } | null;
}

/** A drawn item as stored: the API's item, its order, and what the restore left in the sandbox. */
export interface StoredDrillItem extends DrillItem {
  seq: number;
  /** Set before the restore: a resumed run looks its copy up instead of restoring twice. */
  restoring?: boolean;
  restoredId?: string | null;
  /**
   * Messages drawn with this one to stand in for it when the sandbox already holds its Message-ID (Gmail
   * keeps one copy per mailbox, so such a message cannot be restored there); used in order, then dropped.
   */
  spares?: { itemKey: string; name: string }[];
  /** The drawn message this one stands in for. */
  standsInFor?: string;
}

const SETTINGS_DEFAULTS: StoredDrillSettings = {
  enabled: false,
  sandboxResourceId: null,
  sandboxEmail: null,
  sampleSize: DRILL_DEFAULT_SAMPLE_SIZE,
  schedule: DRILL_DEFAULT_SCHEDULE,
  nextDrillAt: null,
  updatedAt: null,
  updatedBy: null,
  activeRunId: null,
};

export const EMPTY_COUNTS: DrillCounts = { sample: 0, matched: 0, mismatched: 0, failed: 0, skipped: 0 };

function settingsRef(scope: Scope) {
  return organizationRef(scope).collection("meta").doc("drills");
}

function runs(scope: Scope) {
  return organizationRef(scope).collection("drillRuns");
}

function items(scope: Scope, drillRunId: string) {
  return runs(scope).doc(drillRunId).collection("items");
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

export function decodeSettings(data: Record<string, unknown> | undefined): StoredDrillSettings {
  if (!data) return { ...SETTINGS_DEFAULTS };
  const sampleSize = data.sampleSize;
  const schedule = data.schedule;
  return {
    enabled: data.enabled === true,
    sandboxResourceId: text(data.sandboxResourceId),
    sandboxEmail: text(data.sandboxEmail),
    sampleSize:
      typeof sampleSize === "number" && Number.isInteger(sampleSize) && sampleSize > 0
        ? sampleSize
        : DRILL_DEFAULT_SAMPLE_SIZE,
    schedule: DRILL_SCHEDULES.includes(schedule as DrillSchedule)
      ? (schedule as DrillSchedule)
      : DRILL_DEFAULT_SCHEDULE,
    nextDrillAt: text(data.nextDrillAt),
    updatedAt: text(data.updatedAt),
    updatedBy: text(data.updatedBy),
    activeRunId: text(data.activeRunId),
  };
}

export async function readSettings(scope: Scope): Promise<StoredDrillSettings> {
  return decodeSettings((await settingsRef(scope).get()).data());
}

/** The settings as read in `transaction` (a change reads them before writing them back). */
export async function readSettingsIn(transaction: Transaction, scope: Scope): Promise<StoredDrillSettings> {
  return decodeSettings((await transaction.get(settingsRef(scope))).data());
}

export function writeSettings(transaction: Transaction, scope: Scope, settings: StoredDrillSettings): void {
  transaction.set(settingsRef(scope), settings);
}

export function decodeRun(id: string, data: Record<string, unknown> | undefined): StoredDrillRun | undefined {
  if (!data || typeof data.state !== "string" || typeof data.requestedAt !== "string") return undefined;
  return { ...(data as unknown as StoredDrillRun), drillRunId: id };
}

export async function readRun(scope: Scope, drillRunId: string): Promise<StoredDrillRun | undefined> {
  const snapshot = await runs(scope).doc(drillRunId).get();
  return decodeRun(snapshot.id, snapshot.data());
}

async function activeRun(
  transaction: Transaction,
  scope: Scope,
  settings: StoredDrillSettings,
): Promise<StoredDrillRun | undefined> {
  if (!settings.activeRunId) return undefined;
  const snapshot = await transaction.get(runs(scope).doc(settings.activeRunId));
  const run = decodeRun(snapshot.id, snapshot.data());
  return run && (run.state === "pending" || run.state === "running") ? run : undefined;
}

/**
 * Writes a pending run and marks it active, in one transaction; `busy` when another drill is pending or
 * running. `schedule` also moves the next scheduled drill (the dispatcher's start).
 */
export async function createRun(
  scope: Scope,
  run: (settings: StoredDrillSettings) => Omit<StoredDrillRun, "drillRunId"> | undefined,
  nextDrillAt?: (settings: StoredDrillSettings) => string | null,
): Promise<
  { kind: "created"; run: StoredDrillRun } | { kind: "busy"; run: StoredDrillRun } | { kind: "none" }
> {
  const ref = settingsRef(scope);
  return ref.firestore.runTransaction(async (transaction) => {
    const settings = decodeSettings((await transaction.get(ref)).data());
    const active = await activeRun(transaction, scope, settings);
    if (active) return { kind: "busy" as const, run: active };
    const data = run(settings);
    if (!data) return { kind: "none" as const };
    const runRef = runs(scope).doc();
    transaction.create(runRef, data);
    transaction.set(
      ref,
      {
        ...settings,
        activeRunId: runRef.id,
        ...(nextDrillAt ? { nextDrillAt: nextDrillAt(settings) } : {}),
      },
      { merge: false },
    );
    return { kind: "created" as const, run: { ...data, drillRunId: runRef.id } };
  });
}

/** Moves the next scheduled drill (a due drill that could not start waits for its next slot). */
export async function setNextDrillAt(scope: Scope, nextDrillAt: string | null): Promise<void> {
  await settingsRef(scope).set({ nextDrillAt }, { merge: true });
}

/** The organisation's active run, whatever its lease (the dispatcher re-enqueues a stranded one). */
export async function readActiveRun(scope: Scope): Promise<StoredDrillRun | undefined> {
  const settings = await readSettings(scope);
  if (!settings.activeRunId) return undefined;
  const run = await readRun(scope, settings.activeRunId);
  return run && (run.state === "pending" || run.state === "running") ? run : undefined;
}

/** Takes the run's lease (a pending run starts running): undefined when finished or held by another. */
export async function takeRunLease(
  scope: Scope,
  drillRunId: string,
  holder: string,
  until: string,
  now: string,
): Promise<StoredDrillRun | undefined> {
  return leaseRun(
    runs(scope).doc(drillRunId),
    {
      decode: (data) => decodeRun(drillRunId, data),
      open: (run) => run.state !== "passed" && run.state !== "failed",
      alsoWrite: (run, at) => ({ startedAt: run.startedAt ?? at }),
    },
    holder,
    until,
    now,
  );
}

type Progress = Pick<StoredDrillRun, "resourceIds" | "position" | "counts" | "resources" | "problems">;

function progressOf(run: Progress): Progress {
  return {
    resourceIds: run.resourceIds,
    position: run.position,
    counts: run.counts,
    resources: run.resources,
    problems: run.problems,
  };
}

/** Saves the run's progress (only while `holder` holds the lease); false when it lost it. */
export async function saveRunProgress(
  scope: Scope,
  run: StoredDrillRun,
  holder: string,
  releaseLease = false,
): Promise<boolean> {
  const ref = runs(scope).doc(run.drillRunId);
  return ref.firestore.runTransaction(async (transaction) => {
    const current = decodeRun(run.drillRunId, (await transaction.get(ref)).data());
    if (current?.lease?.holder !== holder || current.state !== "running") return false;
    transaction.update(ref, { ...progressOf(run), ...(releaseLease ? { lease: null } : {}) });
    return true;
  });
}

/** Ends the run and frees the organisation for the next drill. */
export async function finishRun(
  scope: Scope,
  run: StoredDrillRun,
  outcome: { state: "passed" } | { state: "failed"; failureReason: string },
  now: Date,
): Promise<void> {
  const ref = runs(scope).doc(run.drillRunId);
  const settings = settingsRef(scope);
  await ref.firestore.runTransaction(async (transaction) => {
    const current = decodeSettings((await transaction.get(settings)).data());
    const startedAt = run.startedAt ?? run.requestedAt;
    transaction.update(ref, {
      ...progressOf(run),
      state: outcome.state,
      failureReason: outcome.state === "failed" ? outcome.failureReason : null,
      finishedAt: now.toISOString(),
      durationMs: Math.max(0, now.getTime() - Date.parse(startedAt)),
      lease: null,
    });
    if (current.activeRunId === run.drillRunId) transaction.update(settings, { activeRunId: null });
  });
}

/** A page of runs, newest first, and how many there are. */
export async function listRuns(
  scope: Scope,
  page: number,
  pageSize: number,
): Promise<{ runs: StoredDrillRun[]; total: number }> {
  const [snapshot, count] = await Promise.all([
    runs(scope)
      .orderBy("requestedAt", "desc")
      .offset((page - 1) * pageSize)
      .limit(pageSize)
      .get(),
    runs(scope).count().get(),
  ]);
  return {
    runs: snapshot.docs.flatMap((doc) => decodeRun(doc.id, doc.data()) ?? []),
    total: count.data().count,
  };
}

const itemDocId = (seq: number) => String(seq).padStart(6, "0");

/** Writes drawn items (in one batch: a sample is at most a few hundred items). */
export async function writeItems(scope: Scope, drillRunId: string, drawn: StoredDrillItem[]): Promise<void> {
  const collection = items(scope, drillRunId);
  for (let start = 0; start < drawn.length; start += 400) {
    const batch = collection.firestore.batch();
    for (const item of drawn.slice(start, start + 400)) batch.set(collection.doc(itemDocId(item.seq)), item);
    await batch.commit();
  }
}

export async function readItem(
  scope: Scope,
  drillRunId: string,
  seq: number,
): Promise<StoredDrillItem | undefined> {
  return (await items(scope, drillRunId).doc(itemDocId(seq)).get()).data() as StoredDrillItem | undefined;
}

export async function updateItem(
  scope: Scope,
  drillRunId: string,
  seq: number,
  change: Partial<StoredDrillItem>,
): Promise<void> {
  await items(scope, drillRunId).doc(itemDocId(seq)).update(change);
}

/** Every item of a run, in drawing order. */
export async function listItems(scope: Scope, drillRunId: string): Promise<StoredDrillItem[]> {
  const snapshot = await items(scope, drillRunId).orderBy("seq").get();
  return snapshot.docs.map((doc) => doc.data() as StoredDrillItem);
}
