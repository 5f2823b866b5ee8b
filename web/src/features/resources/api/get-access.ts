import type { AccessResponse } from "@alpvault/contracts/organizations";
import { accessResponseSchema } from "@alpvault/contracts/schemas/organizations";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { skipToken, useQuery } from "@tanstack/react-query";
import { resourcesKeys } from "./list-resources";

/** How long an answer stands: each check asks Google for a token per scope set. */
const ACCESS_STALE_MS = 5 * 60_000;

/** `GET /v1/organizations/{id}/access`: what the installation grants, service by service. */
export async function getAccess(organizationId: string, signal?: AbortSignal): Promise<AccessResponse> {
  return decodeAnswer(
    accessResponseSchema,
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/access`, { signal }),
  );
}

export function useServiceAccess(organizationId: string | null) {
  return useQuery({
    queryKey: resourcesKeys.access(organizationId),
    queryFn: organizationId === null ? skipToken : ({ signal }) => getAccess(organizationId, signal),
    staleTime: ACCESS_STALE_MS,
  });
}
