import {
  syncResourcesResponseSchema,
  type SyncResourcesResponse,
} from "@alpvault/contracts/schemas/organizations";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { resourcesKeys } from "./list-resources";

/** `POST /v1/organizations/{id}/resources/sync`: re-reads the Workspace's users and shared drives. */
export async function syncResources(organizationId: string): Promise<SyncResourcesResponse> {
  return decodeAnswer(
    syncResourcesResponseSchema,
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/resources/sync`),
  );
}

export function useSyncResources() {
  return useApiMutation(syncResources, (organizationId) => [resourcesKeys.all(organizationId)]);
}
