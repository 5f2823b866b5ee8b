/**
 * The backup worker: one `runBackup` task delivery runs (a stretch of) one backup run of one resource.
 *
 * 1. The run decides: a finished run is only recorded again (idempotent), so a duplicate or late delivery
 *    changes nothing. A missing organisation, run or resource drops the task.
 * 2. A pending run is checked before it starts: backups stopped after a graceful period, a resource that
 *    is gone or suspended at Google, no policy, or storage over the plan's maximum end it failed with its
 *    docs/requirements.md#errors-and-messages reason. Otherwise it gets its resource's last cursor and
 *    "backup started" is audited (`run-start.ts`).
 * 3. The organisation's active data key (made under the default secret when there is none), the region's
 *    bucket, the resource's streams (Gmail and/or Drive per its policy; a shared drive is Drive only) with
 *    delegated clients (`streams.ts`), and `runBackup` with the function's deadline, within the delivery's
 *    share of the daily Google budget (`daily-pacing.ts`).
 * 4. "continue" re-enqueues the run; an ended run records the resource's status and totals, "backup
 *    finished/failed" in the audit log, and an alert on failure (`run-end.ts`). A run whose lease another
 *    worker holds throws, so Cloud Tasks delivers it again later (by then it is finished, or its holder's
 *    lease expired and this worker takes over).
 */
import { randomUUID } from "node:crypto";
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn } from "../organizations/service";
import type { RegionId } from "@alpvault/contracts/regions";
import { backupPolicy } from "../policies/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { activeDataKey, type KeyWrappers } from "./data-keys";
import type { GoogleCaller } from "../engine/google/caller";
import { meteredCaller } from "../engine/google/caller";
import { isPacedApi, type PacedApi } from "../engine/google/daily-budget";
import type { EnqueueBackup } from "./queue";
import { failIdleRun, readBackupResource, readRun, setRunResumesAt } from "./repo";
import type { BackupTask } from "./schema";
import { FirestoreCatalog } from "./catalog/repo";
import {
  failureReasonOf,
  runBackup,
  type RunBackupOptions,
  type RunBackupResult,
} from "../engine/runner/run-backup";
import { ResourceSource } from "../engine/sources/resource-source";
import { addDailySpend, dailyShares, markDaySpent, type DailyBudgetDeps } from "./daily-pacing";
import { recordEnd } from "./run-end";
import { startPendingRun, type RetryItem } from "./run-start";
import { resourceStreams, streamsOf, type StreamFactory } from "./streams";

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

export type WorkerOutcome =
  "dropped" | "recorded" | "continued" | "succeeded" | "failed" | "lease-held" | "lease-lost";

/** A run another worker holds: thrown so that Cloud Tasks delivers the task again later. */
export class RunLeasedError extends Error {
  constructor(runId: string) {
    super(`Backup run ${runId} is held by another worker; retry later`);
    this.name = "RunLeasedError";
  }
}

function outcomeOf(result: RunBackupResult): WorkerOutcome {
  if (result.outcome === "skipped") {
    if (result.why === "leased") return "lease-held";
    if (result.why === "lease-lost") return "lease-lost";
    return "dropped";
  }
  return result.outcome === "continue" ? "continued" : result.outcome;
}

/**
 * Runs the backup until its deadline (calls still in flight 30 s after it are abandoned; the batch in hand
 * is repeated next time), then adds what it spent to the project's daily budget.
 */
async function runUntilDeadline(
  options: RunBackupOptions & { deadline: number; now: () => number },
  abort: AbortController,
  metered: ReturnType<typeof meteredCaller>,
  pacing: { budget?: DailyBudgetDeps; apis: PacedApi[]; startedAt: number },
): Promise<RunBackupResult> {
  const timer = setTimeout(
    () => abort.abort(new Error("deadline")),
    Math.max(0, options.deadline - options.now() + 30_000),
  );
  try {
    return await runBackup(options);
  } finally {
    clearTimeout(timer);
    await addDailySpend(
      pacing.budget,
      pacing.apis,
      pacing.startedAt,
      (api) => metered.usageOf(api).units,
      options.organizationId,
    );
  }
}

