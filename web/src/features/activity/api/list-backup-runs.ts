import type { BackupRunsPage } from "@alpvault/contracts/activity";
import { backupRunsPageSchema } from "@alpvault/contracts/schemas/activity";
import { skipToken, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { activityKeys } from "./get-activity";

/** `GET /v1/organizations/{id}/resources/{resourceId}/runs`: a page of the resource's runs, newest first. */
export async function listBackupRuns(
  organizationId: string,
  resourceId: string,
  pageToken: string | null,
  signal?: AbortSignal,
): Promise<BackupRunsPage> {
  const answer = await api.get<unknown>(
    `/organizations/${encodeURIComponent(organizationId)}/resources/${encodeURIComponent(resourceId)}/runs`,
    { query: pageToken ? { pageToken } : {}, signal },
  );
  return decodeAnswer(backupRunsPageSchema, answer);
}

/** How long after each answer the history is read again while its newest run is under way. */
export const RUNS_POLL_MS = 3000;

/** The resource's runs, page after page ("Show older runs"); read again while the newest one runs. */
export function useBackupRuns(organizationId: string | null, resourceId: string) {
  return useInfiniteQuery({
    queryKey: [...activityKeys.all(organizationId), "runs", resourceId],
    queryFn: organizationId
      ? ({ pageParam, signal }) => listBackupRuns(organizationId, resourceId, pageParam, signal)
      : skipToken,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextPageToken,
    refetchIntervalInBackground: true,
    refetchInterval: (query) =>
      query.state.data?.pages[0]?.runs[0]?.outcome === "running" ? RUNS_POLL_MS : false,
  });
}
