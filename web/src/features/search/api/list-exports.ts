import type { ExportJob, ExportList } from "@alpvault/contracts/exports";
import { exportListSchema } from "@alpvault/contracts/schemas/exports";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { skipToken, useQuery } from "@tanstack/react-query";

/** Where an organisation's export jobs live in the API. */
export function exportsPath(organizationId: string): string {
  return `/organizations/${encodeURIComponent(organizationId)}/exports`;
}

/** `GET /v1/organizations/{id}/exports`: the organisation's export jobs, newest first. */
export async function listExports(organizationId: string, signal?: AbortSignal): Promise<ExportList> {
  return decodeAnswer(exportListSchema, await api.get<unknown>(exportsPath(organizationId), { signal }));
}

/** How long after each answer the list is read again while an export is under way. */
export const EXPORTS_POLL_MS = 2000;

export const isExportUnderWay = (job: ExportJob) => job.state === "pending" || job.state === "running";

/** The query keys of the organisation's export jobs (starting one invalidates them). */
export const exportsKeys = {
  all: (organizationId: string | null) => ["exports", organizationId] as const,
};

/** The export jobs, read again every `EXPORTS_POLL_MS` while one is under way. */
export function useExports(organizationId: string | null) {
  return useQuery({
    queryKey: exportsKeys.all(organizationId),
    queryFn: organizationId ? ({ signal }) => listExports(organizationId, signal) : skipToken,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => (query.state.data?.exports.some(isExportUnderWay) ? EXPORTS_POLL_MS : false),
  });
}
