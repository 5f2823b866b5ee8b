/**
 * The one estimator of a run's pace and time left (backups, recoveries, exports, and a recovery before it
 * starts), pure: given the work left, its kind, the project's quota model, how many runs share the limits
 * now and what the daily budget leaves, it answers the pace the run may go at (items a minute, bytes a
 * second), which limit binds (with its sentence, `contracts/src/eta.ts`) and the seconds left.
 *
 * Each limit gives a time for the work left, and the longest one binds:
 * - per minute (Google's per-user and per-project quota units, `google/costs.ts`): the work's units
 *   (`work-costs.ts`) at the limit's share, the limit divided by the runs spending it now;
 * - per day (the project's daily units budget, Drive's daily egress per project and uploads per user):
 *   what the day still leaves this run is spent at once, the rest at the day's allowance, evenly spread
 *   (`daily-budget.ts` paces backups that way), so a daily limit binds only on work larger than what is left.
 * A run that has gone on for `MEASURE_AFTER_SECONDS` has a measured pace; when it is slower than the
 * quota's, the time left follows it (and the limit says so). An export calls no Google API: its time left is
 * its measured pace alone.
 */
import { ETA_LIMIT_TEXTS, type EtaLimit, type EtaLimitKind, type WorkKind } from "@alpvault/contracts/eta";
import type { GoogleApi } from "../google/caller";
import type { QuotaModel } from "../google/costs";
import { dailyBudget, pacedAllowance, quotaDayOf } from "../google/daily-budget";
import { unitsOf, workCosts, type WorkCosts } from "./work-costs";

/** A run's pace is measured once it has gone on this long. */
export const MEASURE_AFTER_SECONDS = 60;
const DAY_SECONDS = 86_400;

export interface WorkLeft {
  /** null: not known. */
  items: number | null;
  bytes: number | null;
}

/** A daily allowance shared by `runs` runs: what is left of it now, and what a whole day brings. */
export interface DailyShare {
  left: number;
  perDay: number;
  runs: number;
}

export interface EtaInput {
  work: WorkKind;
  left: WorkLeft;
  model: QuotaModel;
  /** The project's per-minute limits where Google raised them (over the model's). */
  projectUnitsPerMinute?: Partial<Record<GoogleApi, number>>;
  /** Runs spending the same user's quota now and runs spending the project's, this one included. */
  runs: { user: number; project: number };
  /** The daily units budget the run spends from (`backupDailyUnits`, `restoreDailyUnits`); absent: none. */
  dailyUnits?: DailyShare;
  /** What the run did so far and in how many seconds: its own pace. */
  measured?: { items: number; bytes: number; seconds: number };
}

export interface Eta {
  /** The pace the binding quota limit allows (items a minute, bytes a second); null when unknown or none. */
  itemsPerMinute: number | null;
  bytesPerSecond: number | null;
  /** The run's measured pace (null before `MEASURE_AFTER_SECONDS`). */
  measuredItemsPerMinute: number | null;
  limit: EtaLimit;
  /** Seconds left; null when neither the quota nor a measured pace can say. */
  seconds: number | null;
}

interface Bound {
  kind: EtaLimitKind;
  text: string;
  /** Seconds for the work left (null: the work left is not known). */
  seconds: number | null;
  /** The share of a per-minute limit this run has (units a minute), to compare limits without the work. */
  unitsPerMinute?: number;
}

const runsOf = (runs: number) => Math.max(1, Math.floor(runs));
/** Whole seconds, up (a float's last digit does not add a second). */
const wholeSeconds = (seconds: number) => Math.max(0, Math.ceil(seconds - 1e-6));
const ITEM_NAMES: Record<WorkKind, string> = {
  "gmail-backup": "messages",
  "gmail-restore": "messages",
  "drive-backup": "files",
  "drive-restore": "files",
  "calendar-backup": "events",
  "calendar-restore": "events",
  "contacts-backup": "contacts",
  "contacts-restore": "contacts",
  export: "items",
};

/** The kinds and texts of each API's per-user, per-project and daily limits. */
const LIMITS_OF_API: Record<
  WorkCosts["api"],
  {
    user: EtaLimitKind;
    /** `perItemMinute`: items a minute at the user's limit; `unitsPerMinute`: the limit itself. */
    userText: (work: WorkKind, perItemMinute: number, runs: number, unitsPerMinute: number) => string;
    project: EtaLimitKind;
    projectText: (unitsPerMinute: number, runs: number) => string;
    /** Absent where Google has no daily threshold on the API. */
    daily?: { kind: EtaLimitKind; text: (unitsPerDay: number, runs: number) => string };
  }
