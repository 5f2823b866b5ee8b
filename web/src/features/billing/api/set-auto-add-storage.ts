import type { AutoAddStorageResponse } from "@alpvault/contracts/billing";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";

export function decodeAutoAddStorage(value: unknown): AutoAddStorageResponse {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof v.autoAddStorage === "boolean") return { autoAddStorage: v.autoAddStorage };
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `PUT /v1/organizations/{id}/settings/auto-add-storage`: adds storage packs when storage runs full. */
export async function setAutoAddStorage(
  organizationId: string,
  enabled: boolean,
): Promise<AutoAddStorageResponse> {
  return decodeAutoAddStorage(
    await api.put<unknown>(`/organizations/${encodeURIComponent(organizationId)}/settings/auto-add-storage`, {
      enabled,
    }),
  );
}

export function useSetAutoAddStorage() {
  return useApiMutation(setAutoAddStorage);
}
