import type { Alert, AlertsResponse } from "@alpvault/contracts/organizations";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { resourcesKeys } from "./list-resources";

const KINDS = [
  "resources-added",
  "resources-removed",
  "backup-failed",
  "integrity-damaged",
  "storage",
  "billing",
  "drill-failed",
] as const;

function decodeAlert(value: unknown): Alert {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (
    typeof v.alertId === "string" &&
    typeof v.createdAt === "string" &&
    (KINDS as readonly unknown[]).includes(v.kind) &&
    typeof v.message === "string" &&
    typeof v.read === "boolean"
  ) {
    return {
      alertId: v.alertId,
      createdAt: v.createdAt,
      kind: v.kind as Alert["kind"],
      message: v.message,
      read: v.read,
    };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

export function decodeAlerts(value: unknown): AlertsResponse {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (Array.isArray(v.alerts) && typeof v.unread === "number") {
    return { alerts: v.alerts.map(decodeAlert), unread: v.unread };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `GET /v1/organizations/{id}/alerts`: the latest alerts and how many are unread. */
export async function getAlerts(organizationId: string, signal?: AbortSignal): Promise<AlertsResponse> {
  return decodeAlerts(
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/alerts`, { signal }),
  );
}

export function useAlerts(organizationId: string | null) {
  return useQuery({
    queryKey: resourcesKeys.alerts(organizationId),
    queryFn: organizationId === null ? skipToken : ({ signal }) => getAlerts(organizationId, signal),
    placeholderData: keepPreviousData,
  });
}
