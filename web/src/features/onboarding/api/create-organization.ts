import { useCallback, useState } from "react";
import type { CreateOrganizationRequest, OrganizationSummary } from "@alpvault/contracts/organizations";
import { api, ApiError } from "@/lib/api-client";

/**
 * POST /v1/organizations {regionId}: the subscription set-up of the last onboarding step. The region is
 * irreversible; sending the same region again is the retry of a failed set-up.
 */
export function createOrganization(request: CreateOrganizationRequest): Promise<OrganizationSummary> {
  return api.post<OrganizationSummary>("/organizations", request);
}

export function useCreateOrganization() {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const create = useCallback(async (request: CreateOrganizationRequest): Promise<boolean> => {
    setSubmitting(true);
    setError(null);
    try {
      await createOrganization(request);
      return true;
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError({ code: 500, message: String(caught) }));
      return false;
    } finally {
      setSubmitting(false);
    }
  }, []);
  return { create, submitting, error };
}
