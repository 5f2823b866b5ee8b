import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { Resource } from "@alpvault/contracts/organizations";
import type { SearchService } from "@alpvault/contracts/search";
import { RetryableError } from "@/components/ui/notices";
import { isRequestError, useSearch } from "../hooks/use-search";
import "../i18n/register";
import { ExportsCard } from "./exports-card";
import { SearchForm } from "./search-form";
import { SearchResultsCard } from "./search-results-card";
import { SearchTabs } from "./search-tabs";

/** What Recover hands on (the app opens the recovery modal with it). */
export interface RecoverSelection {
  /** The searched resource. */
  resourceId: string;
  resourceName: string;
  /** The tab's service. */
  services: readonly SearchService[];
  /** The selected rows' catalog item ids. */
  itemIds: string[];
  /** The search's date (MM-DD-YYYY), when it had one: the rows are the items as held then. */
  date?: string;
}

/**
 * Search Backups (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation): a tab per service (Gmail, Drive, Calendars
 * and Contacts; Chat and Directory coming soon), the search card, and one page of the resource's backed-up
 * emails, files, calendars and events, or contacts with a checkbox per row and the recover action. Opened for a resource (`/search/{resourceId}`), the card starts
 * with its email (a shared drive's name, on the Drive tab) and searches at once. Recover hands the selected
 * rows, their resource and the tab's service to `onRecover`. Export all / Export selected starts an export
 * job (mail as MBOX or as .eml files in a ZIP, files as a ZIP, calendars as iCalendar files in a ZIP,
 * contacts as one vCard file), which the exports card below follows to its download.
 */
export function SearchScreen(props: {
  /** The route's resource id, if any. */
  resourceId?: string;
  /** That resource, or null when the resources list does not have it. */
  resource: Resource | null;
  /** Why the resources list could not be read, if it could not. */
  resourceError: string | null;
  onRecover: (selection: RecoverSelection) => void;
}) {
  const { t } = useTranslation();
  const {
    organizationId,
    initialResource,
    service,
    criteria,
    selected,
    setSelected,
    search,
    answer,
    loading,
    ...on
  } = useSearch(props.resource);

  const recover = () => {
    if (!answer || selected.size === 0) return;
    const { resource } = answer;
    props.onRecover({
      resourceId: resource.resourceId,
      resourceName: resource.email ? `${resource.name} (${resource.email})` : resource.name,
      services: [answer.service],
      itemIds: [...selected],
      ...(criteria?.date ? { date: criteria.date } : {}),
    });
  };
  const resourceLabel = props.resource
    ? `${props.resource.name} (${props.resource.type === "shared_drive" ? t("search.sharedDrive") : props.resource.email})`
    : props.resourceId;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }} data-testid="search-screen">
      {props.resourceId && (
        <Typography color="text.secondary" data-testid="search-resource">
          {t("search.routeResource", { resource: resourceLabel })}
        </Typography>
      )}
      {props.resourceId && !props.resource && (
        <Alert severity={props.resourceError ? "warning" : "info"} data-testid="search-resource-missing">
          {props.resourceError ?? t("search.routeResourceNotFound")}
        </Alert>
      )}
      <SearchTabs service={service} onChange={on.changeService} />

      <Box
        role="tabpanel"
        id="search-panel"
        aria-labelledby={`search-tab-${service}`}
        sx={{ display: "flex", flexDirection: "column", gap: 2 }}
      >
        <SearchForm initialResource={initialResource} onSearch={on.runSearch} />

        {search.error && !isRequestError(search.error.code) && (
          <RetryableError
            testId="search-error"
            message={search.error.message}
            retryLabel={t("search.retry")}
            onRetry={() => void search.refetch()}
          />
        )}

        <SearchResultsCard
          organizationId={organizationId}
          answer={answer}
          loading={loading}
          date={criteria?.date}
          selected={selected}
          onSelectedChange={setSelected}
          onPage={on.changePage}
          onRecover={recover}
        />
      </Box>

      <ExportsCard organizationId={organizationId} />
    </Box>
  );
}