> = {
  gmail: {
    user: "gmail-user",
    userText: ETA_LIMIT_TEXTS.gmailUser,
    project: "gmail-project",
    projectText: ETA_LIMIT_TEXTS.gmailProject,
    daily: { kind: "gmail-daily", text: ETA_LIMIT_TEXTS.gmailDaily },
  },
  drive: {
    user: "drive-user",
    userText: (_work, perItemMinute, runs) => ETA_LIMIT_TEXTS.driveUser(perItemMinute, runs),
    project: "drive-project",
    projectText: ETA_LIMIT_TEXTS.driveProject,
    daily: { kind: "drive-daily", text: ETA_LIMIT_TEXTS.driveDaily },
  },
  calendar: {
    user: "calendar-user",
    userText: (_work, _perItemMinute, runs, unitsPerMinute) =>
      ETA_LIMIT_TEXTS.calendarUser(unitsPerMinute, runs),
    project: "calendar-project",
    projectText: ETA_LIMIT_TEXTS.calendarProject,
  },
  people: {
    user: "contacts-user",
    userText: (_work, _perItemMinute, runs, unitsPerMinute) =>
      ETA_LIMIT_TEXTS.contactsUser(unitsPerMinute, runs),
    project: "contacts-project",
    projectText: ETA_LIMIT_TEXTS.contactsProject,
  },
};

/** Google's per-minute limits on the work's API: the user's and the project's, each shared. */
function minuteBounds(input: EtaInput, costs: WorkCosts, units: number | undefined): Bound[] {
  const { api } = costs;
  const limits = input.model.limits[api];
  const userRuns = runsOf(input.runs.user);
  const projectRuns = runsOf(input.runs.project);
  const project = input.projectUnitsPerMinute?.[api] ?? limits.perProjectPerMinute;
  const perItemMinute = limits.perUserPerMinute / costs.perItem;
  const names = LIMITS_OF_API[api];
  const user: Bound = {
    kind: names.user,
    text: names.userText(input.work, perItemMinute, userRuns, limits.perUserPerMinute),
    unitsPerMinute: limits.perUserPerMinute / userRuns,
    seconds: null,
  };
  const shared: Bound = {
    kind: names.project,
    text: names.projectText(project, projectRuns),
    unitsPerMinute: project / projectRuns,
    seconds: null,
  };
  for (const bound of [user, shared]) {
    if (units !== undefined) bound.seconds = (units * 60) / (bound.unitsPerMinute ?? 1);
  }
  return [user, shared];
}

/** Seconds a daily allowance needs for `amount`: what is left today at once, the rest as days bring it. */
function dailySeconds(amount: number | undefined, share: DailyShare): number | null {
  if (amount === undefined) return null;
  const runs = runsOf(share.runs);
  const over = amount - share.left / runs;
  return over <= 0 ? 0 : (over * DAY_SECONDS * runs) / share.perDay;
}

/** The daily limits on the work: the units budget, Drive's egress (backups) and uploads (restores). */
function dailyBounds(input: EtaInput, costs: WorkCosts, units: number | undefined): Bound[] {
  const bounds: Bound[] = [];
  const { dailyUnits, work, left } = input;
  const daily = LIMITS_OF_API[costs.api].daily;
  if (dailyUnits && daily) {
    bounds.push({
      kind: daily.kind,
      text: daily.text(dailyUnits.perDay, runsOf(dailyUnits.runs)),
      seconds: dailySeconds(units, dailyUnits),
    });
  }
  const bytes = left.bytes ?? undefined;
  const egress = input.model.dailyBytes.driveEgressPerProject;
  if (work === "drive-backup" && egress !== undefined) {
    const runs = runsOf(input.runs.project);
    bounds.push({
      kind: "drive-egress",
      text: ETA_LIMIT_TEXTS.driveEgress(egress, runs),
      // What the project downloaded today is not counted: a day's share is taken as left.
      seconds: dailySeconds(bytes, { left: egress, perDay: egress, runs }),
    });
  }
  if (work === "drive-restore") {
    const upload = input.model.dailyBytes.driveUploadPerUser;
    bounds.push({
      kind: "drive-upload",
      text: ETA_LIMIT_TEXTS.driveUpload(upload),
      // What the user uploaded today otherwise is not known: the day's allowance is taken as left.
      seconds: dailySeconds(bytes, { left: upload, perDay: upload, runs: input.runs.user }),
    });
  }
  return bounds;
}

/**
 * The binding bound: with the work known, the one needing the most time (per-minute limits first, so a
 * daily limit binds only when it adds time); without it, the per-minute limit with the smallest share.
 */
function bindingBound(bounds: Bound[]): Bound | undefined {
  let found: Bound | undefined;
  for (const bound of bounds) {
    if (!found) found = bound;
    else if (bound.seconds !== null && found.seconds !== null) {
      if (bound.seconds > found.seconds) found = bound;
    } else if (bound.seconds === null && found.seconds === null) {
      if ((bound.unitsPerMinute ?? Infinity) < (found.unitsPerMinute ?? Infinity)) found = bound;
    }
  }
  return found;
}

