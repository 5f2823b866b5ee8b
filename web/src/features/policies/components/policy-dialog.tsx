import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useFormik } from "formik";
import { Link as RouterLink } from "react-router-dom";
import { useTranslation } from "react-i18next";
import {
  AVAILABLE_DATA_TYPES,
  DATA_TYPES,
  FREQUENCIES,
  RETENTION_CHOICES,
  SCHEDULES,
  WEEKDAYS,
  planAllowsFrequency,
  policySchema,
  validatePolicy,
  type DataType,
  type Frequency,
  type Policy,
  type PolicyInput,
  type Schedule,
  type Weekday,
} from "@alpvault/contracts/policies";
import type { PlanId } from "@alpvault/contracts/plans";
import { paths } from "@/config/paths";
import "../i18n/register";

interface PolicyFormValues {
  name: string;
  dataTypes: DataType[];
  frequency: Frequency | "";
  schedule: Schedule | "";
  days: Weekday[];
  retentionDays: number;
  archiving: boolean;
}

/** A new policy starts empty: the admin chooses what, how often and when (docs/requirements.md#validation rules). */
const EMPTY: PolicyFormValues = {
  name: "",
  dataTypes: [],
  frequency: "",
  schedule: "",
  days: [],
  retentionDays: 30,
  archiving: false,
};

function valuesOf(policy: Policy | null): PolicyFormValues {
  if (!policy) return EMPTY;
  const { name, dataTypes, frequency, schedule, days, retentionDays, archiving } = policy;
  return { name, dataTypes, frequency, schedule, days, retentionDays, archiving };
}

const toggled = <T,>(list: readonly T[], item: T, on: boolean): T[] =>
  on ? [...list.filter((value) => value !== item), item] : list.filter((value) => value !== item);

/**
 * The create and edit dialog of a backup policy (formik with the schema the API validates with, so both
 * show the same texts). Frequencies the plan does not include are disabled, saying which plan they need,
 * with a link to the plans.
 */
