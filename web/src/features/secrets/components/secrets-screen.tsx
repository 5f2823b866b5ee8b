import AddOutlined from "@mui/icons-material/AddOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RetryableError, UpgradeNotice } from "@/components/ui/notices";
import { useFreePlan, useSession } from "@/lib/session";
import { isLoading } from "@/lib/query";
import { useSecrets } from "../api/list-secrets";
import { useSecretActions } from "../hooks/use-secret-actions";
import "../i18n/register";
import { SecretDialog } from "./secret-dialog";
import { SecretsTable } from "./secrets-table";

/**
 * Secrets (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation, #who-may-do-what, #errors-and-messages): the built-in default AES key and the organisation's Cloud KMS keys,
 * default first. Paid plans add keys; every key can be edited, checked against Cloud KMS, made the
 * default or deleted (unless backups depend on it). The free plan sees why it cannot add keys.
 */
export function SecretsScreen() {
  const { t } = useTranslation();
  const { organizationId } = useSession();
  const secrets = useSecrets(organizationId);
  const actions = useSecretActions(organizationId);

  const planId = secrets.data?.planId;
  const free = useFreePlan(planId);
  const freePlan = free === true;
  const canAdd = planId !== undefined && free === false;

  if (organizationId === null) {
    return <Alert severity="info">{t("secrets.noOrganization")}</Alert>;
  }

  const addButton = (
    <Button
      variant="contained"
      startIcon={<AddOutlined />}
      disabled={!canAdd || actions.busy}
      onClick={actions.startAdd}
      data-testid="add-secret"
    >
      {t("secrets.add")}
    </Button>
  );

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }} data-testid="secrets-screen">
      <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start", justifyContent: "space-between" }}>
        <Typography color="text.secondary" sx={{ maxWidth: 720 }}>
          {t("secrets.intro")}
        </Typography>
        {freePlan ? (
          <Tooltip title={t("secrets.freePlan.tooltip")}>
            <span>{addButton}</span>
          </Tooltip>
        ) : (
          addButton
        )}
      </Box>
      {freePlan && (
        <UpgradeNotice
          testId="secrets-free-plan"
          title={t("secrets.freePlan.title")}
          body={t("secrets.freePlan.body")}
          upgradeLabel={t("secrets.freePlan.upgrade")}
        />
      )}
      {secrets.error && (
        <RetryableError
          testId="secrets-error"
          message={secrets.error.message}
          retryLabel={t("secrets.retry")}
          onRetry={() => void secrets.refetch()}
        />
      )}

      <SecretsTable
        secrets={secrets.data?.secrets}
        loading={isLoading(secrets)}
        handlers={{
          busy: actions.busy,
          onMakeDefault: actions.makeDefault,
          onCheck: actions.runCheck,
          onEdit: actions.startEdit,
          onDelete: actions.startDelete,
        }}
      />

      <SecretDialog
        open={actions.editing.open}
        secret={actions.editing.secret}
        pending={actions.savePending}
        onClose={actions.closeEditor}
        onSubmit={actions.save}
      />

      <ConfirmDialog
        open={actions.deleting !== null}
        pending={actions.deletePending}
        title={t("secrets.delete.title")}
        body={t("secrets.delete.body", { description: actions.deleting?.description ?? "" })}
        cancelLabel={t("secrets.delete.cancel")}
        confirmLabel={t("secrets.delete.confirm")}
        onCancel={actions.cancelDelete}
        onConfirm={actions.confirmDelete}
      />
    </Box>
  );
}