/** Seconds the measured pace needs for the work left (the slower of items and bytes), or null. */
function measuredSeconds(input: EtaInput): {
  seconds: number | null;
  itemsPerMinute: number | null;
  bytesPerMinute: number;
} {
  const { measured, left } = input;
  if (!measured || measured.seconds < MEASURE_AFTER_SECONDS)
    return { seconds: null, itemsPerMinute: null, bytesPerMinute: 0 };
  const itemsPerSecond = measured.items / measured.seconds;
  const bytesPerSecond = measured.bytes / measured.seconds;
  const times: number[] = [];
  if (left.items !== null && itemsPerSecond > 0) times.push(left.items / itemsPerSecond);
  if (left.bytes !== null && bytesPerSecond > 0) times.push(left.bytes / bytesPerSecond);
  return {
    seconds: times.length > 0 ? Math.max(...times) : null,
    itemsPerMinute: measured.items > 0 ? itemsPerSecond * 60 : null,
    bytesPerMinute: bytesPerSecond * 60,
  };
}

export function estimateEta(input: EtaInput): Eta {
  const { left, work } = input;
  const measured = measuredSeconds(input);
  const costs = workCosts(input.model, work);
  if (!costs) {
    return {
      itemsPerMinute: null,
      bytesPerSecond: null,
      measuredItemsPerMinute: measured.itemsPerMinute,
      limit: { kind: "none", text: ETA_LIMIT_TEXTS.noQuota },
      seconds: measured.seconds === null ? null : wholeSeconds(measured.seconds),
    };
  }
  const units = unitsOf(costs, left);
  const minute = bindingBound(minuteBounds(input, costs, units)) as Bound;
  const quota = bindingBound([minute, ...dailyBounds(input, costs, units)]) ?? minute;
  const quotaSeconds = quota.seconds;
  const pace = (seconds: number | null) => ({
    itemsPerMinute:
      seconds !== null && seconds > 0 && left.items !== null
        ? (left.items / seconds) * 60
        : minute.unitsPerMinute !== undefined
          ? minute.unitsPerMinute / costs.perItem
          : null,
    bytesPerSecond: seconds !== null && seconds > 0 && left.bytes !== null ? left.bytes / seconds : null,
  });
  if (measured.seconds !== null && (quotaSeconds === null || measured.seconds > quotaSeconds)) {
    return {
      ...pace(quotaSeconds),
      measuredItemsPerMinute: measured.itemsPerMinute,
      limit: {
        kind: "measured",
        // Slower than the quota's time when there is one; else the only time there is.
        text: ETA_LIMIT_TEXTS.measured(measured, ITEM_NAMES[work], quotaSeconds === null ? null : quota.text),
      },
      seconds: wholeSeconds(measured.seconds),
    };
  }
  return {
    ...pace(quotaSeconds),
    measuredItemsPerMinute: measured.itemsPerMinute,
    limit: { kind: quota.kind, text: quota.text },
    seconds: quotaSeconds === null ? null : wholeSeconds(quotaSeconds),
  };
}

/**
 * The pace a screen shows beside the limit that sets it: the run's measured pace, but never above the pace
 * of a Google limit named as setting it. A run may measure faster than the limit for a while (a burst
 * Google allowed, items that needed no call), and "434 items a minute · pace set by Gmail's import limit of
 * 240 messages a minute" contradicts itself: the limit is what the rest will go at, and what the time left
 * follows. Its own measured pace, or no quota at all, shows as measured.
 */
export function paceShown(eta: Eta): number | null {
  const measured = eta.measuredItemsPerMinute;
  if (measured === null) return null;
  const quotaBinds = eta.limit.kind !== "measured" && eta.limit.kind !== "none";
  return quotaBinds && eta.itemsPerMinute !== null && measured > eta.itemsPerMinute
    ? eta.itemsPerMinute
    : measured;
}

/**
 * What the project's daily budget leaves backups of an API now (`daily-budget.ts`: the pace's allowance less
 * what the project spent today), shared by `runs`; undefined where the model has no daily threshold.
 */
export function backupDailyUnits(
  model: QuotaModel,
  api: GoogleApi,
  spentToday: number,
  instant: number,
  runs: number,
): DailyShare | undefined {
  const budget = dailyBudget(model, api);
  if (budget === undefined) return undefined;
  const left = Math.max(0, pacedAllowance(budget, quotaDayOf(instant), instant) - spentToday);
  return { left, perDay: budget, runs };
}

/**
 * What the daily threshold keeps for restores (the part backups may not spend, `BUDGET_FRACTION`), shared
 * by `runs` restores; undefined where the model has no daily threshold.
 */
export function restoreDailyUnits(model: QuotaModel, api: GoogleApi, runs: number): DailyShare | undefined {
  const threshold = model.dailyUnits[api];
  if (threshold === undefined) return undefined;
  const reserve = threshold - (dailyBudget(model, api) ?? 0);
  return { left: reserve, perDay: reserve, runs };
}
