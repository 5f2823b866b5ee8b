import { policiesResponseSchema } from "@alpvault/contracts/schemas/policies";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { resourcesKeys } from "./list-resources";

/** What the resources screen needs of a policy: to filter by it and to assign it. */
export interface PolicyChoice {
  policyId: string;
  name: string;
  isDefault: boolean;
}

/** `GET /v1/organizations/{id}/policies`, as names for the filter and the assign dialog. */
export async function listPolicyChoices(
  organizationId: string,
  signal?: AbortSignal,
): Promise<PolicyChoice[]> {
  const answer = await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/policies`, {
    signal,
  });
  return decodeAnswer(policiesResponseSchema, answer).policies.map(({ policyId, name, isDefault }) => ({
    policyId,
    name,
    isDefault,
  }));
}

export function usePolicyChoices(organizationId: string | null) {
  return useQuery({
    queryKey: resourcesKeys.policyChoices(organizationId),
    queryFn: organizationId === null ? skipToken : ({ signal }) => listPolicyChoices(organizationId, signal),
    placeholderData: keepPreviousData,
  });
}
