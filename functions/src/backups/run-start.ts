/**
 * Starting a pending backup run: the checks that may end it before it starts (backups stopped after a
 * graceful period, a resource that is gone or suspended at Google, no policy, storage over the plan's
 * maximum, a mailbox beyond the seats after their grace: docs/requirements.md#errors-and-messages
 * reasons), then its resource's last cursor, "backup started" in the audit log, and the items this run
 * fetches again first.
 */
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { serviceOfItemKind, type ServiceId } from "@alpvault/contracts/services";
import { appendAudit } from "../audit/service";
import { backupsAllowed } from "../billing/graceful";
import type { Scope } from "../lib/tenancy";
import type { Organization } from "../organizations/service";
import { activeMailboxes, storedBackupBytes } from "../resources/service";
import { beyondSeats } from "../billing/seats";
import { storageFull, storageMaximum } from "../billing/storage";
import { readRun, seedRun, type BackupResource } from "./repo";
import { readVerifyResource } from "./verify/repo";

/** An item a run fetches again before its listing (`refetch`: its stored objects were found damaged). */
export interface RetryItem {
  kind: ServiceId;
  itemKey: string;
  refetch?: boolean;
}

/** How a pending run's start went: refused with a reason, started by another delivery meanwhile, or started. */
export type PendingStart =
  | { kind: "refused"; reason: BackupFailureReason }
  | { kind: "taken-over" }
  | { kind: "started"; retry: RetryItem[] };

/**
 * Storage the organisation uses now against the most its plan allows; at the maximum, auto-add storage
 * may add packs (billing/storage.ts) before the backup is refused.
 */
async function storageRefused(scope: Scope, organization: Organization, now: Date): Promise<boolean> {
  const used = await storedBackupBytes(scope);
  if (used < storageMaximum(organization)) return false;
  return storageFull(scope, used, now);
}

/** Why a pending run cannot start, or undefined when it can. */
async function refusal(
  scope: Scope,
  organization: Organization,
  resource: BackupResource,
  now: Date,
): Promise<BackupFailureReason | undefined> {
  if (!backupsAllowed(organization, now)) return "backup-not-completed";
  if (resource.status !== "active" || !resource.policyId) return "backup-not-completed";
  if (await storageRefused(scope, organization, now)) return "storage-full";
  // A mailbox beyond the seats once their grace is over (counted again: seats bought meanwhile count).
  if (await beyondSeats(organization, resource.resourceId, () => activeMailboxes(scope), now)) {
    return "backup-not-completed";
  }
  return undefined;
}

/** The damaged items of the resource's last verification that wait to be fetched again. */
async function itemsToRefetch(scope: Scope, resourceId: string): Promise<RetryItem[]> {
  const integrity = (await readVerifyResource(scope, resourceId))?.integrity;
  return (integrity?.damaged ?? []).flatMap((item) => {
    const kind = serviceOfItemKind(item.kind);
    return item.refetch === "pending" && kind
      ? [{ kind, itemKey: item.itemKey, refetch: true as const }]
      : [];
  });
}

/**
 * Items the resource's last run could not back up, and items whose stored objects verification found
 * damaged (`refetch`): this run fetches them again first.
 */
async function retryItems(scope: Scope, resource: BackupResource): Promise<RetryItem[]> {
  const previous = resource.lastRunId ? await readRun(scope, resource.lastRunId) : undefined;
  const retry: RetryItem[] = (previous?.itemErrors ?? []).flatMap((error) => {
    const kind = serviceOfItemKind(error.kind);
    return kind ? [{ kind, itemKey: error.itemKey }] : [];
  });
  retry.push(...(await itemsToRefetch(scope, resource.resourceId)));
  return retry;
}

/** Starts a pending run (see the file's comment); `hasPolicy`: the resource's policy exists. */
export async function startPendingRun(
  scope: Scope,
  organization: Organization,
  resource: BackupResource,
  hasPolicy: boolean,
  runId: string,
  now: () => number,
): Promise<PendingStart> {
  const refused = await refusal(scope, organization, resource, new Date(now()));
  if (refused) return { kind: "refused", reason: refused };
  if (!hasPolicy) return { kind: "refused", reason: "backup-not-completed" };
  // Not pending any more: another delivery started it meanwhile.
  if (!(await seedRun(scope, runId, resource.backupCursor))) return { kind: "taken-over" };
  await appendAudit(scope, {
    operation: "backup.started",
    actor: SYSTEM_ACTOR,
    object: resource.email ?? resource.name,
    date: new Date(now()),
    key: `backup-started-${runId}`,
  });
  return { kind: "started", retry: await retryItems(scope, resource) };
}
