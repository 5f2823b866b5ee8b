/**
 * Starting backups: "Backup now" (API), runs queued by a policy assignment, and the dispatcher's due and
 * stranded runs. A run is written first (one active run per resource), then its task is enqueued; should
 * the enqueue fail, the dispatcher finds the run pending and enqueues it again, so a request is never lost.
 */
import { BACKUP_MESSAGES, type ActiveBackup, type BackupNowResponse } from "@alpvault/contracts/backups";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { backupsAllowed } from "../billing/graceful";
import { DomainError } from "../lib/errors";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import type { Organization } from "../organizations/service";
import { DEFAULT_POLICY_ID } from "@alpvault/contracts/policies";
import { ensureDefaultPolicy, storedPolicies } from "../policies/service";
import { nextBackupAt } from "../policies/schedule";
import { backupProgress, quotaOutlook, spentToday } from "./eta";
import { enqueueBackup, enqueueGc, type EnqueueBackup } from "./queue";
import { gcDue } from "./retention/schedule";
import * as catalog from "./catalog/repo";
import * as labels from "./catalog/labels-repo";
import * as folders from "./catalog/folders-repo";
import type { CatalogItem, ItemKind } from "../engine/runner/catalog";

export type HeldTotals = catalog.HeldTotals;

/** Named items read per page for a choice's totals. */
const TOTALS_PAGE = 100;
import {
  activeRuns,
  dueResources,
  readBackupResource as readResource,
  requestRun,
  setNextBackupAt,
  strandedRuns,
  type BackupResource,
} from "./repo";

/** Enqueues a run's task. Its first task is named after the run, so asking twice enqueues once. */
export async function dispatchRun(
  scope: Scope,
  run: { runId: string; resourceId: string },
  enqueue: EnqueueBackup = enqueueBackup,
  taskId: string = run.runId,
): Promise<boolean> {
  try {
    await enqueue(
      scope.regionId,
      { organizationId: scope.organizationId, resourceId: run.resourceId, runId: run.runId },
      { id: taskId },
    );
    return true;
  } catch (error) {
    // The run stays pending: the dispatcher enqueues it again.
    logs.backupDispatchFailed({ organizationId: scope.organizationId, error });
    return false;
  }
}

/** "Backup now": the resource's active run, or a new one enqueued at once. */
export async function backupNow(
  organization: Organization,
  resourceId: string,
  actor: string,
  now = new Date(),
  enqueue: EnqueueBackup = enqueueBackup,
): Promise<BackupNowResponse> {
  const resource = await readResource(organization, resourceId);
  if (!resource) throw DomainError.notFound(BACKUP_MESSAGES.resourceNotFound);
  if (!resource.policyId) throw DomainError.conflict(BACKUP_MESSAGES.noPolicy);
  if (resource.status !== "active") throw DomainError.conflict(BACKUP_MESSAGES.unavailable);
  if (!backupsAllowed(organization, now)) throw DomainError.conflict(BACKUP_MESSAGES.backupsStopped);
  const run = await requestRun(organization, resourceId, "backup-now", actor, now);
  if (run.created) await dispatchRun(organization, { runId: run.runId, resourceId }, enqueue);
  return run;
}

/**
 * The active backups of an organisation by resource (the resources list's progress), with their totals,
 * pace and time left. `recoveryTargets`: the resources recoveries are restoring into now (they share the
 * user's quota with a backup of the same resource, and the project's with every run).
 */
export async function activeBackups(
  scope: Scope,
  options: { recoveryTargets?: readonly string[]; now?: Date } = {},
): Promise<Map<string, ActiveBackup>> {
  const byResource = new Map<string, ActiveBackup>();
  const now = options.now ?? new Date();
  const targets = options.recoveryTargets ?? [];
  const runs = await activeRuns(scope);
  const running = runs.filter((run) => run.state === "running").length;
  const outlook = running > 0 ? { ...quotaOutlook(), spent: spentToday(now) } : undefined;
  for (const run of runs) {
    // The live progress runs ahead of the recorded one within a batch.
    const progress = {
      items: Math.max(run.progress.items, run.liveProgress?.items ?? 0),
      bytes: Math.max(run.progress.bytes, run.liveProgress?.bytes ?? 0),
      storedBytes: Math.max(run.progress.storedBytes, run.liveProgress?.storedBytes ?? 0),
    };
    const shared = {
      user: 1 + targets.filter((target) => target === run.resourceId).length,
      project: Math.max(1, running + targets.length),
      backups: Math.max(1, running),
    };
    byResource.set(run.resourceId, {
      runId: run.runId,
      state: run.state === "running" ? "running" : "pending",
      items: progress.items,
      bytes: progress.bytes,
      startedAt: run.startedAt ?? null,
      ...(outlook
        ? await backupProgress(run, progress, shared, outlook, now)
        : { totalItems: null, totalBytes: null, itemsPerMinute: null, etaSeconds: null, limit: null }),
    });
  }
  return byResource;
}

/** The organisation's active backups' resources (the runs a recovery's estimate shares its limits with). */
export async function activeBackupResources(scope: Scope): Promise<string[]> {
  return (await activeRuns(scope)).filter((run) => run.state === "running").map((run) => run.resourceId);
}

