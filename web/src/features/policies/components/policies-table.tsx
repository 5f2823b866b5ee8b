import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
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
import { useTranslation } from "react-i18next";
import type { Policy } from "@alpvault/contracts/policies";

/** What a row's buttons do; `canManage` on paid plans. */
interface PolicyRowHandlers {
  canManage: boolean;
  onEdit: (policy: Policy) => void;
  onDelete: (policy: Policy) => void;
}

function Schedule({ policy }: { policy: Policy }) {
  const { t } = useTranslation();
  if (policy.schedule !== "days") return <>{t(`policies.schedule.${policy.schedule}`)}</>;
  return <>{policy.days.map((day) => t(`policies.days.${day}`)).join(", ")}</>;
}

function PolicyRow({ policy, handlers }: { policy: Policy; handlers: PolicyRowHandlers }) {
  const { t } = useTranslation();
  const { canManage } = handlers;
  return (
    <TableRow hover data-testid="policy-row" data-policy-id={policy.policyId}>
      <TableCell>
        <Box sx={{ display: "flex", gap: 1, alignItems: "center" }}>
          <Typography variant="body2" sx={{ fontWeight: 500 }} data-testid="policy-name">
            {policy.name}
          </Typography>
          {policy.isDefault && <Chip size="small" label={t("policies.table.default")} />}
        </Box>
      </TableCell>
      <TableCell>{policy.dataTypes.map((type) => t(`policies.dataTypes.${type}`)).join(", ")}</TableCell>
      <TableCell>{t(`policies.frequency.${policy.frequency}`)}</TableCell>
      <TableCell>
        <Schedule policy={policy} />
      </TableCell>
      <TableCell>
        {t("policies.retentionDays", { count: policy.retentionDays })}
        <Typography variant="caption" color="text.secondary" component="div">
          {t(policy.archiving ? "policies.archiving.on" : "policies.archiving.off")}
        </Typography>
      </TableCell>
      <TableCell align="right" data-testid="policy-resources">
        {policy.resourceCount}
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
        <IconButton
          size="small"
          aria-label={t("policies.table.edit", { name: policy.name })}
          disabled={!canManage}
          onClick={() => handlers.onEdit(policy)}
        >
          <EditOutlined fontSize="small" />
        </IconButton>
        <Tooltip title={policy.isDefault ? t("policies.table.defaultUndeletable") : ""}>
          <span>
            <IconButton
              size="small"
              aria-label={t("policies.table.delete", { name: policy.name })}
              disabled={!canManage || policy.isDefault}
              onClick={() => handlers.onDelete(policy)}
            >
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
}

/** The policies with "Create policy" above them; says so when there are none. */
export function PoliciesTable({
  policies,
  loading,
  empty,
  handlers,
  onCreate,
}: {
  policies: readonly Policy[];
  loading: boolean;
  /** The list was read and has no policy. */
  empty: boolean;
  handlers: PolicyRowHandlers;
  onCreate: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card variant="outlined">
      <Box sx={{ p: 2, display: "flex", justifyContent: "flex-end" }}>
        <Button
          variant="contained"
          startIcon={<AddOutlined />}
          disabled={!handlers.canManage}
          onClick={onCreate}
        >
          {t("policies.create")}
        </Button>
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      <TableContainer>
        <Table
          size="small"
          aria-label={t("policies.table.label")}
          aria-busy={loading}
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
            {policies.map((policy) => (
              <PolicyRow key={policy.policyId} policy={policy} handlers={handlers} />
            ))}
            {empty && (
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
  );
}
