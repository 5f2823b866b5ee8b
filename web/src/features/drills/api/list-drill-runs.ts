import type {
  DrillCounts,
  DrillItem,
  DrillOutcome,
  DrillResourceResult,
  DrillRun,
  DrillRunsPage,
  DrillState,
} from "@alpvault/contracts/drills";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { drillsKeys, drillsPath } from "./get-drill-settings";

type Loose = Record<string, unknown>;
const asObject = (value: unknown): Loose =>
  typeof value === "object" && value !== null ? (value as Loose) : {};
const fail = (): never => {
  throw new ApiError(UNEXPECTED_ERROR);
};
const text = (value: unknown): string => (typeof value === "string" ? value : fail());
const textOrNull = (value: unknown): string | null => (value === null ? null : text(value));
const count = (value: unknown): number => (typeof value === "number" ? value : fail());
const STATES: readonly DrillState[] = ["pending", "running", "passed", "failed"];
const OUTCOMES: readonly DrillOutcome[] = ["matched", "mismatched", "failed", "skipped"];

function decodeCounts(value: unknown): DrillCounts {
  const v = asObject(value);
  return {
    sample: count(v.sample),
    matched: count(v.matched),
    mismatched: count(v.mismatched),
    failed: count(v.failed),
    skipped: count(v.skipped),
  };
}

export function decodeDrillItem(value: unknown): DrillItem {
  const v = asObject(value);
  const outcome =
    v.outcome === null ? null : OUTCOMES.includes(v.outcome as DrillOutcome) ? v.outcome : fail();
  return {
    itemKey: text(v.itemKey),
    resourceId: text(v.resourceId),
    resourceName: text(v.resourceName),
    service: v.service === "gmail" || v.service === "drive" ? v.service : fail(),
    name: text(v.name),
    outcome: outcome as DrillOutcome | null,
    reason: textOrNull(v.reason),
  };
}

export function decodeDrillRun(value: unknown): DrillRun {
  const v = asObject(value);
  if (!STATES.includes(v.state as DrillState) || !Array.isArray(v.resources) || !Array.isArray(v.problems)) {
    return fail();
  }
  return {
    drillRunId: text(v.drillRunId),
    state: v.state as DrillState,
    trigger: v.trigger === "schedule" ? "schedule" : "manual",
    requestedBy: text(v.requestedBy),
    requestedAt: text(v.requestedAt),
    startedAt: textOrNull(v.startedAt),
    finishedAt: textOrNull(v.finishedAt),
    durationMs: v.durationMs === null ? null : count(v.durationMs),
    sandboxResourceId: text(v.sandboxResourceId),
    sandboxEmail: text(v.sandboxEmail),
    sampleSize: count(v.sampleSize),
    counts: decodeCounts(v.counts),
    resources: v.resources.map((entry): DrillResourceResult => ({
      ...decodeCounts(entry),
      resourceId: text(asObject(entry).resourceId),
      name: text(asObject(entry).name),
    })),
    problems: v.problems.map(decodeDrillItem),
    failureReason: textOrNull(v.failureReason),
  };
}

/** `GET /v1/organizations/{id}/drills/runs`: the drill history, newest first. */
export async function listDrillRuns(
  organizationId: string,
  page: number,
  signal?: AbortSignal,
): Promise<DrillRunsPage> {
  const v = asObject(
    await api.get<unknown>(`${drillsPath(organizationId)}/runs`, { query: { page }, signal }),
  );
  if (!Array.isArray(v.runs)) return fail();
  return {
    runs: v.runs.map(decodeDrillRun),
    page: count(v.page),
    pageSize: count(v.pageSize),
    total: count(v.total),
  };
}

/** `reload` changes after a start, so the history shows the new run. */
/** How long after each answer the history is read again while a drill is pending or running. */
export const DRILL_POLL_MS = 2000;

export const isDrillActive = (run: DrillRun) => run.state === "pending" || run.state === "running";

/** One page of the history, read again every `DRILL_POLL_MS` while one of its drills is under way. */
export function useDrillRuns(organizationId: string | null, page: number) {
  return useQuery({
    queryKey: [...drillsKeys.runs(organizationId), page],
    queryFn: organizationId ? ({ signal }) => listDrillRuns(organizationId, page, signal) : skipToken,
    placeholderData: keepPreviousData,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => (query.state.data?.runs.some(isDrillActive) ? DRILL_POLL_MS : false),
  });
}
