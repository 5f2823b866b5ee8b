import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { resourcesKeys } from "./list-resources";

/** What the resources screen needs of a policy: to filter by it and to assign it. */
export interface PolicyChoice {
  policyId: string;
  name: string;
  isDefault: boolean;
}

export function decodePolicyChoices(value: unknown): PolicyChoice[] {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (!Array.isArray(v.policies)) throw new ApiError(UNEXPECTED_ERROR);
  return v.policies.map((item: unknown) => {
    const p = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof p.policyId !== "string" || typeof p.name !== "string" || typeof p.isDefault !== "boolean") {
      throw new ApiError(UNEXPECTED_ERROR);
    }
    return { policyId: p.policyId, name: p.name, isDefault: p.isDefault };
  });
}

/** `GET /v1/organizations/{id}/policies`, as names for the filter and the assign dialog. */
export async function listPolicyChoices(
  organizationId: string,
  signal?: AbortSignal,
): Promise<PolicyChoice[]> {
  return decodePolicyChoices(
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/policies`, { signal }),
  );
}

export function usePolicyChoices(organizationId: string | null) {
  return useQuery({
    queryKey: resourcesKeys.policyChoices(organizationId),
    queryFn: organizationId === null ? skipToken : ({ signal }) => listPolicyChoices(organizationId, signal),
    placeholderData: keepPreviousData,
  });
}
