import type { IntegrityReport, VerifyRun } from "@alpvault/contracts/integrity";
import { integrityReportSchema } from "@alpvault/contracts/schemas/integrity";
import { skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** How long after each answer the report is read again while a check of the resource is under way. */
export const INTEGRITY_POLL_MS = 2000;

export const integrityKeys = {
  all: (organizationId: string | null) => ["integrity", organizationId] as const,
};

/** A verification still to end. */
export const isVerifyUnderWay = (run: VerifyRun) => run.state === "pending" || run.state === "running";

/**
 * `GET /v1/organizations/{id}/integrity`: every resource's last verification, the recent runs, and when the
 * organisation's daily verification is next due.
 */
export async function getIntegrity(organizationId: string, signal?: AbortSignal): Promise<IntegrityReport> {
  const answer = await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/integrity`, {
    signal,
  });
  return decodeAnswer(integrityReportSchema, answer);
}

/**
 * The report, read again `INTEGRITY_POLL_MS` after each answer while a run that checks `resourceId` is
 * pending or running, or while the run `followed` (one the admin started) has not ended in it yet.
 */
export function useIntegrity(organizationId: string | null, resourceId: string, followed: string | null) {
  return useQuery({
    queryKey: integrityKeys.all(organizationId),
    queryFn: organizationId ? ({ signal }) => getIntegrity(organizationId, signal) : skipToken,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => {
      const runs = query.state.data?.runs ?? [];
      const followedRun = runs.find((run) => run.runId === followed);
      const underWay = runs.some((run) => isVerifyUnderWay(run) && run.resourceIds.includes(resourceId));
      return underWay || (followed !== null && (!followedRun || isVerifyUnderWay(followedRun)))
        ? INTEGRITY_POLL_MS
        : false;
    },
  });
}
