import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { DrillItem, DrillOutcome, DrillRun } from "@alpvault/contracts/drills";
import { SERVICE_LABELS } from "@alpvault/contracts/backups";
import { useTranslation } from "react-i18next";
import { useDrillRun } from "../api/get-drill-run";
import "../i18n/register";

const OUTCOME_COLORS: Record<DrillOutcome, "success" | "warning" | "error" | "default"> = {
  matched: "success",
  mismatched: "error",
  failed: "error",
  skipped: "warning",
};

/** One drawn item: whose, which service, its name, how its restored copy compared, and why not. */
function DrillItemRow({ item }: { item: DrillItem }) {
  const { t } = useTranslation();
  return (
    <TableRow data-testid="drill-item" data-outcome={item.outcome ?? "waiting"}>
      <TableCell>{item.resourceName}</TableCell>
      <TableCell>{SERVICE_LABELS[item.service]}</TableCell>
      <TableCell sx={{ overflowWrap: "anywhere" }}>{item.name}</TableCell>
      <TableCell>
        <Chip
          size="small"
          variant="outlined"
          label={t(`drills.outcomes.${item.outcome ?? "waiting"}`)}
          color={item.outcome ? OUTCOME_COLORS[item.outcome] : "default"}
        />
      </TableCell>
      <TableCell>{item.reason ?? ""}</TableCell>
    </TableRow>
  );
}

/**
 * A drill run opened from the history (`GET …/drills/runs/{id}`): every item it sampled, each with how its
 * restored copy compared with the backup (matched, mismatched, failed, skipped) and why not; read again while
 * the drill runs.
 */
export default function DrillRunDialog({
  organizationId,
  run,
  title,
  onClose,
}: {
  organizationId: string | null;
  /** The run as the history lists it; null: the dialog is closed. */
  run: DrillRun | null;
  /** The run named for the dialog ("Drill of Nov 29, 2026, 8:00 AM"). */
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const detail = useDrillRun(organizationId, run?.drillRunId ?? null);
  const counts = (detail.data ?? run)?.counts;
  return (
    <Dialog open={run !== null} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="drill-run-title">
      <DialogTitle id="drill-run-title">{title}</DialogTitle>
      <DialogContent>
        {counts && (
          <Typography variant="body2" data-testid="drill-run-summary" sx={{ mb: 1 }}>
            {t("drills.summary", { ...counts, count: counts.sample })}
          </Typography>
        )}
        {detail.data?.failureReason && <Alert severity="error">{detail.data.failureReason}</Alert>}
        {detail.isPending && detail.fetchStatus === "fetching" && (
          <LinearProgress aria-label={t("drills.itemsLoading")} />
        )}
        {detail.error && <Alert severity="error">{detail.error.message}</Alert>}
        {detail.data && (
          <TableContainer>
            <Table size="small" aria-label={t("drills.items")}>
              <TableHead>
                <TableRow>
                  {(["resource", "service", "item", "outcome", "reason"] as const).map((column) => (
                    <TableCell key={column}>{t(`drills.itemColumns.${column}`)}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {detail.data.items.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={5}>{t("drills.noItems")}</TableCell>
                  </TableRow>
                )}
                {detail.data.items.map((item) => (
                  <DrillItemRow key={`${item.resourceId}/${item.service}/${item.itemKey}`} item={item} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("drills.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
