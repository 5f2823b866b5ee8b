import type { ExportJob, ExportList } from "@alpvault/contracts/exports";
import { exportListSchema } from "@alpvault/contracts/schemas/exports";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { skipToken, useQuery } from "@tanstack/react-query";

/** Where an organisation's export jobs live in the API. */
export function exportsPath(organizationId: string): string {
  return `/organizations/${encodeURIComponent(organizationId)}/exports`;
}

/**
 * `GET /v1/organizations/{id}/exports`: the organisation's export jobs, newest first (the 10 newest of one
 * resource with `resourceId`).
 */
export async function listExports(
  organizationId: string,
  signal?: AbortSignal,
  resourceId?: string,
): Promise<ExportList> {
  const query = resourceId ? { resourceId } : {};
  return decodeAnswer(
    exportListSchema,
    await api.get<unknown>(exportsPath(organizationId), { query, signal }),
  );
}

/** How long after each answer the list is read again while an export is under way. */
export const EXPORTS_POLL_MS = 2000;

export const isExportUnderWay = (job: ExportJob) => job.state === "pending" || job.state === "running";

/** The query keys of the organisation's export jobs (starting one invalidates them). */
export const exportsKeys = {
  all: (organizationId: string | null) => ["exports", organizationId] as const,
  ofResource: (organizationId: string | null, resourceId: string) =>
    [...exportsKeys.all(organizationId), "resource", resourceId] as const,
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

/** The resource's newest export jobs, read again while one is under way. */
export function useResourceExports(organizationId: string | null, resourceId: string) {
  return useQuery({
    queryKey: exportsKeys.ofResource(organizationId, resourceId),
    queryFn: organizationId ? ({ signal }) => listExports(organizationId, signal, resourceId) : skipToken,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => (query.state.data?.exports.some(isExportUnderWay) ? EXPORTS_POLL_MS : false),
  });
}
