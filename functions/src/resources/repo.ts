/**
 * Resources (mailboxes and shared drives), alerts and usage figures of one organisation, in its region's
 * database under `organizations/{organizationId}/...`.
 */
import type { Transaction } from "firebase-admin/firestore";
import type {
  Alert,
  Resource,
  ResourceDetail,
  ResourceType,
  SyncedMailbox,
} from "@alpvault/contracts/organizations";
import { organizationRef, type Scope } from "../lib/tenancy";
import { bulkWrites } from "../lib/bulk-writes";
import { decodeDocument, readableDocument, readableDocuments } from "../lib/stored";
import { ALERT, RESOURCE, SYNC, USAGE, type StoredResource } from "./documents";

export type { Scope };

/** The answer's resource of a stored one (its active backup is the backups module's to add). */
function resourceOf(stored: StoredResource): Resource {
  const lastRun = stored.lastRun;
  return {
    resourceId: stored.resourceId,
    type: stored.type,
    name: stored.name,
    email: stored.email,
    status: stored.status,
    policyId: stored.policyId,
    policyName: stored.policyName,
    protected: stored.protected,
    lastBackupAt: stored.lastBackupAt,
    nextBackupAt: stored.nextBackupAt,
    mailBackupBytes: stored.mailBackupBytes,
    driveBackupBytes: stored.driveBackupBytes,
    calendarBackupBytes: stored.calendarBackupBytes,
    contactsBackupBytes: stored.contactsBackupBytes,
    activeBackup: null,
    lastBackupFailure: lastRun?.state === "failed" ? (lastRun.failureReason ?? "unknown-error") : null,
    services: stored.services,
    lastVerifiedAt: stored.lastVerifiedAt,
    integrity: stored.integrity,
  };
}

/** Which of `resourceIds` are resources of the organisation, read in `transaction` (in the order given). */
export async function existingResourceIds(
  transaction: Transaction,
  scope: Scope,
  resourceIds: readonly string[],
): Promise<string[]> {
  const collection = organizationRef(scope).collection("resources");
  const snapshots = await transaction.getAll(...resourceIds.map((id) => collection.doc(id)));
  return snapshots.flatMap((snapshot) => (readableDocument(RESOURCE, snapshot) ? [snapshot.id] : []));
}

/** The resources whose `field` equals one of `values` (at most 30), decoded. */
export async function resourcesWhere(
  scope: Scope,
  field: "email" | "name",
  values: string[],
): Promise<Resource[]> {
  const snapshot = await organizationRef(scope).collection("resources").where(field, "in", values).get();
  return readableDocuments(RESOURCE, snapshot.docs).map(resourceOf);
}

/** One resource with its current item counts, or undefined when the organisation has none of that id. */
export async function readResourceDetail(
  scope: Scope,
  resourceId: string,
): Promise<ResourceDetail | undefined> {
  const snapshot = await organizationRef(scope).collection("resources").doc(resourceId).get();
  const stored = decodeDocument(RESOURCE, snapshot);
  return stored && { ...resourceOf(stored), mailItems: stored.mailItems, driveItems: stored.driveItems };
}

export async function listResources(scope: Scope): Promise<Resource[]> {
  const snapshot = await organizationRef(scope).collection("resources").get();
  return readableDocuments(RESOURCE, snapshot.docs).map(resourceOf);
}

/** What a directory sync found for one resource: its identity and state, nothing backup-related. */
export interface DiscoveredResource {
  resourceId: string;
  type: ResourceType;
  name: string;
  email: string | null;
  status: Resource["status"];
}

/**
 * Applies a sync: new resources are added unprotected, known ones get their name and state refreshed
 * (their policy and backup figures are kept), vanished mailboxes are marked deleted (their backups are
 * kept: deletion at Google is exactly what customers need us for), vanished shared drives likewise. A
 * resource document that does not decode is left as it is (logged); the others are synced.
 */
