import type { DrillRunDetail } from "@alpvault/contracts/drills";
import { drillRunDetailSchema } from "@alpvault/contracts/schemas/drills";
import { skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { drillsKeys, drillsPath } from "./get-drill-settings";
import { DRILL_POLL_MS, isDrillActive } from "./list-drill-runs";

/** `GET /v1/organizations/{id}/drills/runs/{drillRunId}`: the run with every item it drew and how each compared. */
export async function getDrillRun(
  organizationId: string,
  drillRunId: string,
  signal?: AbortSignal,
): Promise<DrillRunDetail> {
  const answer = await api.get<unknown>(
    `${drillsPath(organizationId)}/runs/${encodeURIComponent(drillRunId)}`,
    { signal },
  );
  return decodeAnswer(drillRunDetailSchema, answer);
}

/** The run (none: nothing is asked), read again every `DRILL_POLL_MS` while it is pending or running. */
export function useDrillRun(organizationId: string | null, drillRunId: string | null) {
  return useQuery({
    queryKey: [...drillsKeys.runs(organizationId), "run", drillRunId],
    queryFn:
      organizationId && drillRunId
        ? ({ signal }) => getDrillRun(organizationId, drillRunId, signal)
        : skipToken,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => (query.state.data && isDrillActive(query.state.data) ? DRILL_POLL_MS : false),
  });
}
