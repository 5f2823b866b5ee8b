import type { DrillSettings, DrillSettingsRequest } from "@alpvault/contracts/drills";
import { drillSettingsSchema } from "@alpvault/contracts/schemas/drills";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { drillsKeys, drillsPath } from "./get-drill-settings";

/** `PUT /v1/organizations/{id}/drills`: saves the settings (enable, sandbox, sample size, schedule). */
export async function updateDrillSettings(
  organizationId: string,
  input: DrillSettingsRequest,
): Promise<DrillSettings> {
  return decodeAnswer(drillSettingsSchema, await api.put<unknown>(drillsPath(organizationId), input));
}

export function useUpdateDrillSettings() {
  return useApiMutation(updateDrillSettings, (organizationId) => [drillsKeys.settings(organizationId)]);
}
