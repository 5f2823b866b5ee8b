import type { Policy, PolicyInput } from "@alpvault/contracts/policies";
import { policySchema } from "@alpvault/contracts/schemas/policies";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { policiesKeys } from "./list-policies";

/** `PATCH /v1/organizations/{id}/policies/{policyId}`: changes a policy (paid plans). */
export async function updatePolicy(
  organizationId: string,
  policyId: string,
  changes: Partial<PolicyInput>,
): Promise<Policy> {
  return decodeAnswer(
    policySchema,
    await api.patch<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/policies/${encodeURIComponent(policyId)}`,
      changes,
    ),
  );
}

export function useUpdatePolicy() {
  return useApiMutation(updatePolicy, (organizationId) => [policiesKeys.all(organizationId)]);
}
