import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
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
import type { Policy, PolicyInput } from "@alpvault/contracts/policies";
import { FREE_PLAN } from "@alpvault/contracts/plans";
import { RetryableError, UpgradeNotice } from "@/components/ui/notices";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError, isLoading } from "@/lib/query";
import { useCreatePolicy } from "../api/create-policy";
import { useDeletePolicy } from "../api/delete-policy";
import { usePolicies } from "../api/list-policies";
import { useUpdatePolicy } from "../api/update-policy";
import "../i18n/register";
import { PolicyDialog } from "./policy-dialog";

/** The dialog state: creating (null) or editing one policy; kept while the dialog fades out. */
interface Editing {
  open: boolean;
  policy: Policy | null;
}

function Schedule({ policy }: { policy: Policy }) {
  const { t } = useTranslation();
  if (policy.schedule !== "days") return <>{t(`policies.schedule.${policy.schedule}`)}</>;
  return <>{policy.days.map((day) => t(`policies.days.${day}`)).join(", ")}</>;
}

/**
 * The backup policies screen (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #who-may-do-what): the organisation's policies with what they back up, how
 * often, when and for how long, and how many resources use them. Paid plans create, edit and delete them;
 * the free plan sees why it cannot, with the way to upgrade.
 */
export function PoliciesScreen() {
  const { t } = useTranslation();
  const { organizationId } = useSession();
  const { show } = useSnackbar();
  const policies = usePolicies(organizationId);
  const create = useCreatePolicy();
  const update = useUpdatePolicy();
  const remove = useDeletePolicy();
  const [editing, setEditing] = useState<Editing>({ open: false, policy: null });
  const [deleting, setDeleting] = useState<Policy | null>(null);

  const planId = policies.data?.planId;
  const freePlan = planId === FREE_PLAN;
  const canManage = planId !== undefined && !freePlan;
  const fail = (error: unknown) => show({ text: asApiError(error).message, isError: true });

  const save = async (input: PolicyInput) => {
    if (!organizationId || !editing.open) return;
    try {
      if (editing.policy) await update.run(organizationId, editing.policy.policyId, input);
      else await create.run(organizationId, input);
    } catch (error) {
      fail(error);
      throw error;
    }
    show({ text: editing.policy ? t("policies.updated") : t("policies.added"), isError: false });
    setEditing((current) => ({ ...current, open: false }));
  };

  const confirmDelete = () => {
    if (!organizationId || !deleting) return;
    remove.run(organizationId, deleting.policyId).then(
      () => {
        show({ text: t("policies.deleted"), isError: false });
        setDeleting(null);
      },
      (error: unknown) => {
        setDeleting(null);
        fail(error);
      },
    );
  };

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
      <Card variant="outlined">
        <Box sx={{ p: 2, display: "flex", justifyContent: "flex-end" }}>
          <Button
            variant="contained"
            startIcon={<AddOutlined />}
            disabled={!canManage}
            onClick={() => setEditing({ open: true, policy: null })}
          >
            {t("policies.create")}
          </Button>
        </Box>
        <Box sx={{ height: 4 }}>{isLoading(policies) && <LinearProgress />}</Box>
        <TableContainer>
          <Table
            size="small"
            aria-label={t("policies.table.label")}
            aria-busy={isLoading(policies)}
            data-testid="policies-table"
          >
            <TableHead>
              <TableRow>
                <TableCell>{t("policies.table.name")}</TableCell>
                <TableCell>{t("policies.table.dataTypes")}</TableCell>
                <TableCell>{t("policies.table.frequency")}</TableCell>
                <TableCell>{t("policies.table.schedule")}</TableCell>
                <TableCell>{t("policies.table.retention")}</TableCell>
                <TableCell align="right">{t("policies.table.resources")}</TableCell>
                <TableCell align="right">{t("policies.table.actions")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(policies.data?.policies ?? []).map((policy) => (
                <TableRow
                  key={policy.policyId}
                  hover
                  data-testid="policy-row"
                  data-policy-id={policy.policyId}
                >
                  <TableCell>
                    <Box sx={{ display: "flex", gap: 1, alignItems: "center" }}>
                      <Typography variant="body2" sx={{ fontWeight: 500 }} data-testid="policy-name">
                        {policy.name}
                      </Typography>
                      {policy.isDefault && <Chip size="small" label={t("policies.table.default")} />}
                    </Box>
                  </TableCell>
                  <TableCell>
                    {policy.dataTypes.map((type) => t(`policies.dataTypes.${type}`)).join(", ")}
                  </TableCell>
                  <TableCell>{t(`policies.frequency.${policy.frequency}`)}</TableCell>
                  <TableCell>
                    <Schedule policy={policy} />
                  </TableCell>
                  <TableCell>
                    {t("policies.retentionDays", { count: policy.retentionDays })}
                    {policy.archiving && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {t("policies.archiving.on")}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right" data-testid="policy-resources">
                    {policy.resourceCount}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    <IconButton
                      size="small"
                      aria-label={t("policies.table.edit", { name: policy.name })}
                      disabled={!canManage}
                      onClick={() => setEditing({ open: true, policy })}
                    >
                      <EditOutlined fontSize="small" />
                    </IconButton>
                    <Tooltip title={policy.isDefault ? t("policies.table.defaultUndeletable") : ""}>
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t("policies.table.delete", { name: policy.name })}
                          disabled={!canManage || policy.isDefault}
                          onClick={() => setDeleting(policy)}
                        >
                          <DeleteOutlined fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
              {policies.isSuccess && !isLoading(policies) && policies.data.policies.length === 0 && (
                <TableRow>
                  <TableCell colSpan={7}>
                    <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
                      {t("policies.table.empty")}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Card>

      {planId && (
        <PolicyDialog
          open={editing.open}
          policy={editing.policy}
          planId={planId}
          saving={create.pending || update.pending}
          onClose={() => setEditing((current) => ({ ...current, open: false }))}
          onSave={save}
        />
      )}

      <Dialog
        open={deleting !== null}
        onClose={remove.pending ? undefined : () => setDeleting(null)}
        aria-labelledby="delete-policy-title"
      >
        <DialogTitle id="delete-policy-title">{t("policies.delete.title")}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t("policies.delete.body", { name: deleting?.name ?? "" })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)} disabled={remove.pending}>
            {t("policies.delete.cancel")}
          </Button>
          <Button color="error" variant="contained" onClick={confirmDelete} disabled={remove.pending}>
            {t("policies.delete.confirm")}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
