import type { Policy, PolicyInput } from "@alpvault/contracts/policies";
import { policySchema } from "@alpvault/contracts/schemas/policies";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { policiesKeys } from "./list-policies";

/** `POST /v1/organizations/{id}/policies`: a new policy (paid plans; the frequency must fit the plan). */
export async function createPolicy(organizationId: string, input: PolicyInput): Promise<Policy> {
  return decodeAnswer(
    policySchema,
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/policies`, input),
  );
}

export function useCreatePolicy() {
  return useApiMutation(createPolicy, (organizationId) => [policiesKeys.all(organizationId)]);
}
