import { useEffect, useState } from "react";
import type { RegionsResponse } from "@alpvault/contracts/organizations";
import type { Region } from "@alpvault/contracts/regions";
import { api, ApiError } from "@/lib/api-client";

/** GET /v1/regions (docs/requirements.md#calls-the-web-makes): the backup regions offered at onboarding. */
export async function getRegions(): Promise<Region[]> {
  const answer = await api.get<RegionsResponse>("/regions");
  return answer.regions;
}

/** The regions, loaded once (the session already holds them; this is for screens without a session). */
export function useRegions() {
  const [regions, setRegions] = useState<Region[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    let active = true;
    getRegions().then(
      (loaded) => active && setRegions(loaded),
      (caught: unknown) => active && setError(caught instanceof ApiError ? caught : null),
    );
    return () => {
      active = false;
    };
  }, []);
  return { regions, error };
}
