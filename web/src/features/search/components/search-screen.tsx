import ArrowDropDown from "@mui/icons-material/ArrowDropDown";
import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import RestoreOutlined from "@mui/icons-material/RestoreOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useEffect, useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { EXPORT_FORMATS, EXPORT_MESSAGES, type ExportFormat } from "@alpvault/contracts/exports";
import type { Resource } from "@alpvault/contracts/organizations";
import {
  COMING_SOON_SEARCH_SERVICES,
  SEARCH_SERVICES,
  type SearchResponse,
  type SearchService,
} from "@alpvault/contracts/search";
import { RetryableError } from "@/components/ui/notices";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError, isLoading } from "@/lib/query";
import { useStartExport } from "../api/start-export";
import { useSearchBackups } from "../api/search-backups";
import "../i18n/register";
import { ExportsCard } from "./exports-card";
import { useDriveColumns, useMailColumns } from "./result-columns";
import { ResultsTable } from "./results-table";
import { SearchForm, type SearchCriteria } from "./search-form";

export const SEARCH_PAGE_SIZE = 25;

/** Answers the search card's own checks should have caught, or an unknown resource: a snackbar, no retry. */
const isRequestError = (code: number) => code === 400 || code === 404;

/** What the search card starts with for a resource: its email, or the name of a shared drive. */
function resourceQuery(resource: Resource): string {
  return resource.type === "shared_drive" ? resource.name : (resource.email ?? resource.name);
}

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

/** The table of one answer, with the columns of its service. */
function Results(props: {
  answer: SearchResponse;
  busy: boolean;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
}) {
  const { t } = useTranslation();
  const mailColumns = useMailColumns();
  const driveColumns = useDriveColumns();
  const common = {
    label: t(`search.table.${props.answer.service}`),
    busy: props.busy,
    selected: props.selected,
    onSelectedChange: props.onSelectedChange,
    empty: t(`search.empty.${props.answer.service}`),
  };
  return props.answer.service === "gmail" ? (
    <ResultsTable
      {...common}
      columns={mailColumns}
      rows={props.answer.results}
      rowName={(mail) => mail.subject || t("search.table.noSubject")}
    />
  ) : (
    <ResultsTable
      {...common}
      columns={driveColumns}
      rows={props.answer.results}
      rowName={(file) => file.name}
    />
  );
}

