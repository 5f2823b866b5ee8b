import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { Fragment, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  DRILL_DEFAULT_SAMPLE_SIZE,
  DRILL_DEFAULT_SCHEDULE,
  DRILL_MAX_SAMPLE_SIZE,
  DRILL_MESSAGES,
  DRILL_SCHEDULES,
  type DrillSchedule,
  type DrillSettings,
} from "@alpvault/contracts/drills";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError, isLoading } from "@/lib/query";
import "../i18n/register";
import { useDrillSettings } from "../api/get-drill-settings";
import { isDrillActive, useDrillRuns } from "../api/list-drill-runs";
import { useMailboxes } from "../api/list-mailboxes";
import { useStartDrill } from "../api/start-drill";
import { useUpdateDrillSettings } from "../api/update-drill-settings";

interface Form {
  enabled: boolean;
  sandboxResourceId: string;
  sampleSize: string;
  schedule: DrillSchedule;
}

const formOf = (settings: DrillSettings | undefined): Form => ({
  enabled: settings?.enabled ?? false,
  sandboxResourceId: settings?.sandboxResourceId ?? "",
  sampleSize: String(settings?.sampleSize ?? DRILL_DEFAULT_SAMPLE_SIZE),
  schedule: settings?.schedule ?? DRILL_DEFAULT_SCHEDULE,
});

/** The form's rules, with the API's texts. */
function validate(form: Form): Partial<Record<keyof Form, string>> {
  const errors: Partial<Record<keyof Form, string>> = {};
  const size = Number(form.sampleSize);
  if (!/^\d+$/.test(form.sampleSize) || size < 1 || size > DRILL_MAX_SAMPLE_SIZE) {
    errors.sampleSize = DRILL_MESSAGES.sampleSize;
  }
  if (form.enabled && !form.sandboxResourceId) errors.sandboxResourceId = DRILL_MESSAGES.sandboxRequired;
  return errors;
}

/**
 * Restore drills: the settings (a schedule, the sandbox mailbox among the organisation's mailboxes, the
 * sample size), "Run a drill now", and the history (date, sample, matched, mismatched, duration, state),
 * with the items of a run that did not match or failed listed under it. The history refreshes while a drill
 * runs.
 */
