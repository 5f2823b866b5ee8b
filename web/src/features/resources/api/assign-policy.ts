import type { AssignPolicyResponse } from "@alpvault/contracts/policies";
import { assignPolicyResponseSchema } from "@alpvault/contracts/schemas/policies";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { resourcesKeys } from "./list-resources";

/**
 * `POST /v1/organizations/{id}/policies/{policyId}/assign`: the resources get the policy and become
 * protected; a backup of each is queued (docs/requirements.md#states-and-flows).
 */
export async function assignPolicy(
  organizationId: string,
  policyId: string,
  resourceIds: string[],
): Promise<AssignPolicyResponse> {
  return decodeAnswer(
    assignPolicyResponseSchema,
    await api.post<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/policies/${encodeURIComponent(policyId)}/assign`,
      { resourceIds },
    ),
  );
}

export function useAssignPolicy() {
  return useApiMutation(assignPolicy, (organizationId) => [resourcesKeys.all(organizationId)]);
}
