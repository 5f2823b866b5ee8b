/**
 * The project's daily Google budget as the backup worker spends it (`engine/google/daily-budget.ts`): each
 * delivery spends at most its share of what the pace leaves, waits when there is none, and adds what it
 * spent once it is done (every worker counts).
 */
import * as logs from "../logs";
import type { GoogleApi } from "../engine/google/caller";
import type { QuotaModel } from "../engine/google/costs";
import {
  dailyBudget,
  deliveryShare,
  isPacedApi,
  quotaDayOf,
  type PacedApi,
} from "../engine/google/daily-budget";

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
export async function dailyShares(
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

/** Adds what a delivery spent of each paced API to the quota day it started on (a failure is only logged). */
export async function addDailySpend(
  budget: DailyBudgetDeps | undefined,
  apis: PacedApi[],
  startedAt: number,
  unitsOf: (api: PacedApi) => number,
  organizationId: string,
): Promise<void> {
  const day = quotaDayOf(startedAt).day;
  for (const api of apis) {
    await budget
      ?.add(api, day, unitsOf(api))
      .catch((error: unknown) => logs.dailyBudgetNotRecorded({ organizationId, error }));
  }
}

/**
 * Google answered that an API's daily limit is reached (403 `dailyLimitExceeded`: spent by calls the
 * ledger does not see, restores or another client of the project): the ledger counts that quota day as
 * spent, so every other delivery waits for the next day instead of asking Google again. A failure is only
 * logged (those deliveries then meet Google's answer themselves).
 */
export async function markDaySpent(
  budget: DailyBudgetDeps | undefined,
  api: GoogleApi | undefined,
  instant: number,
  organizationId: string,
): Promise<void> {
  if (!budget || !isPacedApi(api)) return;
  const total = dailyBudget(budget.model, api);
  if (total === undefined) return;
  const day = quotaDayOf(instant).day;
  try {
    const spent = await budget.spent(api, day);
    if (spent < total) await budget.add(api, day, total - spent);
  } catch (error) {
    logs.dailyBudgetNotRecorded({ organizationId, error });
  }
}
