import type { PoliciesResponse } from "@alpvault/contracts/policies";
import { policiesResponseSchema } from "@alpvault/contracts/schemas/policies";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** `GET /v1/organizations/{id}/policies`: every policy (default first) and the organisation's plan. */
export async function listPolicies(organizationId: string, signal?: AbortSignal): Promise<PoliciesResponse> {
  return decodeAnswer(
    policiesResponseSchema,
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/policies`, { signal }),
  );
}

/** The query keys of the organisation's policies (a change to a policy invalidates them). */
export const policiesKeys = {
  all: (organizationId: string | null) => ["policies", organizationId] as const,
};

export function usePolicies(organizationId: string | null) {
  return useQuery({
    queryKey: policiesKeys.all(organizationId),
    queryFn: organizationId === null ? skipToken : ({ signal }) => listPolicies(organizationId, signal),
    placeholderData: keepPreviousData,
  });
}