export async function applySync(
  scope: Scope,
  discovered: DiscoveredResource[],
  at: string,
): Promise<{ added: number; removed: number; mailboxes: SyncedMailbox[] }> {
  const ref = organizationRef(scope);
  const db = ref.firestore;
  const existing = readableDocuments(RESOURCE, (await ref.collection("resources").get()).docs);
  const known = new Map(existing.map((resource) => [resource.resourceId, resource.status]));
  const discoveredAt = new Map(existing.map((resource) => [resource.resourceId, resource.discoveredAt]));
  // The active mailboxes with when each was first discovered: who is beyond the seats.
  const mailboxes: SyncedMailbox[] = discovered
    .filter((resource) => resource.type === "email" && resource.status === "active")
    .map((resource) => {
      const first = discoveredAt.get(resource.resourceId);
      return {
        resourceId: resource.resourceId,
        email: resource.email,
        discoveredAt: first ?? at,
      };
    });
  const seen = new Set<string>();
  let added = 0;
  let removed = 0;
  const writer = bulkWrites(db);
  for (const resource of discovered) {
    seen.add(resource.resourceId);
    const doc = ref.collection("resources").doc(resource.resourceId);
    if (!known.has(resource.resourceId)) {
      added += 1;
      // A sync running at the same time (the dispatcher's, and the admin's) may create it first: then
      // it is that sync's addition, and this one leaves it as it wrote it.
      const createdMeanwhile = () => (added -= 1);
      writer.create(
        doc,
        {
          ...resource,
          policyId: null,
          policyName: null,
          protected: false,
          lastBackupAt: null,
          nextBackupAt: null,
          mailBackupBytes: 0,
          driveBackupBytes: 0,
          calendarBackupBytes: 0,
          contactsBackupBytes: 0,
          discoveredAt: at,
        },
        createdMeanwhile,
      );
    } else {
      writer.update(doc, {
        name: resource.name,
        email: resource.email,
        status: resource.status,
        syncedAt: at,
      });
    }
  }
  for (const [id, status] of known) {
    if (!seen.has(id) && status !== "deleted") {
      removed += 1;
      writer.update(ref.collection("resources").doc(id), { status: "deleted", syncedAt: at });
    }
  }
  writer.set(ref.collection("meta").doc("sync"), { lastSyncAt: at }, { merge: true });
  await writer.close();
  return { added, removed, mailboxes };
}

export async function usageCounts(
  scope: Scope,
): Promise<{ emails: number; files: number; lastCycleBytes: number }> {
  const usage = decodeDocument(USAGE, await organizationRef(scope).collection("meta").doc("usage").get());
  return usage ?? { emails: 0, files: 0, lastCycleBytes: 0 };
}

export async function addAlert(scope: Scope, alert: Omit<Alert, "alertId">): Promise<void> {
  await organizationRef(scope).collection("alerts").add(alert);
}

/** An alert written in another change's transaction (it is raised only if that change commits). */
export function addAlertIn(transaction: Transaction, scope: Scope, alert: Omit<Alert, "alertId">): void {
  transaction.create(organizationRef(scope).collection("alerts").doc(), alert);
}

/** An alert under a fixed id: writing it again (a repeated task delivery) raises it once. */
export async function putAlert(scope: Scope, alertId: string, alert: Omit<Alert, "alertId">): Promise<void> {
  await organizationRef(scope).collection("alerts").doc(alertId).set(alert);
}

export async function listAlerts(scope: Scope, limit: number): Promise<Alert[]> {
  const snapshot = await organizationRef(scope)
    .collection("alerts")
    .orderBy("createdAt", "desc")
    .limit(limit)
    .get();
  return readableDocuments(ALERT, snapshot.docs);
}

export async function countUnreadAlerts(scope: Scope): Promise<number> {
  const snapshot = await organizationRef(scope).collection("alerts").where("read", "==", false).count().get();
  return snapshot.data().count;
}

export async function markAllAlertsRead(scope: Scope): Promise<number> {
  const ref = organizationRef(scope);
  const unread = await ref.collection("alerts").where("read", "==", false).get();
  const writer = bulkWrites(ref.firestore);
  for (const doc of unread.docs) writer.update(doc.ref, { read: true });
  await writer.close();
  return unread.size;
}

export async function lastSyncAt(scope: Scope): Promise<string | null> {
  const sync = decodeDocument(SYNC, await organizationRef(scope).collection("meta").doc("sync").get());
  return sync?.lastSyncAt ?? null;
}
