import type { DrillRun } from "@alpvault/contracts/drills";
import { api } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { drillsKeys, drillsPath } from "./get-drill-settings";
import { decodeDrillRun } from "./list-drill-runs";

/** `POST /v1/organizations/{id}/drills/run`: a drill now (its run, pending). */
export async function startDrill(organizationId: string): Promise<DrillRun> {
  return decodeDrillRun(await api.post<unknown>(`${drillsPath(organizationId)}/run`));
}

export function useStartDrill() {
  return useApiMutation(startDrill, (organizationId) => [drillsKeys.runs(organizationId)]);
}