export function PolicyDialog({
  open,
  policy,
  planId,
  saving,
  onClose,
  onSave,
}: {
  open: boolean;
  /** The policy being edited; null creates one. */
  policy: Policy | null;
  planId: PlanId;
  saving: boolean;
  onClose: () => void;
  /** Resolves when saved (the dialog is then closed by the screen); rejects to keep it open. */
  onSave: (input: PolicyInput) => Promise<void>;
}) {
  const { t } = useTranslation();
  const form = useFormik<PolicyFormValues>({
    initialValues: valuesOf(policy),
    enableReinitialize: true,
    validationSchema: policySchema,
    onSubmit: async (values) => {
      try {
        await onSave(validatePolicy(values));
      } catch {
        // The screen has shown why; the dialog stays open with the values.
      }
    },
  });
  const shown = (field: keyof PolicyFormValues): string | undefined => {
    const error = form.errors[field];
    return (form.submitCount > 0 || form.touched[field]) && typeof error === "string" ? error : undefined;
  };
  const retentionChoices = [...new Set<number>([...RETENTION_CHOICES, form.values.retentionDays])].sort(
    (a, b) => a - b,
  );
  const frequencyNeed = (frequency: Frequency): string | null =>
    frequency === 3
      ? t("policies.frequency.needsGeneva")
      : frequency === 24
        ? t("policies.frequency.needsZurich")
        : null;
  const limited = FREQUENCIES.some((frequency) => !planAllowsFrequency(planId, frequency));

  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="policy-dialog-title"
      data-testid="policy-dialog"
      slotProps={{ transition: { onExited: () => form.resetForm() } }}
    >
      <Box component="form" noValidate onSubmit={form.handleSubmit}>
        <DialogTitle id="policy-dialog-title">
          {policy ? t("policies.form.editTitle") : t("policies.form.createTitle")}
        </DialogTitle>
        <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}>
          <TextField
            name="name"
            label={t("policies.form.name")}
            value={form.values.name}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={Boolean(shown("name"))}
            helperText={shown("name")}
            required
            autoFocus
            sx={{ mt: 1 }}
          />

          <FormControl error={Boolean(shown("dataTypes"))} component="fieldset">
            <FormLabel component="legend">{t("policies.form.dataTypes")}</FormLabel>
            <FormGroup row>
              {DATA_TYPES.map((type) => {
                const available = AVAILABLE_DATA_TYPES.includes(type);
                return (
                  <FormControlLabel
                    key={type}
                    disabled={!available}
                    control={
                      <Checkbox
                        checked={form.values.dataTypes.includes(type)}
                        onChange={(event) =>
                          void form.setFieldValue(
                            "dataTypes",
                            toggled(form.values.dataTypes, type, event.target.checked),
                          )
                        }
                      />
                    }
                    label={
                      available
                        ? t(`policies.dataTypes.${type}`)
                        : `${t(`policies.dataTypes.${type}`)} (${t("policies.dataTypes.comingSoon")})`
                    }
                  />
                );
              })}
            </FormGroup>
            {shown("dataTypes") && <FormHelperText>{shown("dataTypes")}</FormHelperText>}
          </FormControl>

          <FormControl error={Boolean(shown("frequency"))} component="fieldset">
            <FormLabel id="policy-frequency-label">{t("policies.form.frequency")}</FormLabel>
            <RadioGroup
              aria-labelledby="policy-frequency-label"
              name="frequency"
              value={form.values.frequency}
              onChange={(event) => void form.setFieldValue("frequency", Number(event.target.value))}
            >
              {FREQUENCIES.map((frequency) => {
                const need = frequencyNeed(frequency);
                const allowed = planAllowsFrequency(planId, frequency);
                return (
                  <FormControlLabel
                    key={frequency}
                    value={frequency}
                    disabled={!allowed}
                    control={<Radio />}
                    label={
                      <Box>
                        <Typography variant="body2">{t(`policies.frequency.${frequency}`)}</Typography>
                        {need && (
                          <Typography variant="caption" color="text.secondary">
                            {need}
                          </Typography>
                        )}
                      </Box>
                    }
                  />
                );
              })}
            </RadioGroup>
            {shown("frequency") && <FormHelperText>{shown("frequency")}</FormHelperText>}
            {limited && (
              <Typography variant="body2" color="text.secondary" data-testid="policy-upgrade-hint">
                {t("policies.form.upgradeHint")}{" "}
                <Link component={RouterLink} to={paths.app.plans.getHref()}>
                  {t("policies.freePlan.upgrade")}
                </Link>
              </Typography>
            )}
          </FormControl>

          <FormControl error={Boolean(shown("schedule") ?? shown("days"))} component="fieldset">
            <FormLabel id="policy-schedule-label">{t("policies.form.schedule")}</FormLabel>
            <RadioGroup
              aria-labelledby="policy-schedule-label"
              name="schedule"
              row
              value={form.values.schedule}
              onChange={form.handleChange}
            >
              {SCHEDULES.map((schedule) => (
                <FormControlLabel
                  key={schedule}
                  value={schedule}
                  control={<Radio />}
                  label={t(`policies.schedule.${schedule}`)}
                />
              ))}
            </RadioGroup>
            {form.values.schedule === "days" && (
              <FormGroup row aria-label={t("policies.form.days")}>
                {WEEKDAYS.map((day) => (
                  <FormControlLabel
                    key={day}
                    control={
                      <Checkbox
                        checked={form.values.days.includes(day)}
                        onChange={(event) =>
                          void form.setFieldValue(
                            "days",
                            toggled(form.values.days, day, event.target.checked),
                          )
                        }
                      />
                    }
                    label={t(`policies.days.${day}`)}
                  />
                ))}
              </FormGroup>
            )}
            {(shown("schedule") ?? shown("days")) && (
              <FormHelperText>{shown("schedule") ?? shown("days")}</FormHelperText>
            )}
          </FormControl>

          <TextField
            select
            name="retentionDays"
            label={t("policies.form.retention")}
            value={form.values.retentionDays}
            onChange={(event) => void form.setFieldValue("retentionDays", Number(event.target.value))}
            error={Boolean(shown("retentionDays"))}
            helperText={shown("retentionDays")}
          >
            {retentionChoices.map((days) => (
              <MenuItem key={days} value={days}>
                {t("policies.retentionDays", { count: days })}
              </MenuItem>
            ))}
          </TextField>

          <FormControlLabel
            control={
              <Switch
                name="archiving"
                checked={form.values.archiving}
                onChange={(event) => void form.setFieldValue("archiving", event.target.checked)}
              />
            }
            label={
              <Box>
                <Typography variant="body2">{t("policies.archiving.label")}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {t("policies.archiving.help")}
                </Typography>
              </Box>
            }
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            {t("policies.form.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {policy ? t("policies.form.save") : t("policies.form.create")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
