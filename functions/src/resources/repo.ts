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
import { BACKED_UP_SERVICES, BACKUP_FAILURE_REASONS } from "@alpvault/contracts/backups";
import { decodeResourceIntegrity } from "@alpvault/contracts/schemas/integrity";
import { organizationRef, type Scope } from "../lib/tenancy";
import { bulkWrites } from "../lib/bulk-writes";

export type { Scope };

const STATUSES: readonly string[] = ["active", "suspended", "deleted"];

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** The failure reason of the resource's last run, when it failed. */
function lastFailure(value: unknown): Resource["lastBackupFailure"] {
  if (typeof value !== "object" || value === null) return null;
  const run = value as Record<string, unknown>;
  if (run.state !== "failed") return null;
  const reason = run.failureReason;
  return typeof reason === "string" && reason in BACKUP_FAILURE_REASONS
    ? (reason as Resource["lastBackupFailure"])
    : "unknown-error";
}

/** Each service's status as the last backups left it (anything malformed left out). */
function decodeServiceStatuses(value: unknown): Resource["services"] {
  const out: Resource["services"] = {};
  if (typeof value !== "object" || value === null) return out;
  for (const service of BACKED_UP_SERVICES) {
    const raw = (value as Record<string, unknown>)[service];
    if (typeof raw !== "object" || raw === null) continue;
    const entry = raw as Record<string, unknown>;
    if (entry.state !== "succeeded" && entry.state !== "failed" && entry.state !== "unavailable") continue;
    const counts = (field: unknown): Record<string, number> => {
      const out: Record<string, number> = {};
      if (typeof field !== "object" || field === null) return out;
      for (const [reason, n] of Object.entries(field as Record<string, unknown>)) {
        if (count(n) > 0) out[reason] = count(n);
      }
      return out;
    };
    const skipped = counts(entry.skipped);
    const reason = entry.failureReason;
    out[service] = {
      state: entry.state,
      failureReason:
        typeof reason === "string" && reason in BACKUP_FAILURE_REASONS
          ? (reason as keyof typeof BACKUP_FAILURE_REASONS)
          : entry.state === "failed"
            ? "unknown-error"
            : null,
      detail: text(entry.detail),
      skipped,
      notes: counts(entry.notes),
      at: text(entry.at) ?? "",
    };
  }
  return out;
}

export function decodeResource(id: string, data: unknown): Resource | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const value = data as Record<string, unknown>;
  const type = value.type;
  if ((type !== "email" && type !== "shared_drive") || typeof value.name !== "string") return undefined;
  return {
    resourceId: id,
    type: type as ResourceType,
    name: value.name,
    email: text(value.email),
    status: STATUSES.includes(value.status as string) ? (value.status as Resource["status"]) : "active",
    policyId: text(value.policyId),
    policyName: text(value.policyName),
    protected: value.protected === true,
    lastBackupAt: text(value.lastBackupAt),
    nextBackupAt: text(value.nextBackupAt),
    mailBackupBytes: count(value.mailBackupBytes),
    driveBackupBytes: count(value.driveBackupBytes),
    activeBackup: null,
    lastBackupFailure: lastFailure(value.lastRun),
    services: decodeServiceStatuses(value.services),
    lastVerifiedAt: text(value.lastVerifiedAt),
    integrity: decodeResourceIntegrity(value.integrity) ?? null,
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
  return snapshots.flatMap((snapshot) =>
    snapshot.exists && decodeResource(snapshot.id, snapshot.data()) ? [snapshot.id] : [],
  );
}

/** The resources whose `field` equals one of `values` (at most 30), decoded. */
export async function resourcesWhere(
  scope: Scope,
  field: "email" | "name",
  values: string[],
): Promise<Resource[]> {
  const snapshot = await organizationRef(scope).collection("resources").where(field, "in", values).get();
  return snapshot.docs.flatMap((doc) => decodeResource(doc.id, doc.data()) ?? []);
}

/** One resource with its current item counts, or undefined when the organisation has none of that id. */
export async function readResourceDetail(
  scope: Scope,
  resourceId: string,
): Promise<ResourceDetail | undefined> {
  const snapshot = await organizationRef(scope).collection("resources").doc(resourceId).get();
  const resource = decodeResource(snapshot.id, snapshot.data());
  if (!resource) return undefined;
  return {
    ...resource,
    mailItems: count(snapshot.get("mailItems")),
    driveItems: count(snapshot.get("driveItems")),
  };
}

export async function listResources(scope: Scope): Promise<Resource[]> {
  const snapshot = await organizationRef(scope).collection("resources").get();
  return snapshot.docs.flatMap((doc) => decodeResource(doc.id, doc.data()) ?? []);
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
 * kept: deletion at Google is exactly what customers need us for), vanished shared drives likewise.
 */
export async function applySync(
  scope: Scope,
  discovered: DiscoveredResource[],
  at: string,
): Promise<{ added: number; removed: number; mailboxes: SyncedMailbox[] }> {
  const ref = organizationRef(scope);
  const db = ref.firestore;
  const existing = await ref.collection("resources").get();
  const known = new Map(existing.docs.map((doc) => [doc.id, doc.get("status") as unknown]));
  const discoveredAt = new Map(existing.docs.map((doc) => [doc.id, doc.get("discoveredAt") as unknown]));
  // The active mailboxes with when each was first discovered: who is beyond the seats.
  const mailboxes: SyncedMailbox[] = discovered
    .filter((resource) => resource.type === "email" && resource.status === "active")
    .map((resource) => {
      const first = discoveredAt.get(resource.resourceId);
      return {
        resourceId: resource.resourceId,
        email: resource.email,
        discoveredAt: typeof first === "string" ? first : at,
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
  const snapshot = await organizationRef(scope).collection("meta").doc("usage").get();
  return {
    emails: count(snapshot.get("emails")),
    files: count(snapshot.get("files")),
    lastCycleBytes: count(snapshot.get("lastCycleBytes")),
  };
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

function decodeAlert(id: string, data: Record<string, unknown>): Alert | undefined {
  const kinds: readonly string[] = [
    "resources-added",
    "resources-removed",
    "backup-failed",
    "integrity-damaged",
    "storage",
    "billing",
    "drill-failed",
  ];
  if (
    typeof data.createdAt !== "string" ||
    typeof data.message !== "string" ||
    !kinds.includes(data.kind as string)
  ) {
    return undefined;
  }
  return {
    alertId: id,
    createdAt: data.createdAt,
    kind: data.kind as Alert["kind"],
    message: data.message,
    read: data.read === true,
  };
}

export async function listAlerts(scope: Scope, limit: number): Promise<Alert[]> {
  const snapshot = await organizationRef(scope)
    .collection("alerts")
    .orderBy("createdAt", "desc")
    .limit(limit)
    .get();
  return snapshot.docs.flatMap((doc) => decodeAlert(doc.id, doc.data()) ?? []);
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
  const value: unknown = (await organizationRef(scope).collection("meta").doc("sync").get()).get(
    "lastSyncAt",
  );
  return typeof value === "string" ? value : null;
}
