/**
 * The backup worker: one `runBackup` task delivery runs (a stretch of) one backup run of one resource.
 *
 * Three named steps:
 * 1. `prepare` — the run decides: a finished run is only recorded again (idempotent), so a duplicate or
 *    late delivery changes nothing; a missing organisation, run or resource drops the task. A pending run
 *    is checked before it starts: backups stopped after a graceful period, a resource that is gone or
 *    suspended at Google, no policy, or storage over the plan's maximum end it failed with its
 *    docs/requirements.md#errors-and-messages reason. Otherwise it gets its resource's last cursor and
 *    "backup started" is audited (`run-start.ts`). Then the resource's streams per its policy (Gmail
 *    and/or Drive; a shared drive is Drive only), the delivery's share of the daily Google budget (none
 *    left: the run goes on later, `daily-pacing.ts`) and the organisation's active data key (made under the
 *    default secret when there is none).
 * 2. `runPrepared` — the streams with delegated clients (`streams.ts`), the region's bucket, and
 *    `runBackup` with the function's deadline, within the delivery's share.
 * 3. `settle` — "continue" re-enqueues the run, or paces it (a spent share, Google's daily limit); an ended
 *    run records the resource's status and totals, "backup finished/failed" in the audit log, and an alert
 *    on failure (`run-end.ts`). A run whose lease another worker holds throws, so Cloud Tasks delivers it
 *    again later (by then it is finished, or its holder's lease expired and this worker takes over).
 */
import { randomUUID } from "node:crypto";
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn, type Organization } from "../organizations/service";
import type { RegionId } from "@alpvault/contracts/regions";
import { backupPolicy } from "../policies/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import type { DataKey, DerivedKeys } from "../engine/format/keys";
import { activeDataKey, catalogKeyring, type KeyWrappers } from "./data-keys";
import type { CatalogScope } from "./catalog/sealed-documents";
import type { GoogleCaller } from "../engine/google/caller";
import { meteredCaller } from "../engine/google/quota-caller";
import { isPacedApi, type PacedApi } from "../engine/google/daily-budget";
import type { EnqueueBackup } from "./queue";
import {
  catalogFormat,
  failIdleRun,
  readBackupResource,
  readRun,
  setRunResumesAt,
  type BackupResource,
} from "./repo";
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
import type { ServiceId } from "@alpvault/contracts/services";

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

/** What a delivery runs the backup with, once `prepare` decided that it runs it. */
interface PreparedRun {
  task: BackupTask;
  scope: Scope;
  organization: Organization;
  resource: BackupResource;
  /** The resource's streams this run backs up (its policy's data types). */
  kinds: ServiceId[];
  /** The streams' APIs with a daily threshold, and this delivery's share of each. */
  pacedApis: PacedApi[];
  shares: Partial<Record<PacedApi, number>>;
  /** Items the last run could not back up, or whose objects were found damaged: fetched again first. */
  retry: RetryItem[];
  dataKey: DataKey;
  /**
   * Catalog format v2 (the organisation's `meta/catalog`): the data key's derived keys new items and
   * versions are sealed with, and the scope with every catalog key (its items of either format are read).
   */
  sealing?: { keys: DerivedKeys; scope: CatalogScope };
  startedAt: number;
}

/** How a delivery ends a run: records the end of a run that is over, or fails it before it starts. */
class RunEnding {
  constructor(
    private readonly scope: Scope,
    private readonly runId: string,
    private readonly resource: BackupResource | undefined,
    private readonly now: () => number,
  ) {}

  /** Records the run's end (status, totals, audit, alert) when it is over. */
  async finish(): Promise<WorkerOutcome> {
    const ended = await readRun(this.scope, this.runId);
    if (!ended || (ended.state !== "succeeded" && ended.state !== "failed")) return "recorded";
    await recordEnd(this.scope, ended, this.resource);
    return ended.state;
  }

  /** Fails a run that has not started with its reason, and records its end. */
  async failBeforeStart(reason: BackupFailureReason): Promise<WorkerOutcome> {
    await failIdleRun(this.scope, this.runId, reason, new Date(this.now()));
    return this.finish();
  }
}

type Preparation =
  | { kind: "ended"; outcome: WorkerOutcome }
  /** Another delivery started the run meanwhile: decide again on its new state. */
  | { kind: "again" }
  | { kind: "run"; prepared: PreparedRun; ending: RunEnding };

/**
 * 1. Prepare: whether this delivery backs up at all (the run's state, the checks before a pending run
 *    starts, the resource's streams, the day's Google budget, the organisation's data key), and with what.
 */
