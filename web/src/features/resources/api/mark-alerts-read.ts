import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { resourcesKeys } from "./list-resources";

export function decodeMarked(value: unknown): { marked: number } {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof v.marked === "number") return { marked: v.marked };
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `POST /v1/organizations/{id}/alerts/mark-all-read`: every alert of the organisation becomes read. */
export async function markAlertsRead(organizationId: string): Promise<{ marked: number }> {
  return decodeMarked(
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/alerts/mark-all-read`),
  );
}

export function useMarkAlertsRead() {
  return useApiMutation(markAlertsRead, (organizationId) => [resourcesKeys.all(organizationId)]);
}
