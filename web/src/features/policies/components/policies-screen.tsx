import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RetryableError, UpgradeNotice } from "@/components/ui/notices";
import { useFreePlan, useSession } from "@/lib/session";
import { isLoading } from "@/lib/query";
import { usePolicies } from "../api/list-policies";
import { usePolicyActions } from "../hooks/use-policy-actions";
import "../i18n/register";
import { PoliciesTable } from "./policies-table";
import { PolicyDialog } from "./policy-dialog";

/**
 * The backup policies screen (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #who-may-do-what): the organisation's policies with what they back up, how
 * often, when and for how long, and how many resources use them. Paid plans create, edit and delete them;
 * the free plan sees why it cannot, with the way to upgrade.
 */
export function PoliciesScreen() {
  const { t } = useTranslation();
  const { organizationId } = useSession();
  const policies = usePolicies(organizationId);
  const actions = usePolicyActions(organizationId);

  const planId = policies.data?.planId;
  const free = useFreePlan(planId);
  const freePlan = free === true;
  const canManage = planId !== undefined && free === false;

  if (organizationId === null) {
    return <Alert severity="info">{t("policies.noOrganization")}</Alert>;
  }

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }} data-testid="policies-screen">
      <Typography color="text.secondary">{t("policies.intro")}</Typography>
      {freePlan && (
        <UpgradeNotice
          testId="policies-free-plan"
          title={t("policies.freePlan.title")}
          body={t("policies.freePlan.body")}
          upgradeLabel={t("policies.freePlan.upgrade")}
        />
      )}
      {policies.error && (
        <RetryableError
          testId="policies-error"
          message={policies.error.message}
          retryLabel={t("policies.retry")}
          onRetry={() => void policies.refetch()}
        />
      )}
      <PoliciesTable
        policies={policies.data?.policies ?? []}
        loading={isLoading(policies)}
        empty={policies.isSuccess && !isLoading(policies) && policies.data.policies.length === 0}
        handlers={{ canManage, onEdit: actions.startEdit, onDelete: actions.startDelete }}
        onCreate={actions.startCreate}
      />

      {planId && (
        <PolicyDialog
          open={actions.editing.open}
          policy={actions.editing.policy}
          planId={planId}
          saving={actions.saving}
          onClose={actions.closeEditor}
          onSave={actions.save}
        />
      )}

      <ConfirmDialog
        open={actions.deleting !== null}
        pending={actions.deletePending}
        titleId="delete-policy-title"
        title={t("policies.delete.title")}
        body={t("policies.delete.body", { name: actions.deleting?.name ?? "" })}
        cancelLabel={t("policies.delete.cancel")}
        confirmLabel={t("policies.delete.confirm")}
        onCancel={actions.cancelDelete}
        onConfirm={actions.confirmDelete}
      />
    </Box>
  );
}
