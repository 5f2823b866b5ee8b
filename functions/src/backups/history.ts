/**
 * Backups over time (docs/requirements.md#backup-activity): a resource's runs as its page's history (one
 * mark per run: ok, partial with its skipped items, failed with the reason), and the organisation's
 * activity per day for the activity charts. Reads: a page of runs costs its runs (plus one when empty);
 * the activity of N days costs the days that have a record plus one.
 */
import {
  ACTIVITY_DAYS,
  ACTIVITY_MESSAGES,
  MAX_RUN_PROBLEMS,
  RUNS_PAGE_SIZE,
  type ActivityResponse,
  type BackupRunSummary,
  type BackupRunsPage,
  type DailyActivity,
  type RunOutcomeMark,
  type RunServiceSummary,
} from "@alpvault/contracts/activity";
import { BACKED_UP_SERVICES, BACKUP_FAILURE_REASONS } from "@alpvault/contracts/backups";
import { isId } from "@alpvault/contracts/ids";
import { serviceOfItemKind } from "@alpvault/contracts/services";
import { DomainError } from "../lib/errors";
import { optionalTextParam, wholeNumberParam } from "../lib/query-params";
import type { Scope } from "../lib/tenancy";
import type { RunRecord } from "../engine/runner/catalog";
import { storageByService } from "../resources/service";
import {
  addRunToDay,
  readDays,
  recordDayStorage,
  resourceRuns,
  type RunsCursor,
  type StoredDay,
} from "./history-repo";

/** Items a run skipped or could not back up, every service and reason together. */
function skippedItems(run: RunRecord): number {
  const skipped = Object.values(run.services ?? {}).reduce(
    (sum, outcome) => sum + Object.values(outcome?.skipped ?? {}).reduce((a, b) => a + b, 0),
    0,
  );
  return Math.max(skipped, run.itemErrorCount);
}

/** How a run is marked in the history. */
export function outcomeOf(run: RunRecord): RunOutcomeMark {
  if (run.state === "failed") return "failed";
  if (run.state !== "succeeded") return "running";
  return skippedItems(run) > 0 ? "partial" : "ok";
}

function serviceSummaries(run: RunRecord): BackupRunSummary["services"] {
  const out: BackupRunSummary["services"] = {};
  for (const service of BACKED_UP_SERVICES) {
    const outcome = run.services?.[service];
    if (!outcome) continue;
    const state: RunServiceSummary["state"] =
      outcome.state ??
      (run.state === "failed" ? "failed" : run.state === "succeeded" ? "succeeded" : "running");
    out[service] = {
      state,
      failureReason:
        state === "failed" ? (outcome.failureReason ?? run.failureReason ?? "unknown-error") : null,
      detail: outcome.detail ?? null,
      skipped: outcome.skipped,
    };
  }
  return out;
}

/** What the history shows of a run. */
export function runSummary(run: RunRecord): BackupRunSummary {
  const progress =
    run.liveProgress && run.state === "running" && run.liveProgress.items > run.progress.items
      ? run.liveProgress
      : run.progress;
  const failureReason =
    run.state === "failed"
      ? run.failureReason && run.failureReason in BACKUP_FAILURE_REASONS
        ? run.failureReason
        : "unknown-error"
      : null;
  return {
    runId: run.runId,
    trigger: run.trigger ?? null,
    outcome: outcomeOf(run),
    requestedAt: run.requestedAt ?? null,
    startedAt: run.startedAt ?? null,
    finishedAt: run.finishedAt ?? null,
    items: progress.items,
    bytes: progress.bytes,
    storedBytes: progress.storedBytes,
    failureReason,
    services: serviceSummaries(run),
    skippedItems: skippedItems(run),
    problems: run.itemErrors.slice(0, MAX_RUN_PROBLEMS).map((error) => ({
      itemKey: String(error.itemKey),
      service: serviceOfItemKind(error.kind) ?? null,
      reason: String(error.reason),
    })),
  };
}

