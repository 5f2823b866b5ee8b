/**
 * What the console shows of backups over time (docs/requirements.md#backup-activity): a resource's runs,
 * one by one, and the organisation's activity per day (runs by outcome, items and bytes backed up, the
 * protected storage per service).
 */
import type { BackedUpService, BackupFailureReason } from "./backups";

/**
 * How a run ended, as the history marks it: "ok" (every item backed up), "partial" (it ended, but some
 * items were skipped or failed: each is named with why), "failed" (the run stopped with a failure reason),
 * "running" (pending or under way).
 */
export type RunOutcomeMark = "ok" | "partial" | "failed" | "running";

/** One service's part of a run: how it ended and what it did not back up, by reason. */
export interface RunServiceSummary {
  state: "succeeded" | "failed" | "unavailable" | "running";
  failureReason: BackupFailureReason | null;
  /** Google's reason for a failed or unavailable service, or null. */
  detail: string | null;
  skipped: Record<string, number>;
}

/** An item a run could not back up, and why (Google's reason, "not-exportable"…). */
export interface RunItemProblem {
  /** The catalog's item key (Gmail message id, Drive file id). */
  itemKey: string;
  service: BackedUpService | null;
  reason: string;
}

/** One backup run of a resource (GET …/resources/{resourceId}/runs). */
export interface BackupRunSummary {
  runId: string;
  trigger: "schedule" | "backup-now" | "policy-assigned" | null;
  outcome: RunOutcomeMark;
  requestedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** Items and source bytes the run backed up (new or changed), and the bytes it added to storage. */
  items: number;
  bytes: number;
  storedBytes: number;
  failureReason: BackupFailureReason | null;
  services: Partial<Record<BackedUpService, RunServiceSummary>>;
  /** Items skipped or failed (every service, every reason). */
  skippedItems: number;
  /** The first items skipped or failed, with why (`skippedItems` counts them all). */
  problems: RunItemProblem[];
}

/** GET /v1/organizations/{id}/resources/{resourceId}/runs?pageSize=&pageToken=: newest first. */
export interface BackupRunsPage {
  runs: BackupRunSummary[];
  /** Asks for the next (older) page; null on the last one. */
  nextPageToken: string | null;
}

/** Runs per page of the history: 20 by default, at most 100. */
export const RUNS_PAGE_SIZE = { default: 20, max: 100 } as const;
/** The most item problems a run summary names. */
export const MAX_RUN_PROBLEMS = 20;

/** One day of the organisation's backups (UTC). */
export interface DailyActivity {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** Runs that ended that day, by outcome. */
  runs: { ok: number; partial: number; failed: number };
  /** Items and source bytes backed up that day (by the runs that ended that day). */
  items: number;
  bytes: number;
  /**
   * Protected storage per service at the end of the day (backed-up bytes of every resource, as the
   * resources' figures say): the last figure recorded that day, or the one before it carried forward;
   * null before the first backup. Every service's (a day recorded before Calendar and Contacts were
   * counted reads 0 for them).
   */
  storage: Record<BackedUpService, number> | null;
}

/** GET /v1/organizations/{id}/activity?days=N: the last N days (today included), oldest first. */
export interface ActivityResponse {
  days: DailyActivity[];
}

/** Days the activity covers: 30 by default, from 7 to 90. */
export const ACTIVITY_DAYS = { default: 30, min: 7, max: 90 } as const;

/** A day's success rate in percent (ok and partial runs count as ended, failed ones not); null without runs. */
export function successRate(runs: DailyActivity["runs"]): number | null {
  const all = runs.ok + runs.partial + runs.failed;
  return all === 0 ? null : Math.round(((runs.ok + runs.partial) / all) * 1000) / 10;
}

export const ACTIVITY_MESSAGES = {
  invalidDays: `Days must be a whole number from ${ACTIVITY_DAYS.min} to ${ACTIVITY_DAYS.max}`,
  invalidPageSize: `Page size must be a whole number from 1 to ${RUNS_PAGE_SIZE.max}`,
  invalidPageToken: "This page token does not belong to this list. Start again from the first page.",
  resourceNotFound: "Resource not found",
  invalidResourceId: "resourceId must name one resource",
} as const;
