import type { RecoveryEstimate } from "@alpvault/contracts/eta";
import type { RecoveryRequest } from "@alpvault/contracts/recovery-request";
import { recoveryEstimateSchema } from "@alpvault/contracts/schemas/eta";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/**
 * `POST /v1/organizations/{id}/recoveries/estimate`: with the body a recovery would be started with, what it
 * would restore (items, bytes) and about how long it would take, with the limit that sets the pace
 * (`durationText` and the limit's `text` phrase it). Nothing is started; 400, 403 and 404 reject with the
 * API's text, as the recovery itself would.
 */
export async function estimateRecovery(
  organizationId: string,
  request: RecoveryRequest,
  signal?: AbortSignal,
): Promise<RecoveryEstimate> {
  return decodeAnswer(
    recoveryEstimateSchema,
    await api.post<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/recoveries/estimate`,
      request,
      { signal },
    ),
  );
}

export const recoveryEstimateKeys = {
  all: (organizationId: string | null) => ["recovery-estimates", organizationId] as const,
  one: (organizationId: string | null, request: RecoveryRequest | null) =>
    [...recoveryEstimateKeys.all(organizationId), request] as const,
};

/**
 * The estimate of `request` (none asked while it is null, e.g. until the form is valid). While a changed
 * request is estimated, the previous answer stays (`isPlaceholderData`).
 */
export function useRecoveryEstimate(organizationId: string | null, request: RecoveryRequest | null) {
  return useQuery({
    queryKey: recoveryEstimateKeys.one(organizationId, request),
    queryFn:
      organizationId && request
        ? ({ signal }) => estimateRecovery(organizationId, request, signal)
        : skipToken,
    placeholderData: keepPreviousData,
  });
}
