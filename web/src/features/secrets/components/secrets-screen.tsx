import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import FactCheckOutlined from "@mui/icons-material/FactCheckOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FREE_PLAN } from "@alpvault/contracts/plans";
import { SECRET_MESSAGES, type Secret } from "@alpvault/contracts/secrets";
import { RetryableError, UpgradeNotice } from "@/components/ui/notices";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError, isLoading } from "@/lib/query";
import { useCheckSecret } from "../api/check-secret";
import { useCreateSecret } from "../api/create-secret";
import { useDeleteSecret } from "../api/delete-secret";
import { useSecrets } from "../api/list-secrets";
import { useSetDefaultSecret } from "../api/set-default-secret";
import { useUpdateSecret } from "../api/update-secret";
import "../i18n/register";
import { SecretDialog, type SecretFormValues } from "./secret-dialog";

/** The dialog state: adding (`secret` null) or editing one secret; kept while the dialog closes. */
interface Editing {
  open: boolean;
  secret: Secret | null;
}

function KeyStatus({ secret }: { secret: Secret }) {
  const { t, i18n } = useTranslation();
  if (secret.kind === "default") {
    return (
      <Typography variant="body2" color="text.secondary">
        {t("secrets.managedByAlpvault")}
      </Typography>
    );
  }
  const check = secret.lastCheck;
  const health = check?.health ?? "unchecked";
  const when = check
    ? t("secrets.checkedAt", {
        date: new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(
          new Date(check.checkedAt),
        ),
      })
    : undefined;
  return (
    <Tooltip title={check?.message ?? when ?? ""}>
      <Chip
        size="small"
        variant="outlined"
        color={health === "ok" ? "success" : health === "unchecked" ? "default" : "error"}
        label={t(`secrets.status.${health}`)}
        data-testid="secret-status"
        data-health={health}
      />
    </Tooltip>
  );
}

/**
 * Secrets (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation, #who-may-do-what, #errors-and-messages): the built-in default AES key and the organisation's Cloud KMS keys,
 * default first. Paid plans add keys; every key can be edited, checked against Cloud KMS, made the
 * default or deleted (unless backups depend on it). The free plan sees why it cannot add keys.
 */
