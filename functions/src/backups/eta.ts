/**
 * The time left of backups and recoveries as the screens read it: the engine's estimator
 * (`engine/eta/estimate.ts`) with this deployment's quota model (`GOOGLE_QUOTA_MODEL`, raised project
 * limits), what the project spent of its daily budget today (the ledger every backup worker adds to), and
 * the runs that share the limits now: this organisation's running backups and recoveries (another
 * organisation's runs are not seen; the queues' concurrency keeps the deployment's backups within the
 * project's per-minute limit, see `backupRunSlots`).
 */
import { serviceOfWork, SERVICES } from "@alpvault/contracts/services";
import type { ActiveBackup } from "@alpvault/contracts/backups";
import type { WorkKind } from "@alpvault/contracts/eta";
import { loadQuotaConfig } from "../config";
import { QUOTA_MODELS, type QuotaModel } from "../engine/google/costs";
import { isPacedApi, quotaDayOf, type PacedApi } from "../engine/google/daily-budget";
import {
  backupDailyUnits,
  estimateEta,
  paceShown,
  restoreDailyUnits,
  type Eta,
  type WorkLeft,
} from "../engine/eta/estimate";

export { paceShown };
import type { RunProgress } from "../engine/runner/catalog";
import { googleUnitsSpent } from "../system/service";
import type { BackupRun } from "./repo";

/** The project's quota as this deployment is configured. */
export interface QuotaOutlook {
  model: QuotaModel;
  projectUnitsPerMinute: Partial<Record<PacedApi, number>>;
}

export function quotaOutlook(): QuotaOutlook {
  const config = loadQuotaConfig();
  return { model: QUOTA_MODELS[config.model], projectUnitsPerMinute: config.projectUnitsPerMinute };
}

/** What the project spent of each API today, read once per API (every backup worker adds to it). */
export function spentToday(now: Date): (api: PacedApi) => Promise<number> {
  const day = quotaDayOf(now.getTime()).day;
  const read = new Map<PacedApi, Promise<number>>();
  return (api) => {
    let found = read.get(api);
    if (!found) read.set(api, (found = googleUnitsSpent(api, day)));
    return found;
  };
}

/** A rate as answered: one decimal. */
export const roundRate = (rate: number | null): number | null =>
  rate === null ? null : Math.round(rate * 10) / 10;

/** The runs sharing the limits now: the same user's and the organisation's (this one included). */
export interface RunsNow {
  user: number;
  project: number;
}

/**
 * A running backup's totals, pace and time left, for the service it is on now (`RunExpectation`): the work
 * left is what it expects less what it did; its pace is measured from when that service began.
 */
export async function backupProgress(
  run: BackupRun,
  progress: RunProgress,
  runs: RunsNow & { backups: number },
  outlook: QuotaOutlook & { spent: (api: PacedApi) => Promise<number> },
  now: Date,
): Promise<Omit<ActiveBackup, "runId" | "state" | "items" | "bytes" | "startedAt">> {
  const expected = run.expected;
  const totalItems = expected?.items == null ? null : Math.max(expected.items, progress.items);
  const totalBytes = expected?.bytes == null ? null : Math.max(expected.bytes, progress.bytes);
  if (run.state !== "running" || !expected) {
    return { totalItems, totalBytes, itemsPerMinute: null, etaSeconds: null, limit: null };
  }
  const api = SERVICES[expected.stream].googleApi;
  const spent = isPacedApi(api) ? await outlook.spent(api) : 0;
  const left: WorkLeft = {
    items: totalItems === null ? null : totalItems - progress.items,
    bytes: totalBytes === null ? null : totalBytes - progress.bytes,
  };
  const eta = estimateEta({
    work: SERVICES[expected.stream].work.backup,
    left,
    model: outlook.model,
    projectUnitsPerMinute: outlook.projectUnitsPerMinute,
    runs,
    dailyUnits: backupDailyUnits(outlook.model, api, spent, now.getTime(), runs.backups),
    measured: {
      items: progress.items - expected.from.items,
      bytes: progress.bytes - expected.from.bytes,
      seconds: (now.getTime() - Date.parse(expected.since)) / 1000,
    },
  });
  return {
    totalItems,
    totalBytes,
    itemsPerMinute: roundRate(paceShown(eta)),
    etaSeconds: left.items === null && left.bytes === null ? null : eta.seconds,
    limit: eta.limit,
  };
}

/**
 * A restore's (or an export's) pace and time left: the work left, what it did so far and in how long, and
 * the runs sharing the limits; restores spend the part of Google's daily threshold backups leave them.
 */
export function restoreEta(input: {
  work: Extract<WorkKind, `${string}-restore` | "export">;
  left: WorkLeft;
  measured?: { items: number; bytes: number; seconds: number };
  runs: RunsNow & { restores: number };
  outlook: QuotaOutlook;
}): Eta {
  const { work, outlook, runs } = input;
  const service = serviceOfWork(work);
  return estimateEta({
    work,
    left: input.left,
    model: outlook.model,
    projectUnitsPerMinute: outlook.projectUnitsPerMinute,
    runs,
    ...(service === undefined
      ? {}
      : { dailyUnits: restoreDailyUnits(outlook.model, SERVICES[service].googleApi, runs.restores) }),
    ...(input.measured ? { measured: input.measured } : {}),
  });
}
