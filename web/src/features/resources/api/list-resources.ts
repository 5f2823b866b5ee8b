import type { ResourcesPage, ResourcesQuery } from "@alpvault/contracts/organizations";
import { resourcesPageSchema } from "@alpvault/contracts/schemas/organizations";
import { keepPreviousData, skipToken, useQuery, type Query, type QueryKey } from "@tanstack/react-query";
import { api, type ApiError } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** `GET /v1/organizations/{id}/resources`: one page of resources with search, filters and sorting. */
export async function listResources(
  organizationId: string,
  query: ResourcesQuery,
  signal?: AbortSignal,
): Promise<ResourcesPage> {
  const answer = await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/resources`, {
    query: { ...query },
    signal,
  });
  return decodeAnswer(resourcesPageSchema, answer);
}

/**
 * The query keys of the resources screen's data: the list, and beside it what changes with it (analytics,
 * alerts, the policies to choose from). A sync, an assignment or marking alerts read invalidates them all.
 */
export const resourcesKeys = {
  all: (organizationId: string | null) => ["resources", organizationId] as const,
  lists: (organizationId: string | null) => [...resourcesKeys.all(organizationId), "list"] as const,
  list: (organizationId: string | null, query: ResourcesQuery) =>
    [...resourcesKeys.lists(organizationId), query] as const,
  analytics: (organizationId: string | null) => [...resourcesKeys.all(organizationId), "analytics"] as const,
  alerts: (organizationId: string | null) => [...resourcesKeys.all(organizationId), "alerts"] as const,
  access: (organizationId: string | null) => [...resourcesKeys.all(organizationId), "access"] as const,
  policyChoices: (organizationId: string | null) =>
    [...resourcesKeys.all(organizationId), "policy-choices"] as const,
};

/** Reads a page again after this long, or not again (false), given the query as it stands. */
export type RefetchInterval = (
  query: Query<ResourcesPage, ApiError, ResourcesPage, QueryKey>,
) => number | false;

/** One page of resources; `refetchInterval` keeps it live (see `useLiveResources`). */
export function useResources(
  organizationId: string | null,
  query: ResourcesQuery,
  refetchInterval?: RefetchInterval,
) {
  return useQuery({
    queryKey: resourcesKeys.list(organizationId, query),
    queryFn:
      organizationId === null ? skipToken : ({ signal }) => listResources(organizationId, query, signal),
    placeholderData: keepPreviousData,
    ...(refetchInterval ? { refetchInterval, refetchIntervalInBackground: true } : {}),
  });
}