export function SecretsScreen() {
  const { t } = useTranslation();
  const { organizationId } = useSession();
  const { show } = useSnackbar();
  const secrets = useSecrets(organizationId);
  const create = useCreateSecret();
  const update = useUpdateSecret();
  const remove = useDeleteSecret();
  const setDefault = useSetDefaultSecret();
  const check = useCheckSecret();
  const [editing, setEditing] = useState<Editing>({ open: false, secret: null });
  const [deleting, setDeleting] = useState<Secret | null>(null);

  const planId = secrets.data?.planId;
  const freePlan = planId === FREE_PLAN;
  const canAdd = planId !== undefined && !freePlan;
  const busy = create.pending || update.pending || remove.pending || setDefault.pending || check.pending;
  const fail = (error: unknown) => show({ text: asApiError(error).message, isError: true });

  /** After an add or edit: success, or the key's problem when Cloud KMS said it cannot be used. */
  const reportSaved = (secret: Secret, text: string) => {
    const problem = secret.lastCheck && secret.lastCheck.health !== "ok" ? secret.lastCheck.message : null;
    show(problem ? { text: `${text}. ${problem}`, isError: true } : { text, isError: false });
  };

  const save = async (values: SecretFormValues) => {
    if (!organizationId || !editing.open) return;
    try {
      if (editing.secret) {
        const saved = await update.run(organizationId, editing.secret.secretId, {
          description: values.description,
          kmsResourceName: values.kmsResourceName,
        });
        reportSaved(saved, SECRET_MESSAGES.updated);
      } else {
        const saved = await create.run(organizationId, values);
        reportSaved(saved, SECRET_MESSAGES.added);
      }
      setEditing((previous) => ({ ...previous, open: false }));
    } catch (error) {
      fail(error);
      throw error;
    }
  };

  const makeDefault = (secret: Secret) => {
    if (!organizationId) return;
    setDefault.run(organizationId, secret.secretId).then(() => {
      show({ text: t("secrets.defaultUpdated", { description: secret.description }), isError: false });
    }, fail);
  };

  const runCheck = (secret: Secret) => {
    if (!organizationId) return;
    check.run(organizationId, secret.secretId).then((checked) => {
      const ok = checked.lastCheck?.health === "ok";
      show({
        text: ok
          ? t("secrets.checked", { description: checked.description })
          : (checked.lastCheck?.message ?? SECRET_MESSAGES.notUsableAsDefault),
        isError: !ok,
      });
    }, fail);
  };

  const confirmDelete = () => {
    if (!organizationId || !deleting) return;
    remove.run(organizationId, deleting.secretId).then(
      () => {
        setDeleting(null);
        show({ text: SECRET_MESSAGES.deleted, isError: false });
      },
      (error: unknown) => {
        setDeleting(null);
        fail(error);
      },
    );
  };

  if (organizationId === null) {
    return <Alert severity="info">{t("secrets.noOrganization")}</Alert>;
  }

  const addButton = (
    <Button
      variant="contained"
      startIcon={<AddOutlined />}
      disabled={!canAdd || busy}
      onClick={() => setEditing({ open: true, secret: null })}
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

      <Card>
        {(isLoading(secrets) || busy) && <LinearProgress />}
        <TableContainer>
          <Table
            aria-label={t("pages.secrets.title")}
            aria-busy={isLoading(secrets)}
            data-testid="secrets-table"
          >
            <TableHead>
              <TableRow>
                <TableCell>{t("secrets.columns.description")}</TableCell>
                <TableCell>{t("secrets.columns.kmsResourceName")}</TableCell>
                <TableCell>{t("secrets.columns.kind")}</TableCell>
                <TableCell>{t("secrets.columns.status")}</TableCell>
                <TableCell align="right">{t("secrets.columns.actions")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {secrets.data?.secrets.map((secret) => (
                <TableRow
                  key={secret.secretId}
                  data-testid="secret-row"
                  data-secret-id={secret.secretId}
                  data-default={secret.isDefault ? "true" : "false"}
                >
                  <TableCell>
                    <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap" }}>
                      <Typography
                        variant="body2"
                        sx={{ fontWeight: secret.isDefault ? 600 : 400 }}
                        data-testid="secret-description"
                      >
                        {secret.description}
                      </Typography>
                      {secret.isDefault && (
                        <Chip
                          size="small"
                          color="primary"
                          label={t("secrets.default")}
                          data-testid="secret-default"
                        />
                      )}
                    </Box>
                  </TableCell>
                  <TableCell sx={{ fontFamily: "monospace", fontSize: "0.8rem", wordBreak: "break-all" }}>
                    {secret.kmsResourceName ?? "—"}
                  </TableCell>
                  <TableCell>{t(`secrets.kind.${secret.kind}`)}</TableCell>
                  <TableCell>
                    <KeyStatus secret={secret} />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    {!secret.isDefault && (
                      <Button size="small" disabled={busy} onClick={() => makeDefault(secret)}>
                        {t("secrets.actions.setDefault")}
                      </Button>
                    )}
                    {secret.kind === "cloud-kms" && (
                      <>
                        <Tooltip title={t("secrets.actions.check", { description: secret.description })}>
                          <span>
                            <IconButton
                              aria-label={t("secrets.actions.check", { description: secret.description })}
                              disabled={busy}
                              onClick={() => runCheck(secret)}
                            >
                              <FactCheckOutlined />
                            </IconButton>
                          </span>
                        </Tooltip>
                        <Tooltip title={t("secrets.actions.edit", { description: secret.description })}>
                          <span>
                            <IconButton
                              aria-label={t("secrets.actions.edit", { description: secret.description })}
                              disabled={busy}
                              onClick={() => setEditing({ open: true, secret })}
                            >
                              <EditOutlined />
                            </IconButton>
                          </span>
                        </Tooltip>
                        <Tooltip title={t("secrets.actions.delete", { description: secret.description })}>
                          <span>
                            <IconButton
                              aria-label={t("secrets.actions.delete", { description: secret.description })}
                              disabled={busy}
                              onClick={() => setDeleting(secret)}
                            >
                              <DeleteOutlined />
                            </IconButton>
                          </span>
                        </Tooltip>
                      </>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Card>

      <SecretDialog
        open={editing.open}
        secret={editing.secret}
        pending={create.pending || update.pending}
        onClose={() => setEditing((previous) => ({ ...previous, open: false }))}
        onSubmit={save}
      />

      <Dialog open={deleting !== null} onClose={remove.pending ? undefined : () => setDeleting(null)}>
        <DialogTitle>{t("secrets.delete.title")}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t("secrets.delete.body", { description: deleting?.description ?? "" })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)} disabled={remove.pending}>
            {t("secrets.delete.cancel")}
          </Button>
          <Button color="error" variant="contained" onClick={confirmDelete} disabled={remove.pending}>
            {t("secrets.delete.confirm")}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
