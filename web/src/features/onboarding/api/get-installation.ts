import { useCallback, useState } from "react";
import type { InstallationResponse } from "@alpvault/contracts/organizations";
import { api, ApiError } from "@/lib/api-client";

/** GET /v1/installation (docs/requirements.md#calls-the-web-makes): isAdmin, hasGWInstalled, organizations, user. */
export function getInstallation(): Promise<InstallationResponse> {
  return api.get<InstallationResponse>("/installation");
}

/** Checks the installation on demand (the app-install step's "Verify installation"). */
export function useVerifyInstallation() {
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const verify = useCallback(async (): Promise<InstallationResponse | null> => {
    setChecking(true);
    setError(null);
    try {
      return await getInstallation();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError({ code: 500, message: String(caught) }));
      return null;
    } finally {
      setChecking(false);
    }
  }, []);
  return { verify, checking, error };
}
