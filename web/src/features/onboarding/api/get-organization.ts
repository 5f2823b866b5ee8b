import { useEffect, useState } from "react";
import type { OrganizationDetails } from "@alpvault/contracts/organizations";
import { api, ApiError } from "@/lib/api-client";

/** GET /v1/organizations/{organizationId} (docs/requirements.md#calls-the-web-makes): total and maximum storage in bytes, plan name. */
export function getOrganization(organizationId: string): Promise<OrganizationDetails> {
  return api.get<OrganizationDetails>(`/organizations/${encodeURIComponent(organizationId)}`);
}

export function useOrganization(organizationId: string | null) {
  const [organization, setOrganization] = useState<OrganizationDetails | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (!organizationId) return;
    let active = true;
    getOrganization(organizationId).then(
      (loaded) => active && setOrganization(loaded),
      (caught: unknown) => active && setError(caught instanceof ApiError ? caught : null),
    );
    return () => {
      active = false;
    };
  }, [organizationId]);
  return { organization, error };
}
