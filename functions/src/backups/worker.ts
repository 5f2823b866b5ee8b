/**
 * The backup worker: one `runBackup` task delivery runs (a stretch of) one backup run of one resource.
 *
 * 1. The run decides: a finished run is only recorded again (idempotent), so a duplicate or late delivery
 *    changes nothing. A missing organisation, run or resource drops the task.
 * 2. A pending run is checked before it starts: backups stopped after a graceful period, a resource that
 *    is gone or suspended at Google, no policy, or storage over the plan's maximum end it failed with its
 *    docs/requirements.md#errors-and-messages reason. Otherwise it gets its resource's last cursor and "backup started" is audited.
 * 3. The organisation's active data key (made under the default secret when there is none), the region's
 *    bucket, the resource's streams (Gmail and/or Drive per its policy; a shared drive is Drive only) with
 *    delegated clients, and `runBackup` with the function's deadline.
 * 4. "continue" re-enqueues the run; an ended run records the resource's status and totals, "backup
 *    finished/failed" in the audit log, and an alert on failure. A run whose lease another worker holds
 *    throws, so Cloud Tasks delivers it again later (by then it is finished, or its holder's lease expired
 *    and this worker takes over).
 */
import { randomUUID } from "node:crypto";
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import { BACKUP_FAILURE_REASONS } from "@alpvault/contracts/backups";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { PLANS, maximumStorageBytes } from "@alpvault/contracts/plans";
import type { DataType } from "@alpvault/contracts/policies";
import { appendAudit } from "../audit/service";
import { backupsAllowed } from "../billing/graceful";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn, seatsOf, type Organization } from "../organizations/service";
import type { RegionId } from "@alpvault/contracts/regions";
import { backupPolicy } from "../policies/service";
import { backupBytes, listResources, putAlert } from "../resources/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { activeDataKey, type KeyWrappers } from "./data-keys";
import type { GoogleCaller } from "../engine/google/caller";
import { meteredCaller } from "../engine/google/caller";
import type { QuotaModel } from "../engine/google/costs";
import { dailyBudget, deliveryShare, quotaDayOf, type PacedApi } from "../engine/google/daily-budget";
import type { EnqueueBackup } from "./queue";
import {
  failIdleRun,
  readBackupResource,
  readRun,
  recordRunEnd,
  seedRun,
  setRunResumesAt,
  type BackupResource,
  type BackupRun,
} from "./repo";
import type { BackupTask } from "./schema";
import { FirestoreCatalog } from "./catalog/repo";
import { readVerifyResource, refetchOutcomes, updateRefetchStates } from "./verify/repo";
import { failureReasonOf, runBackup, type RunBackupResult } from "../engine/runner/run-backup";
import type { DriveResource } from "../engine/drive/source";
import type { GmailSourceOptions } from "../engine/gmail/source";
import { NoAccessError, failingSource, type Source } from "../engine/sources/source";
import { ResourceSource } from "../engine/sources/resource-source";

/** Builds a resource's streams: Gmail for a mailbox, Drive for a mailbox's My Drive or a shared drive. */
export interface StreamFactory {
  /** `labelNames`: where the mailbox's label names are kept, so label renames are noticed. */
  gmail(
    user: string,
    caller: GoogleCaller,
    signal: AbortSignal,
    labelNames?: GmailSourceOptions["labelNames"],
  ): Source;
  drive(resource: DriveResource, caller: GoogleCaller, signal: AbortSignal): Source;
  /**
   * A member of the shared drive of `domain` to read it as (`findDriveMember`, asked as the organisation's
   * super admin `admin`), or undefined when it has none.
   */
  driveMember(
    drive: { driveId: string; admin: string; domain: string },
    caller: GoogleCaller,
    signal: AbortSignal,
  ): Promise<string | undefined>;
}

export interface WorkerDeps {
  /** The process's quota-aware caller (one per process: its buckets are the process's share). */
  caller: GoogleCaller;
  streams: StreamFactory;
  blobStore(regionId: Scope["regionId"]): BlobStore;
  wrappers: KeyWrappers;
  enqueue: EnqueueBackup;
  /** How long one delivery may work before it checkpoints and re-enqueues (ms). */
  budgetMs: number;
  /**
   * The project's daily Google budget (`google/daily-budget.ts`): each delivery spends at most its share
   * of what the pace leaves, and waits when there is none. Absent: no daily pacing.
   */
  dailyBudget?: DailyBudgetDeps;
  /** The region this worker runs in: tasks of another region's organisations are dropped. */
  servingRegion?: RegionId;
  now?: () => number;
}

