import type { ResourcesAnalytics } from "@alpvault/contracts/organizations";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { resourcesKeys } from "./list-resources";

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

export function decodeAnalytics(value: unknown): ResourcesAnalytics {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const dynamics = (
    typeof v.dataDynamics === "object" && v.dataDynamics !== null ? v.dataDynamics : {}
  ) as Record<string, unknown>;
  if (
    isNumber(v.protectedResources) &&
    isNumber(v.totalResources) &&
    isNumber(v.totalBackupBytes) &&
    (v.protectionStatus === "compliant" || v.protectionStatus === "unprotected") &&
    isNumber(dynamics.currentCycleBytes) &&
    isNumber(dynamics.lastCycleBytes) &&
    (dynamics.changePercent === null || isNumber(dynamics.changePercent)) &&
    isNumber(v.emails) &&
    isNumber(v.files)
  ) {
    return {
      protectedResources: v.protectedResources,
      totalResources: v.totalResources,
      totalBackupBytes: v.totalBackupBytes,
      protectionStatus: v.protectionStatus,
      dataDynamics: {
        currentCycleBytes: dynamics.currentCycleBytes,
        lastCycleBytes: dynamics.lastCycleBytes,
        changePercent: dynamics.changePercent,
      },
      emails: v.emails,
      files: v.files,
    };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `GET /v1/organizations/{id}/analytics`: the resources screen's figures (real aggregates). */
export async function getAnalytics(
  organizationId: string,
  signal?: AbortSignal,
): Promise<ResourcesAnalytics> {
  return decodeAnalytics(
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/analytics`, { signal }),
  );
}

export function useAnalytics(organizationId: string | null) {
  return useQuery({
    queryKey: resourcesKeys.analytics(organizationId),
    queryFn: organizationId === null ? skipToken : ({ signal }) => getAnalytics(organizationId, signal),
    placeholderData: keepPreviousData,
  });
}
