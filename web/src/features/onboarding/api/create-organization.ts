import { useCallback, useState } from "react";
import type { CreateOrganizationRequest, OrganizationSummary } from "@alpvault/contracts/organizations";
import type { Region } from "@alpvault/contracts/regions";
import { api, ApiError, regionalBaseUrl } from "@/lib/api-client";

/**
 * POST /v1/organizations {regionId}: the subscription set-up of the last onboarding step, sent to the chosen
 * region's API (the organisation's data is written there only). The region is irreversible; sending the
 * same region again is the retry of a failed set-up.
 */
export function createOrganization(region: Region): Promise<OrganizationSummary> {
  const request = { regionId: region.id } as CreateOrganizationRequest;
  return api.post<OrganizationSummary>("/organizations", request, {
    baseUrl: regionalBaseUrl(region.domain),
  });
}

export function useCreateOrganization() {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const create = useCallback(async (region: Region): Promise<boolean> => {
    setSubmitting(true);
    setError(null);
    try {
      await createOrganization(region);
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
