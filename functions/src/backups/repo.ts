/**
 * Backup runs as the product sees them (docs/backup-format.md §5), beside the runner's own calls
 * (`runner/repo.ts`): requesting a run, preparing it for its first worker, ending runs that cannot start,
 * the resource's backup status and the organisation's totals; and the organisation's data key records
 * (`organizations/{id}/dataKeys/{dataKeyId}`). All in the organisation's region database.
 *
 * A resource has at most one active run (pending or running): asking again returns that one. The
 * resource document keeps `backupCursor`, the cursor the last run ended with, which seeds the next run.
 */
import { AggregateField, FieldValue, type DocumentReference } from "firebase-admin/firestore";
import { BACKED_UP_SERVICES, type BackupFailureReason } from "@alpvault/contracts/backups";
import { organizationRef, type Scope, type Transaction } from "../lib/tenancy";
import { decodeDocument, decodeDocuments, decodeQueried, readableDocuments } from "../lib/stored";
import type { RunRecord } from "../engine/runner/catalog";
import type { DataKeyRecord } from "../engine/format/keys";
import { SERVICE_BACKUP_BYTES_FIELDS } from "@alpvault/contracts/organizations";
import { RESOURCE, SERVICE_ITEMS_FIELDS } from "../resources/documents";
import { BACKUP_RUN, type BackupRun } from "./catalog/run-documents";
import { CATALOG_FORMAT, DATA_KEY } from "./documents";
import { SERVICES, SERVICE_IDS, type ServiceItemKind } from "@alpvault/contracts/services";

export type RunTrigger = NonNullable<RunRecord["trigger"]>;
export type { BackupRun };

function runs(scope: Scope) {
  return organizationRef(scope).collection("backupRuns");
}

function resourceRef(scope: Scope, resourceId: string): DocumentReference {
  return organizationRef(scope).collection("resources").doc(resourceId);
}

/** How long a pending run may wait for its task before the dispatcher enqueues it again. */
export const PENDING_REDISPATCH_MS = 10 * 60_000;

/**
 * The resource's active run, or a new pending one: `created` says which. One transaction, so two requests
 * at once make one run.
 */
export async function requestRun(
  scope: Scope,
  resourceId: string,
  trigger: RunTrigger,
  requestedBy: string,
  now: Date,
): Promise<{ runId: string; created: boolean; state: "pending" | "running" }> {
  const db = organizationRef(scope).firestore;
  return db.runTransaction(async (transaction) => {
    const active = await transaction.get(
      runs(scope).where("resourceId", "==", resourceId).where("state", "in", ["pending", "running"]).limit(1),
    );
    const existing = active.docs[0];
    if (existing) {
      const state = decodeQueried(BACKUP_RUN, existing).state === "running" ? "running" : "pending";
      return { runId: existing.id, created: false, state };
    }
    const resource = decodeDocument(RESOURCE, await transaction.get(resourceRef(scope, resourceId)));
    const ref = runs(scope).doc();
    transaction.create(ref, {
      resourceId,
      policyId: resource?.policyId ?? null,
      trigger,
      state: "pending",
      requestedAt: now.toISOString(),
      requestedBy,
    });
    return { runId: ref.id, created: true, state: "pending" as const };
  });
}

export async function readRun(scope: Scope, runId: string): Promise<BackupRun | undefined> {
  return decodeDocument(BACKUP_RUN, await runs(scope).doc(runId).get());
}

/**
 * Records when a run paced by the daily budget goes on (the dispatcher leaves it alone until then) and
 * when the delivery that paced it ran.
 */
export async function setRunResumesAt(
  scope: Scope,
  runId: string,
  times: { resumesAt: string; pacedAt: string },
): Promise<void> {
  await runs(scope).doc(runId).update(times);
}

/** What the worker needs of the resource it backs up. */
export interface BackupResource {
  resourceId: string;
  type: "email" | "shared_drive";
  name: string;
  email: string | null;
  status: "active" | "suspended" | "deleted";
  policyId: string | null;
  backupCursor: string | null;
  /** The resource's last ended run (its item errors are retried by the next run). */
  lastRunId: string | null;
}

export async function readBackupResource(
  scope: Scope,
  resourceId: string,
): Promise<BackupResource | undefined> {
  const resource = decodeDocument(RESOURCE, await resourceRef(scope, resourceId).get());
  return (
    resource && {
      resourceId: resource.resourceId,
      type: resource.type,
      name: resource.name,
      email: resource.email,
      status: resource.status,
      policyId: resource.policyId,
      backupCursor: resource.backupCursor,
      lastRunId: resource.lastRun?.runId ?? null,
    }
  );
}

