import type { AutoAddSeatsResponse } from "@alpvault/contracts/billing";
import { autoAddSeatsResponseSchema } from "@alpvault/contracts/schemas/billing";
import { useApiMutation } from "@/lib/query";
import { putAccountSetting } from "./account-setting";

/** `PUT /v1/organizations/{id}/settings/auto-add-seats`: raises the seats to the active mailboxes (paid plans). */
export function setAutoAddSeats(organizationId: string, enabled: boolean): Promise<AutoAddSeatsResponse> {
  return putAccountSetting(organizationId, "auto-add-seats", enabled, autoAddSeatsResponseSchema);
}

export function useSetAutoAddSeats() {
  return useApiMutation(setAutoAddSeats);
}
