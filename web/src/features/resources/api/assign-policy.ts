import type { AssignPolicyResponse } from "@alpvault/contracts/policies";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { resourcesKeys } from "./list-resources";

export function decodeAssigned(value: unknown): AssignPolicyResponse {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (
    typeof v.policyId === "string" &&
    typeof v.assigned === "number" &&
    typeof v.backupsQueued === "number"
  ) {
    return { policyId: v.policyId, assigned: v.assigned, backupsQueued: v.backupsQueued };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/**
 * `POST /v1/organizations/{id}/policies/{policyId}/assign`: the resources get the policy and become
 * protected; a backup of each is queued (spec §4).
 */
export async function assignPolicy(
  organizationId: string,
  policyId: string,
  resourceIds: string[],
): Promise<AssignPolicyResponse> {
  return decodeAssigned(
    await api.post<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/policies/${encodeURIComponent(policyId)}/assign`,
      { resourceIds },
    ),
  );
}

export function useAssignPolicy() {
  return useApiMutation(assignPolicy, (organizationId) => [resourcesKeys.all(organizationId)]);
}
