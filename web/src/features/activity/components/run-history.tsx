import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { ScatterChart } from "@mui/x-charts/ScatterChart";
import type { BackupRunSummary, RunOutcomeMark } from "@alpvault/contracts/activity";
import { BACKUP_FAILURE_REASONS, SERVICE_LABELS, skipReasonText } from "@alpvault/contracts/backups";
import { useTranslation } from "react-i18next";
import { ListCard } from "@/components/ui/list-card";
import { formatStorage } from "@/lib/format";
import { isLoading } from "@/lib/query";
import { useBackupRuns } from "../api/list-backup-runs";
import { formatDuration, outcomeColor, timeAxis, useDateTimeFormat } from "./chart-format";
import "../i18n/register";

const OUTCOMES: readonly RunOutcomeMark[] = ["ok", "partial", "failed", "running"];

/** When a run is marked on the time axis: its end, else its start, else its request. */
function runTime(run: BackupRunSummary): number {
  return Date.parse(run.finishedAt ?? run.startedAt ?? run.requestedAt ?? "");
}

/** One mark per run (x: when, y: items backed up), one series per outcome in the outcome's colour. */
function HistoryChart({ runs, name }: { runs: BackupRunSummary[]; name: string }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const dateTime = useDateTimeFormat();
  const marked = runs.filter((run) => !Number.isNaN(runTime(run)));
  // Round ticks, each written as precisely as their step needs (no two alike), none at the very edge.
  const axis = marked.length > 0 ? timeAxis(marked.map(runTime), i18n.language) : null;
  const series = OUTCOMES.map((outcome) => ({
    id: outcome,
    label: t(`activity.outcomes.${outcome}`),
    color: outcomeColor(theme, outcome),
    markerSize: 5,
    data: marked
      .filter((run) => run.outcome === outcome)
      .map((run) => ({ id: run.runId, x: runTime(run), y: run.items })),
    valueFormatter: (value: { x: number; y: number } | null) =>
      value ? `${dateTime.format(new Date(value.x))}: ${value.y.toLocaleString()}` : "",
  })).filter((entry) => entry.data.length > 0);
  return (
    <Box
      role="img"
      aria-label={t("activity.history.chartLabel", { name })}
      data-testid="run-history-chart"
      data-marks={marked.length}
    >
      <ScatterChart
        height={240}
        series={series}
        xAxis={[
          {
            scaleType: "time",
            ...(axis ? { min: axis.min, max: axis.max, tickInterval: axis.ticks } : {}),
            valueFormatter: (value: Date | number, context: { location: string }) =>
              context.location === "tick" && axis
                ? axis.format(Number(value))
                : dateTime.format(new Date(value)),
          },
        ]}
        yAxis={[{ label: t("activity.history.items"), min: 0 }]}
      />
    </Box>
  );
}

/** What a run did not back up, by service and reason, and the first items named. */
function RunProblems({ run }: { run: BackupRunSummary }) {
  const { t } = useTranslation();
  if (run.skippedItems === 0) return null;
  const reasons = Object.entries(run.services).flatMap(([service, summary]) =>
    Object.entries(summary?.skipped ?? {}).map(([reason, count]) => ({ service, reason, count })),
  );
  const more = run.skippedItems - run.problems.length;
  return (
    <Box component="details" data-testid="run-problems" sx={{ mt: 0.5 }}>
      <Box component="summary" sx={{ cursor: "pointer" }}>
        {t("activity.history.skipped", { count: run.skippedItems })}
      </Box>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {reasons.map(({ service, reason, count }) => (
          <li key={`${service}-${reason}`}>
            {t("activity.history.serviceSkipped", {
              service: SERVICE_LABELS[service as keyof typeof SERVICE_LABELS] ?? service,
              count,
              reason: skipReasonText(reason),
            })}
          </li>
        ))}
      </Box>
      {run.problems.length > 0 && (
        <>
          <Typography variant="caption" component="p" sx={{ mt: 0.5 }}>
            {t("activity.history.problems")}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2, fontFamily: "monospace", fontSize: "0.75rem" }}>
            {run.problems.map((problem) => (
              <li key={problem.itemKey} data-testid="run-problem">
                {problem.itemKey}: {skipReasonText(problem.reason)}
              </li>
            ))}
            {more > 0 && <li>{t("activity.history.more", { count: more })}</li>}
          </Box>
        </>
      )}
    </Box>
  );
}

