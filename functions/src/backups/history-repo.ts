/**
 * Backups over time, in the organisation's region database: a resource's runs newest first
 * (`backupRuns`, `resourceId` + `requestedAt` descending, then the document id), and the organisation's
 * activity per UTC day (`dailyActivity/{YYYY-MM-DD}`: runs ended by outcome, items and source bytes backed
 * up, and the protected storage per service as last recorded that day).
 *
 * A run is counted in its day once: the transaction that adds it leaves a marker under the day, so a
 * repeated delivery of an ended run adds nothing. The storage figure is the latest of the day: each record
 * carries when its figure was measured, and an older one never replaces a newer one.
 */
import { FieldPath, FieldValue } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../lib/tenancy";
import { decodeRun } from "./catalog/runs-repo";
import type { RunRecord } from "../engine/runner/catalog";

function runs(scope: Scope) {
  return organizationRef(scope).collection("backupRuns");
}

function days(scope: Scope) {
  return organizationRef(scope).collection("dailyActivity");
}

/** Where a page of a resource's runs starts: after this run (its request time and id). */
export interface RunsCursor {
  requestedAt: string;
  runId: string;
}

/** Up to `limit` runs of the resource, newest first, after `cursor`; runs never requested (none) are left out. */
export async function resourceRuns(
  scope: Scope,
  resourceId: string,
  limit: number,
  cursor: RunsCursor | undefined,
): Promise<RunRecord[]> {
  let query = runs(scope)
    .where("resourceId", "==", resourceId)
    .orderBy("requestedAt", "desc")
    .orderBy(FieldPath.documentId(), "desc");
  if (cursor) query = query.startAfter(cursor.requestedAt, cursor.runId);
  const snapshot = await query.limit(limit).get();
  return snapshot.docs.flatMap((doc) => decodeRun(doc) ?? []);
}

/** What one ended run adds to its day. */
export interface RunActivity {
  runId: string;
  /** YYYY-MM-DD (UTC) of its end. */
  day: string;
  outcome: "ok" | "partial" | "failed";
  items: number;
  bytes: number;
}

/**
 * Adds an ended run to its day, once: the day keeps a marker per run counted (`dailyActivity/{day}/runs/
 * {runId}`), read and written in the same transaction as the counters.
 */
export async function addRunToDay(scope: Scope, activity: RunActivity): Promise<void> {
  const db = organizationRef(scope).firestore;
  const dayRef = days(scope).doc(activity.day);
  const marker = dayRef.collection("runs").doc(activity.runId);
  await db.runTransaction(async (transaction) => {
    if ((await transaction.get(marker)).exists) return;
    transaction.set(
      dayRef,
      {
        date: activity.day,
        runs: { [activity.outcome]: FieldValue.increment(1) },
        items: FieldValue.increment(activity.items),
        bytes: FieldValue.increment(activity.bytes),
      },
      { merge: true },
    );
    transaction.create(marker, { outcome: activity.outcome });
  });
}

/** Records the day's storage figure, measured at `measuredAt`, unless a later one is there already. */
export async function recordDayStorage(
  scope: Scope,
  day: string,
  storage: { gmail: number; drive: number },
  measuredAt: string,
): Promise<void> {
  const db = organizationRef(scope).firestore;
  await db.runTransaction(async (transaction) => {
    const ref = days(scope).doc(day);
    const current = await transaction.get(ref);
    const recorded = current.get("storageAt") as unknown;
    if (typeof recorded === "string" && recorded > measuredAt) return;
    transaction.set(ref, { date: day, storage, storageAt: measuredAt }, { merge: true });
  });
}

/** A day document as stored (anything malformed reads as zero or absent). */
export interface StoredDay {
  date: string;
  runs: { ok: number; partial: number; failed: number };
  items: number;
  bytes: number;
  storage: { gmail: number; drive: number } | null;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function decodeDay(id: string, data: Record<string, unknown>): StoredDay {
  const runsOf = (data.runs ?? {}) as Record<string, unknown>;
  const storage = data.storage as Record<string, unknown> | undefined;
  return {
    date: id,
    runs: { ok: count(runsOf.ok), partial: count(runsOf.partial), failed: count(runsOf.failed) },
    items: count(data.items),
    bytes: count(data.bytes),
    storage:
      storage && typeof storage === "object"
        ? { gmail: count(storage.gmail), drive: count(storage.drive) }
        : null,
  };
}

/**
 * The days from `first` to `last` (YYYY-MM-DD) that have a record, oldest first, and the last day before
 * `first` that recorded storage (to carry its figure forward): one range query on the ids, one query for
 * the day before.
 */
export async function readDays(
  scope: Scope,
  first: string,
  last: string,
): Promise<{ days: StoredDay[]; storageBefore: StoredDay["storage"] }> {
  const byId = FieldPath.documentId();
  const [range, before] = await Promise.all([
    days(scope).where(byId, ">=", first).where(byId, "<=", last).orderBy(byId).get(),
    days(scope).where(byId, "<", first).orderBy(byId, "desc").limit(1).get(),
  ]);
  const previous = before.docs[0];
  return {
    days: range.docs.map((doc) => decodeDay(doc.id, doc.data())),
    storageBefore: previous ? decodeDay(previous.id, previous.data()).storage : null,
  };
}
