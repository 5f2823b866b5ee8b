/**
 * The project's daily Google budget, paced over the quota day and shared among the runs.
 *
 * Google's daily thresholds are per project (Gmail 80,000,000 units a day in the 2026 model): a project
 * backing up 200 mailboxes at their per-user ceiling would spend Gmail's day in about 70 minutes, and
 * every call after that answers 403 dailyLimitExceeded until midnight Pacific time. So:
 *
 * - Pace: by any moment of the quota day, the project may have spent the share of the day's budget that
 *   an even spread allows, plus `PACE_LEAD_MS` of it ahead (`pacedAllowance`). What a quiet morning did
 *   not spend is there in the afternoon; the whole budget is there by the end of the day, never more.
 *   The budget is `BUDGET_FRACTION` of Google's threshold, the rest kept for restores and other calls.
 * - Share: one delivery of a run may spend what the pace leaves now, divided by the runs that may spend
 *   it at the same time (the backup queues' concurrency, `backupRunSlots`): every resource backed up gets
 *   an equal share of what is left, and one huge mailbox cannot take the day (`deliveryShare`).
 * - Waiting: when a share would be smaller than `MIN_DELIVERY_UNITS`, the delivery waits until the pace
 *   allows one (or until the next quota day when the day's budget is spent).
 *
 * What the project spent today is counted per API across every worker (`daily-ledger.ts`).
 */
import type { GoogleApi } from "./caller";
import { QUOTA_MODELS, type QuotaModel } from "./costs";

/** How far ahead of an even spread the pace lets the project spend: one hour of the day's budget. */
/** The APIs with a daily threshold the budget paces (the ledger `googleQuotaDays/{api}-{day}` counts them). */
export type PacedApi = Extract<GoogleApi, "gmail" | "drive">;
export const PACED_APIS: readonly PacedApi[] = ["gmail", "drive"];

/** Whether an API (or a stream of a resource named after its API) has a daily threshold the budget paces. */
export function isPacedApi(api: string | undefined): api is PacedApi {
  return PACED_APIS.some((paced) => paced === api);
}

export const PACE_LEAD_MS = 60 * 60_000;
/** The share of Google's daily threshold backups may spend. */
export const BUDGET_FRACTION = 0.9;
/** The least a delivery starts with (about 50 `messages.get`); less waits for the pace. */
export const MIN_DELIVERY_UNITS = 1_000;

const PACIFIC = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Los_Angeles",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** Milliseconds since midnight Pacific time, and the Pacific date, of an instant. */
function pacificClock(instant: number): { date: string; msIntoDay: number } {
  const parts = Object.fromEntries(
    PACIFIC.formatToParts(new Date(instant)).map((part) => [part.type, part.value]),
  );
  const msIntoDay =
    ((Number(parts.hour) * 60 + Number(parts.minute)) * 60 + Number(parts.second)) * 1000 +
    (((instant % 1000) + 1000) % 1000);
  return { date: `${parts.year}-${parts.month}-${parts.day}`, msIntoDay };
}

export interface QuotaDay {
  /** YYYY-MM-DD, Pacific time: Google's daily quotas reset at midnight Pacific time. */
  day: string;
  startsAt: number;
  /** The next day's start (23 or 25 hours later on the days daylight saving time changes). */
  endsAt: number;
}

/** The instant midnight Pacific time begins a date (07:00 or 08:00 UTC, by daylight saving time). */
function pacificMidnight(year: number, month: number, day: number): number {
  for (const hour of [7, 8]) {
    const candidate = Date.UTC(year, month - 1, day, hour);
    if (pacificClock(candidate).msIntoDay === 0) return candidate;
  }
  throw new Error(`no Pacific midnight on ${year}-${month}-${day}`);
}

export function quotaDayOf(instant: number): QuotaDay {
  const { date } = pacificClock(instant);
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return {
    day: date,
    startsAt: pacificMidnight(year, month, day),
    endsAt: pacificMidnight(year, month, day + 1),
  };
}

/** Units of the day's `budget` the project may have spent by `instant`. */
export function pacedAllowance(budget: number, day: QuotaDay, instant: number): number {
  const fraction = (instant - day.startsAt + PACE_LEAD_MS) / (day.endsAt - day.startsAt);
  return Math.floor(budget * Math.min(1, Math.max(0, fraction)));
}

/** The units backups may spend per quota day of an API under a model (none: no daily threshold). */
export function dailyBudget(model: QuotaModel, api: GoogleApi): number | undefined {
  const threshold = model.dailyUnits[api];
  return threshold === undefined ? undefined : Math.floor(threshold * BUDGET_FRACTION);
}

export type DeliveryShare =
  | { units: number }
  /** Nothing to spend now: try again at this instant (ms). */
  | { waitUntil: number };

/**
 * What one delivery may spend of an API now: what the pace leaves, divided among `runSlots` runs;
 * or when to try again.
 */
export function deliveryShare(input: {
  budget: number;
  /** What the project spent of the API this quota day so far. */
  used: number;
  instant: number;
  runSlots: number;
}): DeliveryShare {
  const { budget, used, instant } = input;
  const slots = Math.max(1, Math.floor(input.runSlots));
  const day = quotaDayOf(instant);
  const share = Math.floor((pacedAllowance(budget, day, instant) - used) / slots);
  if (share >= MIN_DELIVERY_UNITS) return { units: share };
  const needed = used + MIN_DELIVERY_UNITS * slots;
  if (needed > budget) return { waitUntil: day.endsAt };
  const at = day.startsAt + (needed / budget) * (day.endsAt - day.startsAt) - PACE_LEAD_MS;
  return { waitUntil: Math.min(day.endsAt, Math.max(instant + 1_000, Math.ceil(at))) };
}

/**
 * Runs that may back up at once across the deployment: as many as the project's per-minute Gmail quota
 * holds at each run's per-user ceiling (a run never spends more than its user's limit, so together they
 * cannot pass the project's). 200 under the 2026 model, 80 under the legacy one; more with a raised
 * project quota.
 */
export function backupRunSlots(
  model: QuotaModel = QUOTA_MODELS["2026"],
  projectUnitsPerMinute: Partial<Record<GoogleApi, number>> = {},
): number {
  const gmail = model.limits.gmail;
  const project = projectUnitsPerMinute.gmail ?? gmail.perProjectPerMinute;
  return Math.max(1, Math.floor(project / gmail.perUserPerMinute));
}

/** One region's backup queue: its share of the deployment's run slots (the regions share one project). */
export function backupRunsPerRegion(runSlots: number, regions: number): number {
  return Math.max(1, Math.floor(runSlots / Math.max(1, regions)));
}
