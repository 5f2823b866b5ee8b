import type { ActivityResponse } from "@alpvault/contracts/activity";
import { activityResponseSchema } from "@alpvault/contracts/schemas/activity";
import { skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** `GET /v1/organizations/{id}/activity?days=N`: the organisation's backups per day, oldest first. */
export async function getActivity(
  organizationId: string,
  days: number,
  signal?: AbortSignal,
): Promise<ActivityResponse> {
  const answer = await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/activity`, {
    query: { days },
    signal,
  });
  return decodeAnswer(activityResponseSchema, answer);
}

export const activityKeys = {
  all: (organizationId: string | null) => ["activity", organizationId] as const,
  days: (organizationId: string | null, days: number) => [...activityKeys.all(organizationId), days] as const,
};

export function useActivity(organizationId: string | null, days: number) {
  return useQuery({
    queryKey: activityKeys.days(organizationId, days),
    queryFn: organizationId ? ({ signal }) => getActivity(organizationId, days, signal) : skipToken,
  });
}
