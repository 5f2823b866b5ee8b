import { api } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { policiesKeys } from "./list-policies";

/**
 * `DELETE /v1/organizations/{id}/policies/{policyId}` (paid plans). A policy with resources is refused
 * with 409 and the required text, which the screen shows as it is.
 */
export async function deletePolicy(organizationId: string, policyId: string): Promise<void> {
  await api.delete<unknown>(
    `/organizations/${encodeURIComponent(organizationId)}/policies/${encodeURIComponent(policyId)}`,
  );
}

export function useDeletePolicy() {
  return useApiMutation(deletePolicy, (organizationId) => [policiesKeys.all(organizationId)]);
}
