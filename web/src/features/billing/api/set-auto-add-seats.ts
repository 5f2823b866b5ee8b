import type { AutoAddSeatsResponse } from "@alpvault/contracts/billing";
import { autoAddSeatsResponseSchema } from "@alpvault/contracts/schemas/billing";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";

/** `PUT /v1/organizations/{id}/settings/auto-add-seats`: raises the seats to the active mailboxes (paid plans). */
export async function setAutoAddSeats(
  organizationId: string,
  enabled: boolean,
): Promise<AutoAddSeatsResponse> {
  return decodeAnswer(
    autoAddSeatsResponseSchema,
    await api.put<unknown>(`/organizations/${encodeURIComponent(organizationId)}/settings/auto-add-seats`, {
      enabled,
    }),
  );
}

export function useSetAutoAddSeats() {
  return useApiMutation(setAutoAddSeats);
}
