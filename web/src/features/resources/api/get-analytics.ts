import type { ResourcesAnalytics } from "@alpvault/contracts/organizations";
import { resourcesAnalyticsSchema } from "@alpvault/contracts/schemas/organizations";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { resourcesKeys } from "./list-resources";

/** `GET /v1/organizations/{id}/analytics`: the resources screen's figures (real aggregates). */
export async function getAnalytics(
  organizationId: string,
  signal?: AbortSignal,
): Promise<ResourcesAnalytics> {
  return decodeAnswer(
    resourcesAnalyticsSchema,
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
