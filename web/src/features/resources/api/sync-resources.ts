import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { resourcesKeys } from "./list-resources";

export interface SyncResult {
  added: number;
  removed: number;
}

export function decodeSyncResult(value: unknown): SyncResult {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof v.added === "number" && typeof v.removed === "number")
    return { added: v.added, removed: v.removed };
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `POST /v1/organizations/{id}/resources/sync`: re-reads the Workspace's users and shared drives. */
export async function syncResources(organizationId: string): Promise<SyncResult> {
  return decodeSyncResult(
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/resources/sync`),
  );
}

export function useSyncResources() {
  return useApiMutation(syncResources, (organizationId) => [resourcesKeys.all(organizationId)]);
}
