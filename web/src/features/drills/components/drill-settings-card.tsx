import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import {
  DRILL_MAX_SAMPLE_SIZE,
  DRILL_SCHEDULES,
  type DrillSchedule,
  type DrillSettings,
} from "@alpvault/contracts/drills";
import type { Mailbox } from "../api/list-mailboxes";
import { useDrillSettingsForm, type DrillForm, type DrillFormErrors } from "../hooks/use-drill-settings-form";

function DrillSettingsFields({
  form,
  errors,
  mailboxes,
  onChange,
}: {
  form: DrillForm;
  errors: DrillFormErrors;
  mailboxes: readonly Mailbox[];
  onChange: (form: DrillForm) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}>
      <TextField
        select
        id="drill-sandbox"
        label={t("drills.sandbox")}
        value={form.sandboxResourceId}
        onChange={(event) => onChange({ ...form, sandboxResourceId: event.target.value })}
        error={Boolean(errors.sandboxResourceId)}
        helperText={errors.sandboxResourceId ?? t("drills.sandboxHelp")}
        sx={{ minWidth: 320 }}
      >
        {mailboxes.map((mailbox) => (
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
        onChange={(event) => onChange({ ...form, sampleSize: event.target.value })}
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
        onChange={(event) => onChange({ ...form, schedule: event.target.value as DrillSchedule })}
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
  );
}

/**
 * The drill settings (enabled, the sandbox mailbox among the organisation's mailboxes, the sample size,
 * the schedule), the next drill's date, "Save" and "Run a drill now" (not while a drill is under way).
 */
export function DrillSettingsCard({
  organizationId,
  saved,
  mailboxes,
  running,
  onStarted,
}: {
  organizationId: string | null;
  saved: DrillSettings | undefined;
  mailboxes: readonly Mailbox[];
  running: boolean;
  onStarted: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { form, setForm, errors, onSave, onRun, savePending, startPending } = useDrillSettingsForm(
    organizationId,
    saved,
    onStarted,
  );
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  return (
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
      <DrillSettingsFields form={form} errors={errors} mailboxes={mailboxes} onChange={setForm} />
      {saved?.nextDrillAt && (
        <Typography variant="body2" color="text.secondary">
          {t("drills.nextDrill", { date: dateFormat.format(new Date(saved.nextDrillAt)) })}
        </Typography>
      )}
      <Box sx={{ display: "flex", gap: 2 }}>
        <Button type="submit" variant="contained" disabled={savePending}>
          {t("drills.save")}
        </Button>
        <Button
          variant="outlined"
          onClick={() => void onRun()}
          disabled={startPending || running || !saved?.sandboxResourceId}
        >
          {t("drills.runNow")}
        </Button>
      </Box>
    </Card>
  );
}