/**
 * Gives a pending run the cursor its resource's last run ended with (once: a run that has a cursor field
 * keeps it). Returns false when the run is not pending any more.
 */
export async function seedRun(scope: Scope, runId: string, cursor: string | null): Promise<boolean> {
  const db = organizationRef(scope).firestore;
  return db.runTransaction(async (transaction) => {
    const ref = runs(scope).doc(runId);
    const snapshot = await transaction.get(ref);
    if (decodeDocument(BACKUP_RUN, snapshot)?.state !== "pending") return false;
    // The run's record reads a missing cursor as none: whether it was seeded is the field's presence.
    if (snapshot.get("cursor") === undefined) {
      transaction.update(ref, { cursor, progress: { items: 0, bytes: 0, storedBytes: 0 }, unitsUsed: 0 });
    }
    return true;
  });
}

/**
 * Ends a run no worker holds with a failure (the run could not start: backups stopped, the resource is
 * gone, its key cannot be used…). Returns false when the run is finished already or a live lease holds it.
 */
export async function failIdleRun(
  scope: Scope,
  runId: string,
  failureReason: BackupFailureReason,
  now: Date,
): Promise<boolean> {
  const db = organizationRef(scope).firestore;
  return db.runTransaction(async (transaction) => {
    const ref = runs(scope).doc(runId);
    const run = decodeDocument(BACKUP_RUN, await transaction.get(ref));
    if (!run || run.state === "succeeded" || run.state === "failed") return false;
    if (run.lease && Date.parse(run.lease.until) > now.getTime()) return false;
    transaction.update(ref, {
      state: "failed",
      failureReason,
      finishedAt: now.toISOString(),
      lease: null,
    });
    return true;
  });
}

/** Size and count of a resource's backed-up items of one kind (current versions, deleted ones included). */
async function itemTotals(
  scope: Scope,
  resourceId: string,
  kind: ServiceItemKind,
): Promise<{ bytes: number; count: number }> {
  const snapshot = await resourceRef(scope, resourceId)
    .collection("items")
    .where("kind", "==", kind)
    .aggregate({ bytes: AggregateField.sum("current.size"), count: AggregateField.count() })
    .get();
  const data = snapshot.data();
  return { bytes: Number(data.bytes ?? 0), count: Number(data.count ?? 0) };
}

/**
 * The resource's status after a run ended (idempotent: the same run recorded twice writes the same):
 * last run and its outcome, last successful backup, the cursor for the next run, and the backup sizes and
 * item counts from the catalog. Then the organisation's totals (`meta/usage` emails and files).
 */
export async function recordRunEnd(scope: Scope, run: BackupRun): Promise<void> {
  const serviceTotals = await Promise.all(
    SERVICE_IDS.map((service) => itemTotals(scope, run.resourceId, SERVICES[service].itemKind)),
  );
  const update: Record<string, unknown> = {
    backupCursor: run.cursor,
    lastRun: {
      runId: run.runId,
      state: run.state,
      failureReason: run.failureReason ?? null,
      finishedAt: run.finishedAt ?? null,
    },
  };
  // Each service's backup size and current items, in the resource's fields of that service.
  SERVICE_IDS.forEach((service, index) => {
    update[SERVICE_BACKUP_BYTES_FIELDS[service]] = serviceTotals[index]?.bytes ?? 0;
    update[SERVICE_ITEMS_FIELDS[service]] = serviceTotals[index]?.count ?? 0;
  });
  if (run.state === "succeeded" && run.finishedAt) update.lastBackupAt = run.finishedAt;
  // Each service the run reached: how it ended (a service the run failed before finishing ends with the
  // run's reason), what it skipped and what it points out. A service the run did not reach keeps its last
  // status.
  for (const service of BACKED_UP_SERVICES) {
    const outcome = run.services?.[service];
    if (!outcome) continue;
    const state = outcome.state ?? (run.state === "failed" ? "failed" : "succeeded");
    update[`services.${service}`] = {
      state,
      failureReason:
        state === "failed" ? (outcome.failureReason ?? run.failureReason ?? "unknown-error") : null,
      detail: outcome.detail ?? null,
      skipped: outcome.skipped,
      notes: outcome.notes ?? {},
      at: run.finishedAt ?? null,
    };
  }
  await resourceRef(scope, run.resourceId).update(update);
  // The organisation's totals by one aggregation over the resources' figures (no resource read).
  const totals = (
    await organizationRef(scope)
      .collection("resources")
      .aggregate({ emails: AggregateField.sum("mailItems"), files: AggregateField.sum("driveItems") })
      .get()
  ).data();
  const finite = (value: number) => (Number.isFinite(value) ? value : 0);
  await organizationRef(scope)
    .collection("meta")
    .doc("usage")
    .set(
      { emails: finite(totals.emails), files: finite(totals.files), updatedAt: FieldValue.serverTimestamp() },
      { merge: true },
    );
}

