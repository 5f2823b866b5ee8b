import SearchOutlined from "@mui/icons-material/SearchOutlined";
import SyncOutlined from "@mui/icons-material/SyncOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import type { Resource, ResourcesQuery } from "@alpvault/contracts/organizations";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { useAssignPolicy } from "../api/assign-policy";
import { useBackupNow } from "../api/backup-now";
import { useAlerts } from "../api/get-alerts";
import { useAnalytics } from "../api/get-analytics";
import { usePolicyChoices } from "../api/list-policies";
import { useMarkAlertsRead } from "../api/mark-alerts-read";
import { useSyncResources } from "../api/sync-resources";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError, isLoading } from "@/lib/query";
import { useLiveResources } from "../hooks/use-live-resources";
import { useOrganizationId } from "../hooks/use-organization-id";
import { AlertsPanel } from "./alerts-panel";
import { AnalyticsCards } from "./analytics-cards";
import { AssignPolicyDialog, type AssignTarget } from "./assign-policy-dialog";
import { FilterMenu, NO_FILTERS, type ResourceFilters } from "./filter-menu";
import { ResourcesTable, type TableSort } from "./resources-table";
import { WelcomeModal } from "./welcome-modal";

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
 * The resources screen (docs/requirements.md#screens-and-navigation): welcome modal, analytics, alerts, search, filters and the table. A row's
 * Recover (and its menu's "Recover all data") hands the resource to `onRecoverAll` (the app opens the
 * recovery modal).
 */
export function ResourcesScreen({ onRecoverAll }: { onRecoverAll: (resource: Resource) => void }) {
  const { t } = useTranslation();
  const organizationId = useOrganizationId();
  const [search, setSearch] = useState("");
  const debouncedSearch = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [filters, setFilters] = useState<ResourceFilters>(NO_FILTERS);
  const [sort, setSort] = useState<TableSort>({ sort: "name", direction: "asc" });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const { show: setMessage } = useSnackbar();
  const [assignTarget, setAssignTarget] = useState<AssignTarget | null>(null);

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
  const analytics = useAnalytics(organizationId);
  const alerts = useAlerts(organizationId);
  const sync = useSyncResources();
  const markRead = useMarkAlertsRead();
  const policyChoices = usePolicyChoices(organizationId);
  const policies = policyChoices.data ?? [];
  const assign = useAssignPolicy();
  const startBackup = useBackupNow();
  // Live progress: while a listed backup is pending or running the list reloads quietly; once the last
  // one ends, the analytics (sizes, counts) and alerts (a failure raises one) catch up.
  const { refetch: refetchAnalytics } = analytics;
  const { refetch: refetchAlerts } = alerts;
  const { resources, quietReload } = useLiveResources(organizationId, query, () => {
    void refetchAnalytics();
    void refetchAlerts();
  });

  // A new search or filter starts again from the first page.
  useEffect(() => setPage(1), [debouncedSearch, filters, pageSize]);

  const fail = (error: unknown) => setMessage({ text: asApiError(error).message, isError: true });

  const runSync = () => {
    if (!organizationId) return;
    sync.run(organizationId).then((result) => {
      setMessage({ text: t("resources.synced", { ...result }), isError: false });
    }, fail);
  };

  const assignPolicy = (policyId: string) => {
    if (!organizationId || !assignTarget) return;
    assign.run(organizationId, policyId, assignTarget.resourceIds).then((result) => {
      const name = policies.find((policy) => policy.policyId === policyId)?.name ?? "";
      setMessage({ text: t("resources.assign.done", { count: result.assigned, name }), isError: false });
      setAssignTarget(null);
      setSelected(new Set());
    }, fail);
  };

  const backupNow = (resource: Resource) => {
    if (!organizationId) return;
    startBackup.run(organizationId, resource.resourceId).then((result) => {
      setMessage({
        text: result.created ? BACKUP_MESSAGES.started : BACKUP_MESSAGES.alreadyRunning,
        isError: false,
      });
    }, fail);
  };

  const markAllRead = () => {
    if (!organizationId) return;
    markRead.run(organizationId).then(() => {
      setMessage({ text: t("resources.alerts.marked"), isError: false });
    }, fail);
  };

  const firstError = resources.error ?? analytics.error ?? alerts.error ?? policyChoices.error;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }} data-testid="resources-screen">
      <WelcomeModal ready={organizationId !== null && resources.data !== undefined} />
      {organizationId === null && (
        <Alert severity="info" data-testid="resources-no-organization">
          {t("resources.noOrganization")}
        </Alert>
      )}
      {firstError && (
        <Alert
          severity="error"
          data-testid="resources-error"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                void resources.refetch();
                void analytics.refetch();
                void alerts.refetch();
                void policyChoices.refetch();
              }}
            >
              {t("resources.retry")}
            </Button>
          }
        >
          {firstError.message}
        </Alert>
      )}
      <AnalyticsCards analytics={analytics.data} />
      <AlertsPanel alerts={alerts.data} marking={markRead.pending} onMarkAllRead={markAllRead} />
      <Card variant="outlined">
        <Box sx={{ p: 2, display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center" }}>
          <TextField
            size="small"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={t("resources.search")}
            sx={{ minWidth: 280, flexGrow: { xs: 1, md: 0 } }}
            slotProps={{
              htmlInput: { "aria-label": t("resources.search") },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchOutlined fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <FilterMenu filters={filters} policies={policies} onChange={setFilters} />
          <Box sx={{ flexGrow: 1 }} />
          {selected.size > 0 && (
            <Typography variant="body2" color="text.secondary" data-testid="resources-selected">
              {t("resources.selected", { count: selected.size })}
            </Typography>
          )}
          <Button
            variant="outlined"
            startIcon={<SyncOutlined />}
            onClick={runSync}
            disabled={!organizationId || sync.pending}
          >
            {t("resources.sync")}
          </Button>
          <Button
            variant="contained"
            disabled={selected.size === 0}
            onClick={() => setAssignTarget({ resourceIds: [...selected], name: null, policyId: null })}
          >
            {t("resources.assignPolicy")}
          </Button>
        </Box>
        <ResourcesTable
          resources={resources.data?.resources ?? []}
          total={resources.data?.total ?? 0}
          page={page}
          pageSize={pageSize}
          loading={(isLoading(resources) && !quietReload) || sync.pending}
          sort={sort}
          selected={selected}
          onSortChange={setSort}
          onPageChange={setPage}
          onPageSizeChange={setPageSize}
          onSelectionChange={setSelected}
          onRecoverAll={onRecoverAll}
          onBackupNow={backupNow}
          onChangePolicy={(resource) =>
            setAssignTarget({
              resourceIds: [resource.resourceId],
              name: resource.name,
              policyId: resource.policyId,
            })
          }
        />
      </Card>
      <AssignPolicyDialog
        target={assignTarget}
        policies={policies}
        assigning={assign.pending}
        onClose={() => setAssignTarget(null)}
        onAssign={assignPolicy}
      />
    </Box>
  );
}
