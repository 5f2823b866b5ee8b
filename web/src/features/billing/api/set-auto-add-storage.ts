import type { AutoAddStorageResponse } from "@alpvault/contracts/billing";
import { autoAddStorageResponseSchema } from "@alpvault/contracts/schemas/billing";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";

/** `PUT /v1/organizations/{id}/settings/auto-add-storage`: adds storage packs when storage runs full. */
export async function setAutoAddStorage(
  organizationId: string,
  enabled: boolean,
): Promise<AutoAddStorageResponse> {
  return decodeAnswer(
    autoAddStorageResponseSchema,
    await api.put<unknown>(`/organizations/${encodeURIComponent(organizationId)}/settings/auto-add-storage`, {
      enabled,
    }),
  );
}

export function useSetAutoAddStorage() {
  return useApiMutation(setAutoAddStorage);
}
