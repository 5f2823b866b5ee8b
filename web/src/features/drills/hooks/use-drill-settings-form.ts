import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  DRILL_DEFAULT_SAMPLE_SIZE,
  DRILL_DEFAULT_SCHEDULE,
  DRILL_MAX_SAMPLE_SIZE,
  DRILL_MESSAGES,
  type DrillSchedule,
  type DrillSettings,
} from "@alpvault/contracts/drills";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError } from "@/lib/query";
import { useStartDrill } from "../api/start-drill";
import { useUpdateDrillSettings } from "../api/update-drill-settings";

export interface DrillForm {
  enabled: boolean;
  sandboxResourceId: string;
  sampleSize: string;
  schedule: DrillSchedule;
}

export type DrillFormErrors = Partial<Record<keyof DrillForm, string>>;

const formOf = (settings: DrillSettings | undefined): DrillForm => ({
  enabled: settings?.enabled ?? false,
  sandboxResourceId: settings?.sandboxResourceId ?? "",
  sampleSize: String(settings?.sampleSize ?? DRILL_DEFAULT_SAMPLE_SIZE),
  schedule: settings?.schedule ?? DRILL_DEFAULT_SCHEDULE,
});

/** The form's rules, with the API's texts. */
function validate(form: DrillForm): DrillFormErrors {
  const errors: DrillFormErrors = {};
  const size = Number(form.sampleSize);
  if (!/^\d+$/.test(form.sampleSize) || size < 1 || size > DRILL_MAX_SAMPLE_SIZE) {
    errors.sampleSize = DRILL_MESSAGES.sampleSize;
  }
  if (form.enabled && !form.sandboxResourceId) errors.sandboxResourceId = DRILL_MESSAGES.sandboxRequired;
  return errors;
}

/**
 * The drill settings form: filled from the saved settings, checked once the user has tried to save, saved
 * and "Run a drill now" answered in the snackbar (`onStarted` after a drill was started).
 */
export function useDrillSettingsForm(
  organizationId: string | null,
  settings: DrillSettings | undefined,
  onStarted: () => void,
) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const save = useUpdateDrillSettings();
  const start = useStartDrill();
  const [form, setForm] = useState<DrillForm>(formOf(undefined));
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (settings) setForm(formOf(settings));
  }, [settings]);

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
      onStarted();
    } catch (error) {
      fail(error);
    }
  };

  return { form, setForm, errors, onSave, onRun, savePending: save.pending, startPending: start.pending };
}
