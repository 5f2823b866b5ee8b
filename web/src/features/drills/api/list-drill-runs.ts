import type { DrillRun, DrillRunsPage } from "@alpvault/contracts/drills";
import { drillRunsPageSchema } from "@alpvault/contracts/schemas/drills";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { drillsKeys, drillsPath } from "./get-drill-settings";

/** `GET /v1/organizations/{id}/drills/runs`: the drill history, newest first. */
export async function listDrillRuns(
  organizationId: string,
  page: number,
  signal?: AbortSignal,
): Promise<DrillRunsPage> {
  const answer = await api.get<unknown>(`${drillsPath(organizationId)}/runs`, { query: { page }, signal });
  return decodeAnswer(drillRunsPageSchema, answer);
}

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
