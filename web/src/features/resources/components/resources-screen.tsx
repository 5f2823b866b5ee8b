import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import type { Resource } from "@alpvault/contracts/organizations";
import { lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { useAlerts } from "../api/get-alerts";
import { useAnalytics } from "../api/get-analytics";
import { usePolicyChoices } from "../api/list-policies";
import { WhenWanted } from "@/components/ui/when-wanted";
import { isLoading } from "@/lib/query";
import { useLiveResources } from "../hooks/use-live-resources";
import { useOrganizationId } from "../hooks/use-organization-id";
import { useResourceActions } from "../hooks/use-resource-actions";
import { useResourcesQuery } from "../hooks/use-resources-query";
import { AlertsPanel } from "./alerts-panel";
import { AnalyticsCards } from "./analytics-cards";
import { ResourcesTable } from "./resources-table";
import { ResourcesToolbar } from "./resources-toolbar";
import { ServiceAccessAlerts } from "./service-access";
import { WelcomeModal } from "./welcome-modal";

/** The assign dialog loads when a policy is first changed. */
const AssignPolicyDialog = lazy(() =>
  import("./assign-policy-dialog").then((module) => ({ default: module.AssignPolicyDialog })),
);

/**
 * The resources screen (docs/requirements.md#screens-and-navigation): welcome modal, analytics, alerts, search, filters and the table. A row's
 * Recover (and its menu's "Recover all data") hands the resource to `onRecoverAll` (the app opens the
 * recovery modal).
 */
export function ResourcesScreen({ onRecoverAll }: { onRecoverAll: (resource: Resource) => void }) {
  const { t } = useTranslation();
  const organizationId = useOrganizationId();
  const list = useResourcesQuery();
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const analytics = useAnalytics(organizationId);
  const alerts = useAlerts(organizationId);
  const policyChoices = usePolicyChoices(organizationId);
  const policies = policyChoices.data ?? [];
  const actions = useResourceActions(organizationId, policies, () => setSelected(new Set()));
  // Live progress: while a listed backup is pending or running the list reloads quietly; once the last
  // one ends, the analytics (sizes, counts) and alerts (a failure raises one) catch up.
  const { refetch: refetchAnalytics } = analytics;
  const { refetch: refetchAlerts } = alerts;
  const { resources, quietReload } = useLiveResources(organizationId, list.query, () => {
    void refetchAnalytics();
    void refetchAlerts();
  });

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
      <ServiceAccessAlerts organizationId={organizationId} />
      <AnalyticsCards analytics={analytics.data} />
      <AlertsPanel alerts={alerts.data} marking={actions.marking} onMarkAllRead={actions.markAllRead} />
      <Card variant="outlined">
        <ResourcesToolbar
          search={list.search}
          onSearchChange={list.setSearch}
          filters={list.filters}
          policies={policies}
          onFiltersChange={list.setFilters}
          selectedCount={selected.size}
          syncDisabled={!organizationId || actions.syncing}
          onSync={actions.runSync}
          onAssign={() => actions.setAssignTarget({ resourceIds: [...selected], name: null, policyId: null })}
        />
        <ResourcesTable
          resources={resources.data?.resources ?? []}
          total={resources.data?.total ?? 0}
          page={list.page}
          pageSize={list.pageSize}
          loading={(isLoading(resources) && !quietReload) || actions.syncing}
          sort={list.sort}
          selected={selected}
          onSortChange={list.setSort}
          onPageChange={list.setPage}
          onPageSizeChange={list.setPageSize}
          onSelectionChange={setSelected}
          onRecoverAll={onRecoverAll}
          onBackupNow={actions.backupNow}
          onChangePolicy={(resource) =>
            actions.setAssignTarget({
              resourceIds: [resource.resourceId],
              name: resource.name,
              policyId: resource.policyId,
            })
          }
        />
      </Card>
      <WhenWanted wanted={actions.assignTarget !== null}>
        <AssignPolicyDialog
          target={actions.assignTarget}
          policies={policies}
          assigning={actions.assigning}
          onClose={() => actions.setAssignTarget(null)}
          onAssign={actions.assignPolicy}
        />
      </WhenWanted>
    </Box>
  );
}
