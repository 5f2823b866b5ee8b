import { isAuditOperation, type AuditEntry, type AuditPage } from "@alpvault/contracts/audit";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";

export interface AuditQuery {
  /** YYYY-MM-DD, inclusive. */
  start: string;
  /** YYYY-MM-DD, inclusive. */
  end: string;
  page: number;
  pageSize: number;
}

function decodeEntry(value: unknown): AuditEntry {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (
    typeof v.entryId === "string" &&
    typeof v.date === "string" &&
    typeof v.actor === "string" &&
    isAuditOperation(v.operation) &&
    typeof v.object === "string" &&
    (v.failureReason === null || typeof v.failureReason === "string")
  ) {
    return {
      entryId: v.entryId,
      date: v.date,
      actor: v.actor,
      operation: v.operation,
      object: v.object,
      failureReason: v.failureReason,
    };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

export function decodeAuditPage(value: unknown): AuditPage {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const numbers = ["page", "pageSize", "totalEntries", "totalPages"] as const;
  if (Array.isArray(v.entries) && numbers.every((key) => typeof v[key] === "number")) {
    return {
      entries: v.entries.map(decodeEntry),
      page: v.page as number,
      pageSize: v.pageSize as number,
      totalEntries: v.totalEntries as number,
      totalPages: v.totalPages as number,
    };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `GET /v1/organizations/{id}/audit-logs`: one page of entries in a date range, newest first. */
export async function getAuditLogs(
  organizationId: string,
  query: AuditQuery,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return decodeAuditPage(
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
