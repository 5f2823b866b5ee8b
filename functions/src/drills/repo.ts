/**
 * Restore drills of one organisation in its region database: `organizations/{id}/meta/drills` (the
 * settings, the next scheduled drill and the active run: one drill at a time), `…/drillRuns/{runId}` (a
 * run: state, counts, per-resource results, the position reached, a lease) and
 * `…/drillRuns/{runId}/items/{seq}` (each drawn item and its outcome, in drawing order).
 */
import type { DocumentSnapshot, Transaction } from "firebase-admin/firestore";
import type { DrillCounts } from "@alpvault/contracts/drills";
import { leaseRun } from "../lib/run-lease";
import { decodeDocument, decodeDocuments, readableDocuments } from "../lib/stored";
import { organizationRef, type Scope } from "../lib/tenancy";
import {
  DRILL_ITEM,
  DRILL_RUN,
  DRILL_SETTINGS,
  SETTINGS_DEFAULTS,
  type DrillPosition,
  type StoredDrillItem,
  type StoredDrillRun,
  type StoredDrillSettings,
} from "./documents";

export type { DrillPosition, StoredDrillItem, StoredDrillRun, StoredDrillSettings };

/** The settings the document holds, or the defaults before any was saved. */
const settingsOf = (snapshot: DocumentSnapshot): StoredDrillSettings =>
  decodeDocument(DRILL_SETTINGS, snapshot) ?? { ...SETTINGS_DEFAULTS };

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

export async function readSettings(scope: Scope): Promise<StoredDrillSettings> {
  return settingsOf(await settingsRef(scope).get());
}

/** The settings as read in `transaction` (a change reads them before writing them back). */
export async function readSettingsIn(transaction: Transaction, scope: Scope): Promise<StoredDrillSettings> {
  return settingsOf(await transaction.get(settingsRef(scope)));
}

export function writeSettings(transaction: Transaction, scope: Scope, settings: StoredDrillSettings): void {
  transaction.set(settingsRef(scope), settings);
}

export async function readRun(scope: Scope, drillRunId: string): Promise<StoredDrillRun | undefined> {
  return decodeDocument(DRILL_RUN, await runs(scope).doc(drillRunId).get());
}

async function activeRun(
  transaction: Transaction,
  scope: Scope,
  settings: StoredDrillSettings,
): Promise<StoredDrillRun | undefined> {
  if (!settings.activeRunId) return undefined;
  const run = decodeDocument(DRILL_RUN, await transaction.get(runs(scope).doc(settings.activeRunId)));
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
    const settings = settingsOf(await transaction.get(ref));
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
      decode: (snapshot) => decodeDocument(DRILL_RUN, snapshot),
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
    const current = decodeDocument(DRILL_RUN, await transaction.get(ref));
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
    const current = settingsOf(await transaction.get(settings));
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

/** A page of runs, newest first, and how many there are (a run that does not decode is left out, logged). */
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
    runs: readableDocuments(DRILL_RUN, snapshot.docs),
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
  return decodeDocument(DRILL_ITEM, await items(scope, drillRunId).doc(itemDocId(seq)).get());
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
  return decodeDocuments(DRILL_ITEM, snapshot.docs);
}
