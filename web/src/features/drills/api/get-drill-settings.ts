import type { DrillSettings } from "@alpvault/contracts/drills";
import { drillSettingsSchema } from "@alpvault/contracts/schemas/drills";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { skipToken, useQuery } from "@tanstack/react-query";

export const drillsPath = (organizationId: string) =>
  `/organizations/${encodeURIComponent(organizationId)}/drills`;

/** `GET /v1/organizations/{id}/drills`: the restore drill settings. */
export async function getDrillSettings(organizationId: string, signal?: AbortSignal): Promise<DrillSettings> {
  return decodeAnswer(drillSettingsSchema, await api.get<unknown>(drillsPath(organizationId), { signal }));
}

/** The query keys of the restore drills: the settings, and under them the history of runs. */
export const drillsKeys = {
  all: (organizationId: string | null) => ["drills", organizationId] as const,
  settings: (organizationId: string | null) => [...drillsKeys.all(organizationId), "settings"] as const,
  runs: (organizationId: string | null) => [...drillsKeys.all(organizationId), "runs"] as const,
};

export function useDrillSettings(organizationId: string | null) {
  return useQuery({
    queryKey: drillsKeys.settings(organizationId),
    queryFn: organizationId ? ({ signal }) => getDrillSettings(organizationId, signal) : skipToken,
  });
}