export interface DailyBudgetDeps {
  model: QuotaModel;
  /** Runs the deployment's queues may run at once (`backupRunSlots`). */
  runSlots: number;
  /** What the project spent of an API on a quota day, and adding to it (every worker counts). */
  spent(api: PacedApi, day: string): Promise<number>;
  add(api: PacedApi, day: string, units: number): Promise<void>;
}

/**
 * What one delivery may spend per API with a daily threshold, or when it may start (the earliest time
 * every API it needs allows a share).
 */
async function dailyShares(
  budget: DailyBudgetDeps | undefined,
  apis: PacedApi[],
  instant: number,
): Promise<{ units: Partial<Record<PacedApi, number>>; waitUntil?: number }> {
  const units: Partial<Record<PacedApi, number>> = {};
  let waitUntil: number | undefined;
  if (!budget) return { units };
  const day = quotaDayOf(instant).day;
  for (const api of apis) {
    const total = dailyBudget(budget.model, api);
    if (total === undefined) continue;
    const used = await budget.spent(api, day);
    const share = deliveryShare({ budget: total, used, instant, runSlots: budget.runSlots });
    if ("units" in share) units[api] = share.units;
    else waitUntil = Math.max(waitUntil ?? 0, share.waitUntil);
  }
  return waitUntil === undefined ? { units } : { units, waitUntil };
}

export type WorkerOutcome =
  "dropped" | "recorded" | "continued" | "succeeded" | "failed" | "lease-held" | "lease-lost";

/** A run another worker holds: thrown so that Cloud Tasks delivers the task again later. */
export class RunLeasedError extends Error {
  constructor(runId: string) {
    super(`Backup run ${runId} is held by another worker; retry later`);
    this.name = "RunLeasedError";
  }
}

/** The data types a run backs up for a resource: a shared drive has only Drive. */
function streamsOf(resource: BackupResource, dataTypes: readonly DataType[]): ("gmail" | "drive")[] {
  const wanted: ("gmail" | "drive")[] = [];
  if (resource.type === "email" && dataTypes.includes("emails")) wanted.push("gmail");
  if (dataTypes.includes("drive")) wanted.push("drive");
  return wanted;
}

/** Storage the organisation uses now against the most its plan allows. */
async function storageFull(scope: Scope, organization: Organization): Promise<boolean> {
  const maximum = maximumStorageBytes(
    PLANS[organization.planId],
    seatsOf(organization),
    organization.storagePacks,
  );
  const used = (await listResources(scope)).reduce((sum, resource) => sum + backupBytes(resource), 0);
  return used >= maximum;
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
  if (await storageFull(scope, organization)) return "storage-full";
  return undefined;
}

/** Records an ended run: resource status and totals, the audit entry, an alert on failure. Idempotent. */
async function recordEnd(scope: Scope, run: BackupRun, resource: BackupResource | undefined): Promise<void> {
  await recordRunEnd(scope, run);
  await recordRefetches(scope, run.resourceId);
  const name = resource?.email ?? resource?.name ?? run.resourceId;
  const failed = run.state === "failed";
  const reason = run.failureReason ?? "unknown-error";
  await appendAudit(scope, {
    operation: failed ? "backup.failed" : "backup.finished",
    actor: SYSTEM_ACTOR,
    object: name,
    failureReason: failed ? BACKUP_FAILURE_REASONS[reason] : null,
    date: new Date(run.finishedAt ?? Date.now()),
    key: `backup-ended-${run.runId}`,
  });
  if (failed) {
    // Keyed by run, so a repeated delivery raises it once.
    await putAlert(scope, `backup-failed-${run.runId}`, {
      createdAt: run.finishedAt ?? new Date().toISOString(),
      kind: "backup-failed",
      message: `Backup of ${name} failed: ${BACKUP_FAILURE_REASONS[reason]}`,
      read: false,
    });
  }
}

/** The damaged items of the resource's last verification that wait to be fetched again. */
async function itemsToRefetch(
  scope: Scope,
  resourceId: string,
): Promise<{ kind: "gmail" | "drive"; itemKey: string; refetch: true }[]> {
  const integrity = (await readVerifyResource(scope, resourceId))?.integrity;
  return (integrity?.damaged ?? [])
    .filter((item) => item.refetch === "pending")
    .map((item) => ({
      kind: item.kind === "gmail-message" ? ("gmail" as const) : ("drive" as const),
      itemKey: item.itemKey,
      refetch: true as const,
    }));
}

