import type { BrowseResponse, BrowseSpan } from "@alpvault/contracts/browse";
import { browseResponseSchema } from "@alpvault/contracts/schemas/search";
import type { SearchService } from "@alpvault/contracts/search";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** The query parameters of a browse's place, as the API takes them (docs/api.md "Browse"). */
export interface BrowsePlaceParams {
  /** Gmail: a label of `labels` (its `label`); absent: all mail. */
  label?: string;
  /** Drive: a folder path ("My Drive/Projects"); absent: the top, the drives' roots. */
  folder?: string;
  /** Calendar: a calendar of `calendars`, a day (YYYY-MM-DD; absent: today) and a span (absent: the week). */
  calendar?: string;
  day?: string;
  span?: BrowseSpan;
  /** Contacts: "all" (absent), "group:<name>" or "other". */
  group?: string;
}

export interface BrowseQuery extends BrowsePlaceParams {
  /** Absent: the resource's first service (Gmail for a mailbox, Drive for a shared drive). */
  service?: SearchService;
  /** MM-DD-YYYY: the backups as they held the resource at the end of that day; absent: now. */
  date?: string;
  page: number;
  pageSize: number;
  pageToken?: string;
}

/** `POST /v1/organizations/{id}/resources/{resourceId}/browse`: a place's items at a date (terms in the body). */
export async function browseBackups(
  organizationId: string,
  resourceId: string,
  query: BrowseQuery,
  signal?: AbortSignal,
): Promise<BrowseResponse> {
  const answer = await api.post<unknown>(
    `/organizations/${encodeURIComponent(organizationId)}/resources/${encodeURIComponent(resourceId)}/browse`,
    { ...query },
    { signal },
  );
  return decodeAnswer(browseResponseSchema, answer);
}

export function useBrowseBackups(organizationId: string | null, resourceId: string, query: BrowseQuery) {
  return useQuery({
    queryKey: ["browse", organizationId, resourceId, query],
    queryFn: organizationId
      ? ({ signal }) => browseBackups(organizationId, resourceId, query, signal)
      : skipToken,
    placeholderData: keepPreviousData,
  });
}