/** A page token: base64url of `{r: resourceId, t: requestedAt, i: runId}`; another resource's is invalid. */
function encodeToken(resourceId: string, after: RunsCursor): string {
  return Buffer.from(JSON.stringify({ r: resourceId, t: after.requestedAt, i: after.runId })).toString(
    "base64url",
  );
}

function decodeToken(token: string, resourceId: string): RunsCursor {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw DomainError.invalid(ACTIVITY_MESSAGES.invalidPageToken);
  }
  const { r, t, i } = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (r !== resourceId || typeof t !== "string" || Number.isNaN(Date.parse(t)) || t.length > 40 || !isId(i)) {
    throw DomainError.invalid(ACTIVITY_MESSAGES.invalidPageToken);
  }
  return { requestedAt: t, runId: i };
}

/** GET …/resources/{resourceId}/runs: a page of the resource's runs, newest first (the resource checked by the caller). */
export async function runHistory(
  scope: Scope,
  resourceId: string,
  query: Record<string, unknown>,
): Promise<BackupRunsPage> {
  const pageSize = wholeNumberParam(
    query,
    "pageSize",
    { min: 1, max: RUNS_PAGE_SIZE.max, fallback: RUNS_PAGE_SIZE.default },
    ACTIVITY_MESSAGES.invalidPageSize,
  );
  const token = optionalTextParam(query, "pageToken", 400, ACTIVITY_MESSAGES.invalidPageToken);
  const cursor = token === undefined ? undefined : decodeToken(token, resourceId);
  // One more than the page says whether another page follows.
  const found = await resourceRuns(scope, resourceId, pageSize + 1, cursor);
  const page = found.slice(0, pageSize);
  const last = page[page.length - 1];
  const more = found.length > pageSize && last?.requestedAt !== undefined;
  return {
    runs: page.map(runSummary),
    nextPageToken:
      more && last
        ? encodeToken(resourceId, { requestedAt: last.requestedAt ?? "", runId: last.runId })
        : null,
  };
}

/** YYYY-MM-DD (UTC) of an instant. */
function utcDay(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/**
 * Adds an ended run to the organisation's activity (its day's runs, items and bytes, once) and records the
 * protected storage per service as the run left it.
 */
export async function recordRunActivity(scope: Scope, run: RunRecord, now: Date): Promise<void> {
  const outcome = outcomeOf(run);
  if (outcome === "running") return;
  const ended = Date.parse(run.finishedAt ?? "");
  const day = utcDay(Number.isNaN(ended) ? now.getTime() : ended);
  await addRunToDay(scope, {
    runId: run.runId,
    day,
    outcome,
    items: run.progress.items,
    bytes: run.progress.bytes,
  });
  await recordDayStorage(scope, day, await storageByService(scope), now.toISOString());
}

/** The days from `days - 1` days ago to today, each filled from its record (storage carried forward). */
export function fillDays(
  stored: { days: StoredDay[]; storageBefore: StoredDay["storage"] },
  count: number,
  now: Date,
): DailyActivity[] {
  const byDate = new Map(stored.days.map((day) => [day.date, day]));
  const out: DailyActivity[] = [];
  let storage = stored.storageBefore;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let back = count - 1; back >= 0; back--) {
    const date = utcDay(today - back * 86_400_000);
    const day = byDate.get(date);
    if (day?.storage) storage = day.storage;
    out.push({
      date,
      runs: day?.runs ?? { ok: 0, partial: 0, failed: 0 },
      items: day?.items ?? 0,
      bytes: day?.bytes ?? 0,
      storage,
    });
  }
  return out;
}

/** GET …/activity?days=N: the organisation's last N days of backups, oldest first. */
export async function activity(
  scope: Scope,
  query: Record<string, unknown>,
  now: Date,
): Promise<ActivityResponse> {
  const count = wholeNumberParam(
    query,
    "days",
    { min: ACTIVITY_DAYS.min, max: ACTIVITY_DAYS.max, fallback: ACTIVITY_DAYS.default },
    ACTIVITY_MESSAGES.invalidDays,
  );
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const stored = await readDays(scope, utcDay(today - (count - 1) * 86_400_000), utcDay(today));
  return { days: fillDays(stored, count, now) };
}