/**
 * After a run, what became of the damaged items it was to fetch again: written again ("refetched"), or
 * gone at Google ("gone", it stays damaged); the others wait for the next run.
 */
async function recordRefetches(scope: Scope, resourceId: string): Promise<void> {
  const integrity = (await readVerifyResource(scope, resourceId))?.integrity;
  const pending = (integrity?.damaged ?? []).filter((item) => item.refetch === "pending");
  if (!integrity || pending.length === 0) return;
  const outcomes = await refetchOutcomes(
    scope,
    resourceId,
    pending.map((item) => item.itemKey),
    integrity.verifiedAt,
  );
  await updateRefetchStates(scope, resourceId, integrity.verifiedAt, outcomes);
}

function outcomeOf(result: RunBackupResult): WorkerOutcome {
  if (result.outcome === "skipped") {
    if (result.why === "leased") return "lease-held";
    if (result.why === "lease-lost") return "lease-lost";
    return "dropped";
  }
  return result.outcome === "continue" ? "continued" : result.outcome;
}

export async function executeBackupTask(task: BackupTask, deps: WorkerDeps): Promise<WorkerOutcome> {
  const now = deps.now ?? Date.now;
  const organization = await organizationServedIn(task.organizationId, deps.servingRegion);
  if (!organization) return "dropped";
  const scope: Scope = { organizationId: organization.organizationId, regionId: organization.regionId };
  let run = await readRun(scope, task.runId);
  if (!run || run.resourceId !== task.resourceId) return "dropped";
  const resource = await readBackupResource(scope, run.resourceId);

  const finish = async (): Promise<WorkerOutcome> => {
    const ended = await readRun(scope, task.runId);
    if (!ended || (ended.state !== "succeeded" && ended.state !== "failed")) return "recorded";
    await recordEnd(scope, ended, resource);
    return ended.state;
  };
  const failBeforeStart = async (reason: BackupFailureReason): Promise<WorkerOutcome> => {
    await failIdleRun(scope, task.runId, reason, new Date(now()));
    return finish();
  };

  if (run.state === "succeeded" || run.state === "failed") {
    await finish();
    return "recorded";
  }
  if (!resource) return failBeforeStart("unknown-error");
  const policy = resource.policyId
    ? await backupPolicy(scope, resource.policyId, new Date(now()))
    : undefined;

  /**
   * Items the resource's last run could not back up, and items whose stored objects verification found
   * damaged (`refetch`): this run fetches them again first.
   */
  let retry: { kind: "gmail" | "drive"; itemKey: string; refetch?: boolean }[] = [];
  if (run.state === "pending") {
    const refused = await refusal(scope, organization, resource, new Date(now()));
    if (refused) return failBeforeStart(refused);
    if (!policy) return failBeforeStart("backup-not-completed");
    // Not pending any more: another delivery started it meanwhile; decide again on its new state.
    if (!(await seedRun(scope, task.runId, resource.backupCursor))) return executeBackupTask(task, deps);
    await appendAudit(scope, {
      operation: "backup.started",
      actor: SYSTEM_ACTOR,
      object: resource.email ?? resource.name,
      date: new Date(now()),
      key: `backup-started-${task.runId}`,
    });
    run = (await readRun(scope, task.runId)) ?? run;
    const previous = resource.lastRunId ? await readRun(scope, resource.lastRunId) : undefined;
    retry = (previous?.itemErrors ?? []).flatMap((error) =>
      error.kind
        ? [
            {
              kind: error.kind === "gmail-message" ? ("gmail" as const) : ("drive" as const),
              itemKey: error.itemKey,
            },
          ]
        : [],
    );
    retry.push(...(await itemsToRefetch(scope, resource.resourceId)));
  }
  const kinds = streamsOf(resource, policy?.dataTypes ?? []);
  if (kinds.length === 0) return failBeforeStart("backup-not-completed");

  /**
   * The run goes on when the daily budget allows: the run records the time, and the dispatcher enqueues it
   * once that time has passed (a wait of hours is not a task's delay: the local Cloud Tasks emulator
   * delivers delayed tasks at once, and the dispatcher's next tick is soon enough after a paced start).
   */
  const resumeLater = async (at: number): Promise<void> => {
    const resumesAt = new Date(at).toISOString();
    await setRunResumesAt(scope, task.runId, { resumesAt, pacedAt: new Date(now()).toISOString() });
    logs.backupPacedByDailyBudget({ organizationId: scope.organizationId, runId: task.runId, resumesAt });
  };

  // The project's daily budget: this delivery's share, or a later start when the pace leaves none.
  const pacedApis = kinds.filter((kind): kind is PacedApi => kind === "gmail" || kind === "drive");
  const startedAt = now();
  const shares = await dailyShares(deps.dailyBudget, pacedApis, startedAt);
  if (shares.waitUntil !== undefined) {
    await resumeLater(shares.waitUntil);
    return "continued";
  }

  const abort = new AbortController();
  const deadline = now() + deps.budgetMs;
  const metered = meteredCaller(deps.caller);
  const overShare = (): boolean =>
    pacedApis.some((api) => {
      const share = shares.units[api];
      return share !== undefined && metered.usageOf(api).units >= share;
    });
  let dataKey;
  try {
    dataKey = await activeDataKey(scope, deps.wrappers, new Date(now()));
  } catch (error) {
    return failBeforeStart(failureReasonOf(error));
  }
  const catalog = new FirestoreCatalog(scope);
  const streams: Source[] = [];
  for (const kind of kinds) {
    if (kind === "gmail") {
      streams.push(
        deps.streams.gmail(resource.email ?? "", metered, abort.signal, {
          catalog,
          resourceId: resource.resourceId,
        }),
      );
    } else if (resource.type === "email") {
      // Files shared with the user by someone outside the organisation's domain are backed up too.
      streams.push(
        deps.streams.drive(
          { kind: "user", email: resource.email ?? "", domains: [organization.domain] },
          metered,
          abort.signal,
        ),
      );
    } else {
      // A shared drive is read as one of its own members: the admin may not be one, and we add nobody.
      const driveId = resource.resourceId.replace(/^drive-/, "");
      let actAs: string | undefined;
      try {
        actAs = await deps.streams.driveMember(
          { driveId, admin: organization.adminEmail, domain: organization.domain },
          metered,
          abort.signal,
        );
      } catch (error) {
        streams.push(failingSource("drive", error instanceof Error ? error : new Error(String(error))));
        continue;
      }
      streams.push(
        actAs
          ? deps.streams.drive({ kind: "shared-drive", driveId, actAs }, metered, abort.signal)
          : failingSource("drive", new NoAccessError("no-drive-member")),
      );
    }
  }
  // Calls in flight when the deadline comes are abandoned; the batch in hand is repeated next time.
  const timer = setTimeout(() => abort.abort(new Error("deadline")), Math.max(0, deadline - now() + 30_000));
  let result: RunBackupResult;
  try {
    result = await runBackup({
      run: { runId: task.runId, resourceId: resource.resourceId },
      source: new ResourceSource(streams, retry),
      blobStore: deps.blobStore(scope.regionId),
      catalog,
      dataKey,
      organizationId: scope.organizationId,
      holder: randomUUID(),
      deadline,
      signal: abort.signal,
      now,
      usage: metered.usage,
      stopWhen: overShare,
    });
  } finally {
    clearTimeout(timer);
    const day = quotaDayOf(startedAt).day;
    for (const api of pacedApis) {
      await deps.dailyBudget
        ?.add(api, day, metered.usageOf(api).units)
        .catch((error: unknown) =>
          logs.dailyBudgetNotRecorded({ organizationId: scope.organizationId, error }),
        );
    }
  }
  const outcome = outcomeOf(result);
  logs.backupTaskEnded({
    organizationId: scope.organizationId,
    runId: task.runId,
    outcome,
    ...(result.outcome !== "skipped" ? { items: result.progress.items, unitsUsed: result.unitsUsed } : {}),
  });
  if (result.outcome === "continue") {
    // A delivery that spent its share goes on when the pace allows the next one.
    const next = overShare() ? await dailyShares(deps.dailyBudget, pacedApis, now()) : { units: {} };
    if (next.waitUntil !== undefined) await resumeLater(next.waitUntil);
    else await deps.enqueue(scope.regionId, task);
    return outcome;
  }
  if (outcome === "lease-held") throw new RunLeasedError(task.runId);
  if (
    result.outcome === "succeeded" ||
    result.outcome === "failed" ||
    (result.outcome === "skipped" && result.why === "finished")
  ) {
    await finish();
  }
  return outcome;
}
