import type { AutoAddStorageResponse } from "@alpvault/contracts/billing";
import { autoAddStorageResponseSchema } from "@alpvault/contracts/schemas/billing";
import { useApiMutation } from "@/lib/query";
import { putAccountSetting } from "./account-setting";

/** `PUT /v1/organizations/{id}/settings/auto-add-storage`: adds storage packs when storage runs full. */
export function setAutoAddStorage(organizationId: string, enabled: boolean): Promise<AutoAddStorageResponse> {
  return putAccountSetting(organizationId, "auto-add-storage", enabled, autoAddStorageResponseSchema);
}

export function useSetAutoAddStorage() {
  return useApiMutation(setAutoAddStorage);
}