async function prepare(task: BackupTask, deps: WorkerDeps): Promise<Preparation> {
  const now = deps.now ?? Date.now;
  const ended = (outcome: WorkerOutcome): Preparation => ({ kind: "ended", outcome });
  const organization = await organizationServedIn(task.organizationId, deps.servingRegion);
  if (!organization) return ended("dropped");
  const scope: Scope = { organizationId: organization.organizationId, regionId: organization.regionId };
  const run = await readRun(scope, task.runId);
  if (!run || run.resourceId !== task.resourceId) return ended("dropped");
  const resource = await readBackupResource(scope, run.resourceId);
  const ending = new RunEnding(scope, task.runId, resource, now);
  if (run.state === "succeeded" || run.state === "failed") {
    await ending.finish();
    return ended("recorded");
  }
  if (!resource) return ended(await ending.failBeforeStart("unknown-error"));
  const policy = resource.policyId
    ? await backupPolicy(scope, resource.policyId, new Date(now()))
    : undefined;
  let retry: RetryItem[] = [];
  if (run.state === "pending") {
    const start = await startPendingRun(scope, organization, resource, Boolean(policy), task.runId, now);
    if (start.kind === "refused") return ended(await ending.failBeforeStart(start.reason));
    if (start.kind === "taken-over") return { kind: "again" };
    retry = start.retry;
  }
  const kinds = streamsOf(resource, policy?.dataTypes ?? [], organization.planId);
  if (kinds.length === 0) return ended(await ending.failBeforeStart("backup-not-completed"));
  // The project's daily budget: this delivery's share, or a later start when the pace leaves none.
  const pacedApis = kinds.filter(isPacedApi);
  const startedAt = now();
  const shares = await dailyShares(deps.dailyBudget, pacedApis, startedAt);
  if (shares.waitUntil !== undefined) {
    await resumeWhenPaced(scope, task.runId, shares.waitUntil, new Date(now()));
    return ended("continued");
  }
  let dataKey: DataKey;
  let sealing: PreparedRun["sealing"];
  try {
    dataKey = await activeDataKey(scope, deps.wrappers, new Date(now()));
    if ((await catalogFormat(scope)) === 2) {
      const keyring = await catalogKeyring(scope, deps.wrappers);
      sealing = { keys: keyring.keys(dataKey.id), scope: { ...scope, keyring } };
    }
  } catch (error) {
    return ended(await ending.failBeforeStart(failureReasonOf(error)));
  }
  const prepared = {
    task,
    scope,
    organization,
    resource,
    kinds,
    pacedApis,
    retry,
    dataKey,
    sealing,
    startedAt,
  };
  return { kind: "run", prepared: { ...prepared, shares: shares.units }, ending };
}

/**
 * 2. Run: the resource's streams with delegated clients, and the engine until the function's deadline or
 *    the delivery's share of the day's budget is spent. Answers the engine's result and whether the share
 *    was spent.
 */
async function runPrepared(
  prepared: PreparedRun,
  deps: WorkerDeps,
): Promise<{ result: RunBackupResult; overShare: () => boolean }> {
  const { task, scope, resource, pacedApis, shares } = prepared;
  const now = deps.now ?? Date.now;
  const abort = new AbortController();
  const metered = meteredCaller(deps.caller);
  const overShare = (): boolean =>
    pacedApis.some((api) => {
      const share = shares[api];
      return share !== undefined && metered.usageOf(api).units >= share;
    });
  const catalog = prepared.sealing
    ? new FirestoreCatalog(prepared.sealing.scope, prepared.sealing.keys)
    : new FirestoreCatalog(scope);
  const streams = await resourceStreams(deps.streams, prepared.kinds, {
    organization: prepared.organization,
    resource,
    caller: metered,
    signal: abort.signal,
    labelNames: catalog,
  });
  const result = await runUntilDeadline(
    {
      run: { runId: task.runId, resourceId: resource.resourceId },
      source: new ResourceSource(streams, prepared.retry),
      blobStore: deps.blobStore(scope.regionId),
      catalog,
      dataKey: prepared.dataKey,
      organizationId: scope.organizationId,
      holder: randomUUID(),
      deadline: now() + deps.budgetMs,
      signal: abort.signal,
      now,
      usage: metered.usage,
      stopWhen: overShare,
    },
    abort,
    metered,
    { budget: deps.dailyBudget, apis: pacedApis, startedAt: prepared.startedAt },
  );
  return { result, overShare };
}

/**
 * 3. Settle: a run that goes on is enqueued again or paced (`goOn`); one another worker holds throws for a
 *    later delivery; one that ended records its end.
 */
async function settle(
  prepared: PreparedRun,
  ending: RunEnding,
  ran: { result: RunBackupResult; overShare: () => boolean },
  deps: WorkerDeps,
): Promise<WorkerOutcome> {
  const { result } = ran;
  const { scope, task, pacedApis } = prepared;
  const outcome = outcomeOf(result);
  logs.backupTaskEnded({
    organizationId: scope.organizationId,
    runId: task.runId,
    outcome,
    ...(result.outcome !== "skipped" ? { items: result.progress.items, unitsUsed: result.unitsUsed } : {}),
  });
  if (result.outcome === "continue") {
    const now = deps.now ?? Date.now;
    await goOn(result, { deps, scope, task, pacedApis, overShare: ran.overShare, now });
    return outcome;
  }
  if (outcome === "lease-held") throw new RunLeasedError(task.runId);
  if (
    result.outcome === "succeeded" ||
    result.outcome === "failed" ||
    (result.outcome === "skipped" && result.why === "finished")
  ) {
    await ending.finish();
  }
  return outcome;
}

/** One delivery of a backup run: prepare, run, settle (see the file's comment). */
export async function executeBackupTask(task: BackupTask, deps: WorkerDeps): Promise<WorkerOutcome> {
  for (;;) {
    const preparation = await prepare(task, deps);
    if (preparation.kind === "again") continue;
    if (preparation.kind === "ended") return preparation.outcome;
    const { prepared, ending } = preparation;
    return settle(prepared, ending, await runPrepared(prepared, deps), deps);
  }
}