const OUTCOME_CHIP: Record<RunOutcomeMark, "success" | "warning" | "error" | "info"> = {
  ok: "success",
  partial: "warning",
  failed: "error",
  running: "info",
};

function RunRow({ run }: { run: BackupRunSummary }) {
  const { t, i18n } = useTranslation();
  const dateTime = useDateTimeFormat();
  const started = run.startedAt ?? run.requestedAt;
  const duration =
    run.startedAt && run.finishedAt
      ? formatDuration((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000)
      : run.outcome === "running"
        ? t("activity.history.running")
        : t("activity.history.notStarted");
  return (
    <TableRow data-testid="run-row" data-run-id={run.runId} data-outcome={run.outcome}>
      <TableCell>{started ? dateTime.format(new Date(started)) : "—"}</TableCell>
      <TableCell>{duration}</TableCell>
      <TableCell>{t(`activity.triggers.${run.trigger ?? "unknown"}`)}</TableCell>
      <TableCell>
        <Chip
          size="small"
          variant="outlined"
          color={OUTCOME_CHIP[run.outcome]}
          label={t(`activity.outcomes.${run.outcome}`)}
          data-testid="run-outcome"
        />
        {run.failureReason && (
          <Typography variant="body2" color="error" data-testid="run-failure">
            {t("activity.history.failedBecause", { reason: BACKUP_FAILURE_REASONS[run.failureReason] })}
          </Typography>
        )}
        <RunProblems run={run} />
      </TableCell>
      <TableCell align="right" data-testid="run-items">
        {run.items.toLocaleString(i18n.language)}
      </TableCell>
      <TableCell align="right" data-testid="run-bytes">
        {formatStorage(run.bytes)}
      </TableCell>
      <TableCell align="right">{formatStorage(run.storedBytes)}</TableCell>
    </TableRow>
  );
}

/**
 * A resource's backup history (docs/requirements.md#backup-activity): a chart with one mark per run (items
 * backed up, coloured by how it ended) above the runs themselves, newest first, each with its trigger,
 * duration, outcome, failure reason and what it skipped and why; older runs page by page.
 */
export function RunHistory({
  organizationId,
  resourceId,
  name,
}: {
  organizationId: string | null;
  resourceId: string;
  name: string;
}) {
  const { t } = useTranslation();
  const history = useBackupRuns(organizationId, resourceId);
  const runs = history.data?.pages.flatMap((page) => page.runs) ?? [];
  return (
    <ListCard
      id="run-history"
      heading={t("activity.history.heading")}
      intro={t("activity.history.intro")}
      loading={isLoading(history)}
      error={history.error?.message ?? null}
      empty={history.data && runs.length === 0 ? t("activity.history.empty") : null}
      emptyTestId="run-history-empty"
    >
      {runs.length > 0 && (
        <>
          <HistoryChart runs={runs} name={name} />
          <Box sx={{ overflowX: "auto" }}>
            <Table size="small" aria-label={t("activity.history.table", { name })}>
              <TableHead>
                <TableRow>
                  <TableCell>{t("activity.history.started")}</TableCell>
                  <TableCell>{t("activity.history.duration")}</TableCell>
                  <TableCell>{t("activity.history.trigger")}</TableCell>
                  <TableCell>{t("activity.history.outcome")}</TableCell>
                  <TableCell align="right">{t("activity.history.itemsColumn")}</TableCell>
                  <TableCell align="right">{t("activity.history.data")}</TableCell>
                  <TableCell align="right">{t("activity.history.stored")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {runs.map((run) => (
                  <RunRow key={run.runId} run={run} />
                ))}
              </TableBody>
            </Table>
          </Box>
          {history.hasNextPage && (
            <Box sx={{ p: 2 }}>
              <Button
                variant="outlined"
                disabled={history.isFetchingNextPage}
                onClick={() => void history.fetchNextPage()}
              >
                {t("activity.history.older")}
              </Button>
            </Box>
          )}
        </>
      )}
    </ListCard>
  );
}
