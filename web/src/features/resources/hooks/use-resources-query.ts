import type { ResourcesQuery } from "@alpvault/contracts/organizations";
import { useEffect, useMemo, useState } from "react";
import { NO_FILTERS, type ResourceFilters } from "../components/filter-menu";
import type { TableSort } from "../components/resources-table";

const SEARCH_DELAY_MS = 300;

/** Waits until typing pauses before the search reaches the API. */
function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/**
 * What the resources table asks the API for: the search (once typing pauses), the filters, the sort and
 * the page. A new search, filter or page size starts again from the first page.
 */
export function useResourcesQuery() {
  const [search, setSearch] = useState("");
  const debouncedSearch = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [filters, setFilters] = useState<ResourceFilters>(NO_FILTERS);
  const [sort, setSort] = useState<TableSort>({ sort: "name", direction: "asc" });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);

  const query = useMemo<ResourcesQuery>(
    () => ({
      search: debouncedSearch || undefined,
      type: filters.type || undefined,
      protection: filters.protection || undefined,
      policyId: filters.policyId || undefined,
      sort: sort.sort,
      direction: sort.direction,
      page,
      pageSize,
    }),
    [debouncedSearch, filters, sort, page, pageSize],
  );

  // A new search or filter starts again from the first page.
  useEffect(() => setPage(1), [debouncedSearch, filters, pageSize]);

  return {
    query,
    search,
    setSearch,
    filters,
    setFilters,
    sort,
    setSort,
    page,
    setPage,
    pageSize,
    setPageSize,
  };
}
