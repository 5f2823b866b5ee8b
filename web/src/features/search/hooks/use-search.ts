import { useEffect, useState } from "react";
import type { Resource } from "@alpvault/contracts/organizations";
import type { SearchService } from "@alpvault/contracts/search";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { isLoading } from "@/lib/query";
import { useSearchBackups } from "../api/search-backups";
import type { SearchCriteria } from "../components/search-form";

export const SEARCH_PAGE_SIZE = 25;

/** Answers the search card's own checks should have caught, or an unknown resource: a snackbar, no retry. */
export const isRequestError = (code: number) => code === 400 || code === 404;

/** What the search card starts with for a resource: its email, or the name of a shared drive. */
function resourceQuery(resource: Resource): string {
  return resource.type === "shared_drive" ? resource.name : (resource.email ?? resource.name);
}

/**
 * The search screen's state: the tab's service, the search asked for, the page and the selected rows, and
 * the answer. Opened for a resource, it searches for it at once (on the Drive tab for a shared drive).
 */
export function useSearch(resource: Resource | null) {
  const { organizationId } = useSession();
  const { show } = useSnackbar();
  const initialResource = resource ? resourceQuery(resource) : "";
  const [service, setService] = useState<SearchService>(
    resource?.type === "shared_drive" ? "drive" : "gmail",
  );
  const [criteria, setCriteria] = useState<SearchCriteria | null>(
    initialResource ? { resource: initialResource } : null,
  );
  const [page, setPage] = useState(1);
  // The token of each page reached so far (the previous page's `nextPageToken`): pages are read from a cursor.
  const [tokens, setTokens] = useState<Record<number, string>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const pageToken = page > 1 ? tokens[page] : undefined;
  const search = useSearchBackups(
    organizationId,
    criteria
      ? { service, ...criteria, page, pageSize: SEARCH_PAGE_SIZE, ...(pageToken ? { pageToken } : {}) }
      : null,
  );
  // A placeholder (the previous search's answer, kept while the next loads) gives no token for this one.
  const nextPageToken = search.isPlaceholderData ? undefined : search.data?.nextPageToken;
  const answeredPage = search.data?.page;
  useEffect(() => {
    if (nextPageToken && answeredPage !== undefined)
      setTokens((known) =>
        known[answeredPage + 1] === nextPageToken ? known : { ...known, [answeredPage + 1]: nextPageToken },
      );
  }, [nextPageToken, answeredPage]);

  useEffect(() => {
    if (search.error && isRequestError(search.error.code))
      show({ text: search.error.message, isError: true });
  }, [search.error, show]);

  // Another service, search or page shows other items: the selection starts again.
  const changeService = (next: SearchService) => {
    setService(next);
    setPage(1);
    setTokens({});
    setSelected(new Set());
  };
  const runSearch = (next: SearchCriteria) => {
    // The same search again asks again (a backup may have run since, or the resource been added).
    if (page === 1 && JSON.stringify(next) === JSON.stringify(criteria)) void search.refetch();
    setCriteria(next);
    setPage(1);
    setTokens({});
    setSelected(new Set());
  };
  const changePage = (next: number) => {
    setPage(next);
    setSelected(new Set());
  };

  return {
    organizationId,
    initialResource,
    service,
    criteria,
    selected,
    setSelected,
    search,
    answer: search.status === "error" ? undefined : search.data,
    loading: isLoading(search),
    changeService,
    runSearch,
    changePage,
  };
}