/**
 * Search Backups (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation): a tab per service (Gmail and Drive; Chat, Calendars, Contacts and
 * Directory coming soon), the search card, and one page of the resource's backed-up emails or files with a
 * checkbox per row and the recover action. Opened for a resource (`/search/{resourceId}`), the card starts
 * with its email (a shared drive's name, on the Drive tab) and searches at once. Recover hands the selected
 * rows, their resource and the tab's service to `onRecover`. Export all / Export selected starts an export
 * job (mail as MBOX or as .eml files in a ZIP, files as a ZIP), which the exports card below follows to its
 * download.
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
  const { organizationId } = useSession();
  const { show } = useSnackbar();
  const initialResource = props.resource ? resourceQuery(props.resource) : "";
  const [service, setService] = useState<SearchService>(
    props.resource?.type === "shared_drive" ? "drive" : "gmail",
  );
  const [criteria, setCriteria] = useState<SearchCriteria | null>(
    initialResource ? { resource: initialResource } : null,
  );
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const search = useSearchBackups(
    organizationId,
    criteria ? { service, ...criteria, page, pageSize: SEARCH_PAGE_SIZE } : null,
  );

  useEffect(() => {
    if (search.error && isRequestError(search.error.code))
      show({ text: search.error.message, isError: true });
  }, [search.error, show]);

  // Another service, search or page shows other items: the selection starts again.
  const changeService = (next: SearchService) => {
    setService(next);
    setPage(1);
    setSelected(new Set());
  };
  const runSearch = (next: SearchCriteria) => {
    // The same search again asks again (a backup may have run since, or the resource been added).
    if (page === 1 && JSON.stringify(next) === JSON.stringify(criteria)) void search.refetch();
    setCriteria(next);
    setPage(1);
    setSelected(new Set());
  };
  const changePage = (next: number) => {
    setPage(next);
    setSelected(new Set());
  };

  const answer = search.status === "error" ? undefined : search.data;
  const loading = isLoading(search);
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
  const startExport = useStartExport();
  /** The Gmail export's format menu (mail exports as MBOX or as .eml files in a ZIP). */
  const [formatMenu, setFormatMenu] = useState<HTMLElement | null>(null);
  const exportItems = async (format: ExportFormat) => {
    setFormatMenu(null);
    if (!answer || organizationId === null || startExport.pending) return;
    const { resource, service } = answer;
    try {
      await startExport.run(organizationId, {
        resourceId: resource.resourceId,
        service,
        format,
        ...(selected.size > 0 ? { itemIds: [...selected] } : {}),
        ...(criteria?.date ? { date: criteria.date } : {}),
      });
      show({ text: EXPORT_MESSAGES.started, isError: false });
    } catch (error) {
      show({ text: asApiError(error).message, isError: true });
    }
  };
  const onExport = (event: MouseEvent<HTMLElement>) => {
    if (answer?.service === "gmail") setFormatMenu(event.currentTarget);
    else void exportItems("zip");
  };
  const pages = answer ? Math.max(1, Math.ceil(answer.total / answer.pageSize)) : 1;
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
      <Box sx={{ borderBottom: 1, borderColor: "divider" }}>
        <Tabs
          value={service}
          onChange={(_, next: SearchService) => changeService(next)}
          aria-label={t("search.tabs.label")}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {SEARCH_SERVICES.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`search.tabs.${name}`)}
              id={`search-tab-${name}`}
              aria-controls="search-panel"
            />
          ))}
          {COMING_SOON_SEARCH_SERVICES.map((name) => (
            <Tab
              key={name}
              value={name}
              disabled
              data-testid="search-tab-coming-soon"
              label={
                <Box component="span" sx={{ display: "flex", flexDirection: "column", lineHeight: 1.2 }}>
                  <span>{t(`search.tabs.${name}`)}</span>
                  <Typography component="span" variant="caption" sx={{ textTransform: "none" }}>
                    {t("search.tabs.comingSoon")}
                  </Typography>
                </Box>
              }
            />
          ))}
        </Tabs>
      </Box>

      <Box
        role="tabpanel"
        id="search-panel"
        aria-labelledby={`search-tab-${service}`}
        sx={{ display: "flex", flexDirection: "column", gap: 2 }}
      >
        <SearchForm initialResource={initialResource} onSearch={runSearch} />

        {search.error && !isRequestError(search.error.code) && (
          <RetryableError
            testId="search-error"
            message={search.error.message}
            retryLabel={t("search.retry")}
            onRetry={() => void search.refetch()}
          />
        )}

        <Card variant="outlined">
          <Box sx={{ p: 2, display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap", minHeight: 68 }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              {answer ? (
                <>
                  <Typography variant="subtitle1" data-testid="search-results-for">
                    {t("search.resultsFor", {
                      resource: answer.resource.email
                        ? `${answer.resource.name} (${answer.resource.email})`
                        : answer.resource.name,
                    })}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" data-testid="search-total">
                    {t("search.total", { count: answer.total })}
                  </Typography>
                </>
              ) : (
                <Typography color="text.secondary" data-testid="search-hint">
                  {t("search.hint")}
                </Typography>
              )}
            </Box>
            {selected.size > 0 && (
              <Typography variant="body2" color="text.secondary">
                {t("search.selected", { count: selected.size })}
              </Typography>
            )}
            <Button
              variant="outlined"
              startIcon={<DownloadOutlined />}
              endIcon={answer?.service === "gmail" ? <ArrowDropDown /> : undefined}
              disabled={!answer || answer.total === 0 || startExport.pending}
              onClick={onExport}
              aria-haspopup={answer?.service === "gmail" ? "menu" : undefined}
              aria-controls={formatMenu ? "export-format-menu" : undefined}
            >
              {selected.size > 0 ? t("search.exportSelected") : t("search.exportAll")}
            </Button>
            <Menu
              id="export-format-menu"
              anchorEl={formatMenu}
              open={formatMenu !== null}
              onClose={() => setFormatMenu(null)}
            >
              {EXPORT_FORMATS.gmail.map((format) => (
                <MenuItem key={format} onClick={() => void exportItems(format)}>
                  {t(`search.exportAs.${format}`)}
                </MenuItem>
              ))}
            </Menu>
            <Button
              variant="contained"
              startIcon={<RestoreOutlined />}
              disabled={selected.size === 0 || !answer}
              onClick={recover}
            >
              {t("search.recover")}
            </Button>
          </Box>
          <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
          {answer && (
            <>
              <Results answer={answer} busy={loading} selected={selected} onSelectedChange={setSelected} />
              <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, p: 1 }}>
                <IconButton
                  aria-label={t("search.previous")}
                  disabled={answer.page <= 1 || loading}
                  onClick={() => changePage(answer.page - 1)}
                >
                  <ChevronLeft />
                </IconButton>
                <Typography variant="body2" data-testid="search-page">
                  {t("search.page", { page: answer.page, pages })}
                </Typography>
                <IconButton
                  aria-label={t("search.next")}
                  disabled={answer.page >= pages || loading}
                  onClick={() => changePage(answer.page + 1)}
                >
                  <ChevronRight />
                </IconButton>
              </Box>
            </>
          )}
        </Card>
      </Box>

      <ExportsCard organizationId={organizationId} />
    </Box>
  );
}
