import type { AlertsResponse } from "@alpvault/contracts/organizations";
import { alertsResponseSchema } from "@alpvault/contracts/schemas/organizations";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { resourcesKeys } from "./list-resources";

/** `GET /v1/organizations/{id}/alerts`: the latest alerts and how many are unread. */
export async function getAlerts(organizationId: string, signal?: AbortSignal): Promise<AlertsResponse> {
  return decodeAnswer(
    alertsResponseSchema,
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
