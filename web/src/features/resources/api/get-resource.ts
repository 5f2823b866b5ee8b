import type { ResourceDetail } from "@alpvault/contracts/organizations";
import { resourceDetailSchema } from "@alpvault/contracts/schemas/organizations";
import { skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { resourcesKeys } from "./list-resources";

/** `GET /v1/organizations/{id}/resources/{resourceId}`: one resource with its item counts and live backup. */
export async function getResource(
  organizationId: string,
  resourceId: string,
  signal?: AbortSignal,
): Promise<ResourceDetail> {
  const answer = await api.get<unknown>(
    `/organizations/${encodeURIComponent(organizationId)}/resources/${encodeURIComponent(resourceId)}`,
    { signal },
  );
  return decodeAnswer(resourceDetailSchema, answer);
}

/** How long after each answer the resource is read again while its backup is under way. */
export const RESOURCE_POLL_MS = 2000;

/** The resource (under the resources' keys: a sync, an assignment or a backup started reads it again). */
export function useResource(organizationId: string | null, resourceId: string) {
  return useQuery({
    queryKey: [...resourcesKeys.all(organizationId), "resource", resourceId],
    queryFn: organizationId ? ({ signal }) => getResource(organizationId, resourceId, signal) : skipToken,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => (query.state.data?.activeBackup ? RESOURCE_POLL_MS : false),
  });
}
