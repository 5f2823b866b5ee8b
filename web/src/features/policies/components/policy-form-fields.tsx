import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
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
import type { useFormik } from "formik";
import { Link as RouterLink } from "react-router-dom";
import { useTranslation } from "react-i18next";
import {
  AVAILABLE_DATA_TYPES,
  DATA_TYPES,
  FREQUENCIES,
  RETENTION_CHOICES,
  SCHEDULES,
  WEEKDAYS,
  planAllowsDataType,
  planAllowsFrequency,
  type DataType,
  type Frequency,
  type Schedule,
  type Weekday,
} from "@alpvault/contracts/policies";
import type { PlanId } from "@alpvault/contracts/plans";
import { paths } from "@/config/paths";

export interface PolicyFormValues {
  name: string;
  dataTypes: DataType[];
  frequency: Frequency | "";
  schedule: Schedule | "";
  days: Weekday[];
  retentionDays: number;
  archiving: boolean;
}

/** The policy dialog's formik state, and the rule's text to show under a field (if any). */
export interface PolicyFieldProps {
  form: ReturnType<typeof useFormik<PolicyFormValues>>;
  shown: (field: keyof PolicyFormValues) => string | undefined;
}

const toggled = <T,>(list: readonly T[], item: T, on: boolean): T[] =>
  on ? [...list.filter((value) => value !== item), item] : list.filter((value) => value !== item);

/**
 * What to back up: the available data types, those the plan does not include disabled saying which plan
 * they need, the others shown as coming soon.
 */
export function DataTypesField({ form, shown, planId }: PolicyFieldProps & { planId: PlanId }) {
  const { t } = useTranslation();
  const labelOf = (type: DataType): string => {
    const name = t(`policies.dataTypes.${type}`);
    if (!AVAILABLE_DATA_TYPES.includes(type)) return `${name} (${t("policies.dataTypes.comingSoon")})`;
    return planAllowsDataType(planId, type) ? name : `${name} (${t("policies.dataTypes.needsZurich")})`;
  };
  return (
    <FormControl error={Boolean(shown("dataTypes"))} component="fieldset">
      <FormLabel component="legend">{t("policies.form.dataTypes")}</FormLabel>
      <FormGroup row>
        {DATA_TYPES.map((type) => {
          const open = AVAILABLE_DATA_TYPES.includes(type) && planAllowsDataType(planId, type);
          return (
            <FormControlLabel
              key={type}
              disabled={!open}
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
              label={labelOf(type)}
            />
          );
        })}
      </FormGroup>
      {shown("dataTypes") && <FormHelperText>{shown("dataTypes")}</FormHelperText>}
    </FormControl>
  );
}

/** How often: frequencies the plan does not include are disabled, saying which plan they need. */
export function FrequencyField({ form, shown, planId }: PolicyFieldProps & { planId: PlanId }) {
  const { t } = useTranslation();
  const frequencyNeed = (frequency: Frequency): string | null =>
    frequency === 3
      ? t("policies.frequency.needsGeneva")
      : frequency === 24
        ? t("policies.frequency.needsZurich")
        : null;
  const limited = FREQUENCIES.some((frequency) => !planAllowsFrequency(planId, frequency));
  return (
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
          return (
            <FormControlLabel
              key={frequency}
              value={frequency}
              disabled={!planAllowsFrequency(planId, frequency)}
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
  );
}

/** When: every day or chosen weekdays. */
export function ScheduleField({ form, shown }: PolicyFieldProps) {
  const { t } = useTranslation();
  return (
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
                    void form.setFieldValue("days", toggled(form.values.days, day, event.target.checked))
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
  );
}

/** How long backups are kept: the usual choices, plus the policy's own when it is another. */
export function RetentionField({ form, shown }: PolicyFieldProps) {
  const { t } = useTranslation();
  const retentionChoices = [...new Set<number>([...RETENTION_CHOICES, form.values.retentionDays])].sort(
    (a, b) => a - b,
  );
  return (
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
  );
}

export function ArchivingField({ form }: Pick<PolicyFieldProps, "form">) {
  const { t } = useTranslation();
  return (
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
  );
}
