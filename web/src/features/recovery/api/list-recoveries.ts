import type { RecoveryList } from "@alpvault/contracts/recovery";
import { recoveryListSchema } from "@alpvault/contracts/schemas/recovery";
import { skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** `GET /v1/organizations/{id}/recoveries?resourceId=`: the resource's newest recoveries, from it or to it. */
export async function listRecoveries(
  organizationId: string,
  resourceId: string,
  signal?: AbortSignal,
): Promise<RecoveryList> {
  const answer = await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/recoveries`, {
    query: { resourceId },
    signal,
  });
  return decodeAnswer(recoveryListSchema, answer);
}

/** How long after each answer the list is read again while a recovery is under way. */
export const RECOVERIES_POLL_MS = 2000;

export function useResourceRecoveries(organizationId: string | null, resourceId: string) {
  return useQuery({
    queryKey: ["recoveries", organizationId, resourceId],
    queryFn: organizationId ? ({ signal }) => listRecoveries(organizationId, resourceId, signal) : skipToken,
    refetchIntervalInBackground: true,
    refetchInterval: (query) =>
      query.state.data?.recoveries.some(
        (recovery) => recovery.state === "pending" || recovery.state === "running",
      )
        ? RECOVERIES_POLL_MS
        : false,
  });
}
