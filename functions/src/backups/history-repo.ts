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
import type { ServiceId } from "@alpvault/contracts/services";
import { organizationRef, type Scope } from "../lib/tenancy";
import { decodeDocument, readableDocument, readableDocuments } from "../lib/stored";
import type { RunRecord } from "../engine/runner/catalog";
import { BACKUP_RUN } from "./catalog/run-documents";
import { DAILY_ACTIVITY, type StoredDay } from "./documents";

export type { StoredDay };

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

/**
 * Up to `limit` runs of the resource, newest first, after `cursor`; runs never requested (none) are left
 * out, and so is a run that does not decode (logged).
 */
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
  return readableDocuments(BACKUP_RUN, snapshot.docs);
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
  storage: Record<ServiceId, number>,
  measuredAt: string,
): Promise<void> {
  const db = organizationRef(scope).firestore;
  await db.runTransaction(async (transaction) => {
    const ref = days(scope).doc(day);
    const recorded = decodeDocument(DAILY_ACTIVITY, await transaction.get(ref))?.storageAt;
    if (recorded !== undefined && recorded > measuredAt) return;
    transaction.set(ref, { date: day, storage, storageAt: measuredAt }, { merge: true });
  });
}

/**
 * The days from `first` to `last` (YYYY-MM-DD) that have a record, oldest first, and the last day before
 * `first` that recorded storage (to carry its figure forward): one range query on the ids, one query for
 * the day before. A day that does not decode is left out (logged).
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
    days: readableDocuments(DAILY_ACTIVITY, range.docs),
    storageBefore: (previous && readableDocument(DAILY_ACTIVITY, previous)?.storage) ?? null,
  };
}