/**
 * The dispatcher's backup part for one organisation: a run for every resource whose scheduled backup is
 * due (its next one moved to the policy's next slot), and stranded runs enqueued again. Nothing while
 * backups are stopped.
 */
export async function dispatchOrganization(
  organization: Organization,
  now: Date,
  enqueue: EnqueueBackup = enqueueBackup,
): Promise<{ scheduled: number; redispatched: number }> {
  if (!backupsAllowed(organization, now)) return { scheduled: 0, redispatched: 0 };
  const due = await dueResources(organization, now);
  if (due.some((resource) => resource.policyId === DEFAULT_POLICY_ID)) {
    await ensureDefaultPolicy(organization, now);
  }
  const policies = await storedPolicies(organization);
  const timing = new Map(policies.map((policy) => [policy.policyId, policy]));
  let scheduled = 0;
  for (const resource of due) {
    const policy = resource.policyId ? timing.get(resource.policyId) : undefined;
    const run = await requestRun(organization, resource.resourceId, "schedule", SYSTEM_ACTOR, now);
    if (
      run.created &&
      (await dispatchRun(organization, { runId: run.runId, resourceId: resource.resourceId }, enqueue))
    ) {
      scheduled += 1;
    }
    await setNextBackupAt(
      organization,
      resource.resourceId,
      policy ? (nextBackupAt(policy, now)?.toISOString() ?? null) : null,
    );
  }
  // Retention and garbage collection, once a day per organisation.
  if (await gcDue(organization, now)) {
    await enqueueGc(
      organization.regionId,
      { organizationId: organization.organizationId },
      now.toISOString().slice(0, 10),
    ).catch((error: unknown) =>
      logs.backupDispatchFailed({ organizationId: organization.organizationId, error }),
    );
  }
  let redispatched = 0;
  const minute = now.toISOString().slice(0, 16).replace(/\D/g, "");
  for (const run of await strandedRuns(organization, now)) {
    if (await dispatchRun(organization, run, enqueue, `${run.runId}-r${minute}`)) redispatched += 1;
  }
  return { scheduled, redispatched };
}

/** The resource as its backups see it (type, identity, status), if it is a backed-up resource. */
export function readBackupResource(scope: Scope, resourceId: string): Promise<BackupResource | undefined> {
  return readResource(scope, resourceId);
}

/** Reading the backup catalog: the items of a resource, their versions at a date, the mail labels. */
export function itemsAfter(
  ...args: Parameters<typeof catalog.itemsAfter>
): ReturnType<typeof catalog.itemsAfter> {
  return catalog.itemsAfter(...args);
}

export function itemsByKey(
  ...args: Parameters<typeof catalog.itemsByKey>
): ReturnType<typeof catalog.itemsByKey> {
  return catalog.itemsByKey(...args);
}

/** A drive folder's sub-folders held in catalog format v2 (backups/catalog/folders-repo.ts). */
export function heldSubFolders(
  ...args: Parameters<typeof folders.heldSubFolders>
): ReturnType<typeof folders.heldSubFolders> {
  return folders.heldSubFolders(...args);
}

export function itemAsOf(...args: Parameters<typeof catalog.itemAsOf>): ReturnType<typeof catalog.itemAsOf> {
  return catalog.itemAsOf(...args);
}

/**
 * An item as a recovery or an export takes it: of the kind it restores or exports, at its version of `asOf`
 * when it has a date (undefined: not in the backups then). Their walks and their totals use it alike.
 */
export async function heldItem(
  scope: Scope,
  choice: { resourceId: string; kind: ItemKind; asOf: string | null },
  found: CatalogItem | undefined,
): Promise<CatalogItem | undefined> {
  if (!found || found.kind !== choice.kind) return undefined;
  return choice.asOf ? catalog.itemAsOf(scope, choice.resourceId, found, choice.asOf) : found;
}

/**
 * What a recovery or an export of these items (without ids: the whole resource) takes at `asOf`: the items
 * held, their sizes, and how many were kept without content. Named items are read (at most 1,000, a page at
 * a time); a whole resource is counted and summed by aggregation.
 */
export async function chosenTotals(
  scope: Scope,
  choice: { resourceId: string; kind: ItemKind; itemIds: readonly string[] | null; asOf: string | null },
): Promise<HeldTotals> {
  const { resourceId, itemIds } = choice;
  if (!itemIds) return catalog.heldTotals(scope, resourceId, choice.kind, choice.asOf);
  const totals: HeldTotals = { items: 0, bytes: 0, contentless: 0 };
  for (let start = 0; start < itemIds.length; start += TOTALS_PAGE) {
    const page = await catalog.itemsByKey(scope, resourceId, itemIds.slice(start, start + TOTALS_PAGE));
    for (const found of page) {
      const item = await heldItem(scope, choice, found);
      if (!item) continue;
      totals.items += 1;
      totals.bytes += item.current.size;
      if (item.current.metadata.contentSkipped) totals.contentless += 1;
    }
  }
  return totals;
}

export function versionAt(
  ...args: Parameters<typeof catalog.versionAt>
): ReturnType<typeof catalog.versionAt> {
  return catalog.versionAt(...args);
}

export function mailLabelNames(
  ...args: Parameters<typeof labels.mailLabelNames>
): ReturnType<typeof labels.mailLabelNames> {
  return labels.mailLabelNames(...args);
}
