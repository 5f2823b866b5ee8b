import type { AuditPage } from "@alpvault/contracts/audit";
import { auditPageSchema } from "@alpvault/contracts/schemas/audit";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";

export interface AuditQuery {
  /** YYYY-MM-DD, inclusive. */
  start: string;
  /** YYYY-MM-DD, inclusive. */
  end: string;
  page: number;
  pageSize: number;
}

/** `GET /v1/organizations/{id}/audit-logs`: one page of entries in a date range, newest first. */
export async function getAuditLogs(
  organizationId: string,
  query: AuditQuery,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return decodeAnswer(
    auditPageSchema,
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/audit-logs`, {
      query: { ...query },
      signal,
    }),
  );
}

export const auditLogsKeys = {
  all: (organizationId: string | null) => ["audit-logs", organizationId] as const,
  page: (organizationId: string | null, query: AuditQuery) =>
    [...auditLogsKeys.all(organizationId), query] as const,
};

export function useAuditLogs(organizationId: string | null, query: AuditQuery) {
  return useQuery({
    queryKey: auditLogsKeys.page(organizationId, query),
    queryFn: organizationId ? ({ signal }) => getAuditLogs(organizationId, query, signal) : skipToken,
    placeholderData: keepPreviousData,
  });
}