/**
 * The run goes on when the daily budget allows: the run records the time, and the dispatcher enqueues it
 * once that time has passed (a wait of hours is not a task's delay: the local Cloud Tasks emulator
 * delivers delayed tasks at once, and the dispatcher's next tick is soon enough after a paced start).
 */
async function resumeWhenPaced(
  scope: Scope,
  runId: string,
  at: number,
  now: Date,
  googleDailyLimit?: string,
): Promise<void> {
  const resumesAt = new Date(at).toISOString();
  await setRunResumesAt(scope, runId, { resumesAt, pacedAt: now.toISOString() });
  logs.backupPacedByDailyBudget({
    organizationId: scope.organizationId,
    runId,
    resumesAt,
    ...(googleDailyLimit ? { googleDailyLimit } : {}),
  });
}

/**
 * When a delivery that did not finish its run goes on: at the quota day's end when Google's daily limit
 * was reached (the ledger then counts that API's day as spent), when the pace allows the next share after
 * a delivery that spent its own, else at once.
 */
async function goOn(
  result: Extract<RunBackupResult, { outcome: "continue" }>,
  context: {
    deps: WorkerDeps;
    scope: Scope;
    task: BackupTask;
    pacedApis: PacedApi[];
    overShare: () => boolean;
    now: () => number;
  },
): Promise<void> {
  const { deps, scope, task, now } = context;
  if (result.resumesAt !== undefined) {
    await markDaySpent(deps.dailyBudget, result.dailyLimit, now(), scope.organizationId);
    await resumeWhenPaced(
      scope,
      task.runId,
      result.resumesAt,
      new Date(now()),
      result.dailyLimit ?? "unknown",
    );
    return;
  }
  const next = context.overShare()
    ? await dailyShares(deps.dailyBudget, context.pacedApis, now())
    : { units: {} };
  if (next.waitUntil !== undefined) await resumeWhenPaced(scope, task.runId, next.waitUntil, new Date(now()));
  else await deps.enqueue(scope.regionId, task);
}

export async function executeBackupTask(task: BackupTask, deps: WorkerDeps): Promise<WorkerOutcome> {
  const now = deps.now ?? Date.now;
  const organization = await organizationServedIn(task.organizationId, deps.servingRegion);
  if (!organization) return "dropped";
  const scope: Scope = { organizationId: organization.organizationId, regionId: organization.regionId };
  const run = await readRun(scope, task.runId);
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

  let retry: RetryItem[] = [];
  if (run.state === "pending") {
    const start = await startPendingRun(scope, organization, resource, Boolean(policy), task.runId, now);
    if (start.kind === "refused") return failBeforeStart(start.reason);
    // Another delivery started it meanwhile: decide again on its new state.
    if (start.kind === "taken-over") return executeBackupTask(task, deps);
    retry = start.retry;
  }
  const kinds = streamsOf(resource, policy?.dataTypes ?? []);
  if (kinds.length === 0) return failBeforeStart("backup-not-completed");

  // The project's daily budget: this delivery's share, or a later start when the pace leaves none.
  const pacedApis = kinds.filter(isPacedApi);
  const startedAt = now();
  const shares = await dailyShares(deps.dailyBudget, pacedApis, startedAt);
  if (shares.waitUntil !== undefined) {
    await resumeWhenPaced(scope, task.runId, shares.waitUntil, new Date(now()));
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
  const streams = await resourceStreams(
    deps.streams,
    organization,
    resource,
    kinds,
    metered,
    abort.signal,
    catalog,
  );
  const result = await runUntilDeadline(
    {
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
    },
    abort,
    metered,
    { budget: deps.dailyBudget, apis: pacedApis, startedAt },
  );
  const outcome = outcomeOf(result);
  logs.backupTaskEnded({
    organizationId: scope.organizationId,
    runId: task.runId,
    outcome,
    ...(result.outcome !== "skipped" ? { items: result.progress.items, unitsUsed: result.unitsUsed } : {}),
  });
  if (result.outcome === "continue") {
    await goOn(result, { deps, scope, task, pacedApis, overShare, now });
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
