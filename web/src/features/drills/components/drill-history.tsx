import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
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
import Typography from "@mui/material/Typography";
import Button from "@mui/material/Button";
import { Fragment, lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DrillRun, DrillRunsPage } from "@alpvault/contracts/drills";
import { WhenWanted } from "@/components/ui/when-wanted";

/** A run's items load when a run is first opened. */
const DrillRunDialog = lazy(() => import("./drill-run-dialog"));

/** A run's line: date, sample, matched (with its share), mismatched, duration and state, and its items. */
function DrillRunRow({
  run,
  dateFormat,
  onOpen,
}: {
  run: DrillRun;
  dateFormat: Intl.DateTimeFormat;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  return (
    <TableRow data-testid="drill-run">
      <TableCell>{dateFormat.format(new Date(run.requestedAt))}</TableCell>
      <TableCell>{run.counts.sample}</TableCell>
      <TableCell>
        {t("drills.matchedShare", {
          matched: run.counts.matched,
          percent: run.counts.sample > 0 ? Math.floor((run.counts.matched / run.counts.sample) * 100) : 0,
        })}
      </TableCell>
      <TableCell>{run.counts.mismatched}</TableCell>
      <TableCell>
        {run.durationMs === null ? "—" : t("drills.seconds", { count: Math.round(run.durationMs / 1000) })}
      </TableCell>
      <TableCell>
        <Chip
          size="small"
          label={t(`drills.states.${run.state}`)}
          color={run.state === "passed" ? "success" : run.state === "failed" ? "error" : "default"}
        />
      </TableCell>
      <TableCell>
        <Button
          size="small"
          onClick={onOpen}
          aria-label={t("drills.showItemsOf", { date: dateFormat.format(new Date(run.requestedAt)) })}
        >
          {t("drills.showItems")}
        </Button>
      </TableCell>
    </TableRow>
  );
}

/** Under a run: why it failed, and the items that did not match. */
function DrillRunProblems({ run }: { run: DrillRun }) {
  const { t } = useTranslation();
  if (run.problems.length === 0 && !run.failureReason) return null;
  return (
    <TableRow>
      <TableCell colSpan={7} sx={{ pt: 0 }}>
        {run.failureReason && (
          <Typography variant="body2" color="error">
            {run.failureReason}
          </Typography>
        )}
        {run.problems.length > 0 && (
          <Box component="ul" aria-label={t("drills.problems")} sx={{ m: 0, pl: 3 }}>
            {run.problems.map((item) => (
              <li key={`${item.resourceId}/${item.itemKey}`}>
                <Typography variant="body2">
                  {t("drills.problem", {
                    resource: item.resourceName,
                    name: item.name,
                    reason: item.reason ?? "",
                  })}
                </Typography>
              </li>
            ))}
          </Box>
        )}
      </TableCell>
    </TableRow>
  );
}

/** The drill history, one page at a time, newest first; a run opens with every item it sampled. */
export function DrillHistory({
  organizationId,
  history,
  loading,
  error,
  page,
  onPage,
}: {
  organizationId: string | null;
  history: DrillRunsPage | undefined;
  loading: boolean;
  error: Error | null;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const pages = history ? Math.max(1, Math.ceil(history.total / history.pageSize)) : 1;
  const [opened, setOpened] = useState<DrillRun | null>(null);
  return (
    <Card sx={{ p: 0 }}>
      <Typography variant="h6" component="h2" sx={{ p: 2, pb: 0 }}>
        {t("drills.history")}
      </Typography>
      {loading && !history && <LinearProgress />}
      {error && <Alert severity="error">{error.message}</Alert>}
      <TableContainer>
        <Table aria-label={t("drills.history")}>
          <TableHead>
            <TableRow>
              {(["date", "sample", "matched", "mismatched", "duration", "state", "items"] as const).map(
                (column) => (
                  <TableCell key={column}>{t(`drills.columns.${column}`)}</TableCell>
                ),
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            {history?.runs.length === 0 && (
              <TableRow>
                <TableCell colSpan={7}>{t("drills.empty")}</TableCell>
              </TableRow>
            )}
            {history?.runs.map((run) => (
              <Fragment key={run.drillRunId}>
                <DrillRunRow run={run} dateFormat={dateFormat} onOpen={() => setOpened(run)} />
                <DrillRunProblems run={run} />
              </Fragment>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <WhenWanted wanted={opened !== null}>
        <DrillRunDialog
          organizationId={organizationId}
          run={opened}
          title={
            opened ? t("drills.runTitle", { date: dateFormat.format(new Date(opened.requestedAt)) }) : ""
          }
          onClose={() => setOpened(null)}
        />
      </WhenWanted>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, p: 1 }}>
        <Typography variant="body2">{t("drills.page", { page, pages })}</Typography>
        <IconButton aria-label={t("drills.previous")} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft />
        </IconButton>
        <IconButton aria-label={t("drills.next")} disabled={page >= pages} onClick={() => onPage(page + 1)}>
          <ChevronRight />
        </IconButton>
      </Box>
    </Card>
  );
}