export function DrillsScreen() {
  const { t, i18n } = useTranslation();
  const { organizationId } = useSession();
  const { show } = useSnackbar();
  const settings = useDrillSettings(organizationId);
  const mailboxes = useMailboxes(organizationId);
  const [page, setPage] = useState(1);
  const runs = useDrillRuns(organizationId, page);
  const running = runs.data?.runs.some(isDrillActive) ?? false;
  const save = useUpdateDrillSettings();
  const start = useStartDrill();
  const [form, setForm] = useState<Form>(formOf(undefined));
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (settings.data) setForm(formOf(settings.data));
  }, [settings.data]);

  const errors = touched ? validate(form) : {};
  const fail = (error: unknown) => show({ text: asApiError(error).message, isError: true });

  const onSave = async () => {
    setTouched(true);
    if (!organizationId || Object.keys(validate(form)).length > 0) return;
    try {
      await save.run(organizationId, {
        enabled: form.enabled,
        sandboxResourceId: form.sandboxResourceId || null,
        sampleSize: Number(form.sampleSize),
        schedule: form.schedule,
      });
      show({ text: t("drills.saved"), isError: false });
    } catch (error) {
      fail(error);
    }
  };

  const onRun = async () => {
    if (!organizationId) return;
    try {
      await start.run(organizationId);
      show({ text: t("drills.started"), isError: false });
      setPage(1);
    } catch (error) {
      fail(error);
    }
  };

  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const history = runs.data;
  const pages = history ? Math.max(1, Math.ceil(history.total / history.pageSize)) : 1;
  const saved = settings.data;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {t("drills.intro")}
      </Typography>
      {settings.error && <Alert severity="error">{settings.error.message}</Alert>}
      <Card
        component="form"
        aria-label={t("drills.settings")}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void onSave();
        }}
        sx={{ p: 2, display: "flex", flexDirection: "column", gap: 2 }}
      >
        <Typography variant="h6" component="h2">
          {t("drills.settings")}
        </Typography>
        <FormControlLabel
          control={
            <Switch
              checked={form.enabled}
              onChange={(event) => setForm({ ...form, enabled: event.target.checked })}
            />
          }
          label={t("drills.enabled")}
        />
        <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}>
          <TextField
            select
            id="drill-sandbox"
            label={t("drills.sandbox")}
            value={form.sandboxResourceId}
            onChange={(event) => setForm({ ...form, sandboxResourceId: event.target.value })}
            error={Boolean(errors.sandboxResourceId)}
            helperText={errors.sandboxResourceId ?? t("drills.sandboxHelp")}
            sx={{ minWidth: 320 }}
          >
            {(mailboxes.data ?? []).map((mailbox) => (
              <MenuItem key={mailbox.resourceId} value={mailbox.resourceId}>
                {mailbox.name} ({mailbox.email})
              </MenuItem>
            ))}
          </TextField>
          <TextField
            id="drill-sample-size"
            label={t("drills.sampleSize")}
            type="number"
            value={form.sampleSize}
            onChange={(event) => setForm({ ...form, sampleSize: event.target.value })}
            error={Boolean(errors.sampleSize)}
            helperText={errors.sampleSize ?? " "}
            slotProps={{ htmlInput: { min: 1, max: DRILL_MAX_SAMPLE_SIZE } }}
            sx={{ width: 240 }}
          />
          <TextField
            select
            id="drill-schedule"
            label={t("drills.schedule")}
            value={form.schedule}
            onChange={(event) => setForm({ ...form, schedule: event.target.value as DrillSchedule })}
            helperText=" "
            sx={{ minWidth: 200 }}
          >
            {DRILL_SCHEDULES.map((schedule) => (
              <MenuItem key={schedule} value={schedule}>
                {t(`drills.schedules.${schedule}`)}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        {saved?.nextDrillAt && (
          <Typography variant="body2" color="text.secondary">
            {t("drills.nextDrill", { date: dateFormat.format(new Date(saved.nextDrillAt)) })}
          </Typography>
        )}
        <Box sx={{ display: "flex", gap: 2 }}>
          <Button type="submit" variant="contained" disabled={save.pending}>
            {t("drills.save")}
          </Button>
          <Button
            variant="outlined"
            onClick={() => void onRun()}
            disabled={start.pending || running || !saved?.sandboxResourceId}
          >
            {t("drills.runNow")}
          </Button>
        </Box>
      </Card>

      <Card sx={{ p: 0 }}>
        <Typography variant="h6" component="h2" sx={{ p: 2, pb: 0 }}>
          {t("drills.history")}
        </Typography>
        {isLoading(runs) && !history && <LinearProgress />}
        {runs.error && <Alert severity="error">{runs.error.message}</Alert>}
        <TableContainer>
          <Table aria-label={t("drills.history")}>
            <TableHead>
              <TableRow>
                {(["date", "sample", "matched", "mismatched", "duration", "state"] as const).map((column) => (
                  <TableCell key={column}>{t(`drills.columns.${column}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {history?.runs.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6}>{t("drills.empty")}</TableCell>
                </TableRow>
              )}
              {history?.runs.map((run) => (
                <Fragment key={run.drillRunId}>
                  <TableRow data-testid="drill-run">
                    <TableCell>{dateFormat.format(new Date(run.requestedAt))}</TableCell>
                    <TableCell>{run.counts.sample}</TableCell>
                    <TableCell>
                      {t("drills.matchedShare", {
                        matched: run.counts.matched,
                        percent:
                          run.counts.sample > 0
                            ? Math.floor((run.counts.matched / run.counts.sample) * 100)
                            : 0,
                      })}
                    </TableCell>
                    <TableCell>{run.counts.mismatched}</TableCell>
                    <TableCell>
                      {run.durationMs === null
                        ? "—"
                        : t("drills.seconds", { count: Math.round(run.durationMs / 1000) })}
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        label={t(`drills.states.${run.state}`)}
                        color={
                          run.state === "passed" ? "success" : run.state === "failed" ? "error" : "default"
                        }
                      />
                    </TableCell>
                  </TableRow>
                  {(run.problems.length > 0 || run.failureReason) && (
                    <TableRow>
                      <TableCell colSpan={6} sx={{ pt: 0 }}>
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
                  )}
                </Fragment>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, p: 1 }}>
          <Typography variant="body2">{t("drills.page", { page, pages })}</Typography>
          <IconButton
            aria-label={t("drills.previous")}
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            <ChevronLeft />
          </IconButton>
          <IconButton
            aria-label={t("drills.next")}
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            <ChevronRight />
          </IconButton>
        </Box>
      </Card>
    </Box>
  );
}