/** The organisation's active runs (pending or running), for the screens' progress. */
export async function activeRuns(scope: Scope): Promise<BackupRun[]> {
  const snapshot = await runs(scope).where("state", "in", ["pending", "running"]).get();
  return readableDocuments(BACKUP_RUN, snapshot.docs);
}

/**
 * Active runs whose task seems lost: pending for longer than `PENDING_REDISPATCH_MS`, or running with an
 * expired lease (its worker died). The dispatcher enqueues them again; the lease makes that safe. A run
 * paced by the daily budget waits for `resumesAt` with no task: the dispatcher enqueues it once that time
 * has passed, never before.
 */
export async function strandedRuns(scope: Scope, now: Date): Promise<BackupRun[]> {
  const leaseGone = (run: BackupRun) => !run.lease || Date.parse(run.lease.until) <= now.getTime();
  return (await activeRuns(scope)).filter((run) => {
    if (run.resumesAt) {
      return Date.parse(run.resumesAt) <= now.getTime() && (run.state === "pending" || leaseGone(run));
    }
    return run.state === "pending"
      ? Date.parse(run.requestedAt ?? "") <= now.getTime() - PENDING_REDISPATCH_MS
      : leaseGone(run);
  });
}

/** Protected resources whose next scheduled backup is due at `now`. */
export async function dueResources(
  scope: Scope,
  now: Date,
): Promise<{ resourceId: string; policyId: string | null }[]> {
  const snapshot = await organizationRef(scope)
    .collection("resources")
    .where("protected", "==", true)
    .where("nextBackupAt", "<=", now.toISOString())
    .get();
  return readableDocuments(RESOURCE, snapshot.docs).map(({ resourceId, policyId }) => ({
    resourceId,
    policyId,
  }));
}

/** Moves a resource's next scheduled backup (the dispatcher, after enqueueing the due one). */
export async function setNextBackupAt(scope: Scope, resourceId: string, next: string | null): Promise<void> {
  await resourceRef(scope, resourceId).update({ nextBackupAt: next });
}

/** The organisation's data key records (`backups/data-keys.ts` decides which one new data uses). */
function dataKeys(scope: Scope) {
  return organizationRef(scope).collection("dataKeys");
}

/** The active data key record made under the secret, if there is one. */
export async function activeDataKeyRecord(
  scope: Scope,
  secretId: string,
): Promise<DataKeyRecord | undefined> {
  const existing = await dataKeys(scope)
    .where("state", "==", "active")
    .where("secretId", "==", secretId)
    .limit(1)
    .get();
  return decodeDocuments(DATA_KEY, existing.docs)[0];
}

/**
 * Makes `record` the organisation's active data key and retires the others, unless an active record of the
 * same secret exists by now (another worker made one first): that one is answered instead. One transaction.
 */
export async function makeActiveDataKey(
  scope: Scope,
  record: DataKeyRecord,
  now: Date,
): Promise<DataKeyRecord> {
  return organizationRef(scope).firestore.runTransaction(async (transaction) => {
    const active = await transaction.get(dataKeys(scope).where("state", "==", "active"));
    const winner = decodeDocuments(DATA_KEY, active.docs).find((key) => key.secretId === record.secretId);
    if (winner) return winner;
    for (const doc of active.docs)
      transaction.update(doc.ref, { state: "retired", retiredAt: now.toISOString() });
    transaction.create(dataKeys(scope).doc(record.dataKeyId), record);
    return record;
  });
}

/** Every data key record of the organisation (restore and verification read any of them). */
export async function dataKeyRecords(scope: Scope): Promise<DataKeyRecord[]> {
  const snapshot = await dataKeys(scope).get();
  return decodeDocuments(DATA_KEY, snapshot.docs);
}

/** True when some data key was wrapped under the secret (so some backup depends on it), read in `transaction`. */
export async function dataKeyUsesSecret(
  transaction: Transaction,
  scope: Scope,
  secretId: string,
): Promise<boolean> {
  const snapshot = await transaction.get(dataKeys(scope).where("secretId", "==", secretId).limit(1));
  return !snapshot.empty;
}

/** The catalog format the organisation's new backups are written in (`meta/catalog`; version 1 when absent). */
export async function catalogFormat(scope: Scope): Promise<1 | 2> {
  const stored = decodeDocument(
    CATALOG_FORMAT,
    await organizationRef(scope).collection("meta").doc("catalog").get(),
  );
  return stored?.format ?? 1;
}
