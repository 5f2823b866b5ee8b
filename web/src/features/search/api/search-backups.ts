import { searchResponseSchema } from "@alpvault/contracts/schemas/search";
import type { SearchResponse, SearchService } from "@alpvault/contracts/search";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";

export interface SearchQuery {
  service: SearchService;
  /** A resource's name or email. */
  resource: string;
  keyword?: string;
  /** MM-DD-YYYY. */
  date?: string;
  page: number;
  pageSize: number;
  /** The previous page's `nextPageToken` (pages after the first). */
  pageToken?: string;
}

/**
 * `POST /v1/organizations/{id}/search`: one page of a resource's backed-up items. The terms go in the body,
 * never in the URL (a keyword or an address would be in every access log on the way).
 */
export async function searchBackups(
  organizationId: string,
  query: SearchQuery,
  signal?: AbortSignal,
): Promise<SearchResponse> {
  const answer = await api.post<unknown>(
    `/organizations/${encodeURIComponent(organizationId)}/search`,
    { ...query },
    { signal },
  );
  return decodeAnswer(searchResponseSchema, answer);
}

/** Searches when there is a query (null before the first search). */
export const searchKeys = {
  all: (organizationId: string | null) => ["search", organizationId] as const,
  query: (organizationId: string | null, query: SearchQuery | null) =>
    [...searchKeys.all(organizationId), query] as const,
};

/** Nothing is searched until there is a query. */
export function useSearchBackups(organizationId: string | null, query: SearchQuery | null) {
  return useQuery({
    queryKey: searchKeys.query(organizationId, query),
    queryFn:
      organizationId && query ? ({ signal }) => searchBackups(organizationId, query, signal) : skipToken,
    placeholderData: keepPreviousData,
  });
}
