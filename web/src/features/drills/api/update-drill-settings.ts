import type { DrillSettings, DrillSettingsRequest } from "@alpvault/contracts/drills";
import { api } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { decodeDrillSettings, drillsKeys, drillsPath } from "./get-drill-settings";

/** `PUT /v1/organizations/{id}/drills`: saves the settings (enable, sandbox, sample size, schedule). */
export async function updateDrillSettings(
  organizationId: string,
  input: DrillSettingsRequest,
): Promise<DrillSettings> {
  return decodeDrillSettings(await api.put<unknown>(drillsPath(organizationId), input));
}

export function useUpdateDrillSettings() {
  return useApiMutation(updateDrillSettings, (organizationId) => [drillsKeys.settings(organizationId)]);
}
