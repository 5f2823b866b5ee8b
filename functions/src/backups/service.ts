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
import { enqueueBackup, enqueueGc, type EnqueueBackup } from "./queue";
import { gcDue } from "./retention/schedule";
import * as catalog from "./catalog/repo";
import * as labels from "./catalog/labels-repo";
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

/** The active backups of an organisation by resource (the resources list's progress). */
export async function activeBackups(scope: Scope): Promise<Map<string, ActiveBackup>> {
  const byResource = new Map<string, ActiveBackup>();
  for (const run of await activeRuns(scope)) {
    byResource.set(run.resourceId, {
      runId: run.runId,
      state: run.state === "running" ? "running" : "pending",
      // The live progress runs ahead of the recorded one within a batch.
      items: Math.max(run.progress.items, run.liveProgress?.items ?? 0),
      bytes: Math.max(run.progress.bytes, run.liveProgress?.bytes ?? 0),
      startedAt: run.startedAt ?? null,
    });
  }
  return byResource;
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

export function itemAsOf(...args: Parameters<typeof catalog.itemAsOf>): ReturnType<typeof catalog.itemAsOf> {
  return catalog.itemAsOf(...args);
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
