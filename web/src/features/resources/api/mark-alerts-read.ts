import { markAlertsReadResponseSchema } from "@alpvault/contracts/schemas/organizations";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { resourcesKeys } from "./list-resources";

/** `POST /v1/organizations/{id}/alerts/mark-all-read`: every alert of the organisation becomes read. */
export async function markAlertsRead(organizationId: string): Promise<{ marked: number }> {
  return decodeAnswer(
    markAlertsReadResponseSchema,
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/alerts/mark-all-read`),
  );
}

export function useMarkAlertsRead() {
  return useApiMutation(markAlertsRead, (organizationId) => [resourcesKeys.all(organizationId)]);
}
