import type { DrillRun } from "@alpvault/contracts/drills";
import { drillRunSchema } from "@alpvault/contracts/schemas/drills";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { drillsKeys, drillsPath } from "./get-drill-settings";

/** `POST /v1/organizations/{id}/drills/run`: a drill now (its run, pending). */
export async function startDrill(organizationId: string): Promise<DrillRun> {
  return decodeAnswer(drillRunSchema, await api.post<unknown>(`${drillsPath(organizationId)}/run`));
}

export function useStartDrill() {
  return useApiMutation(startDrill, (organizationId) => [drillsKeys.runs(organizationId)]);
}
