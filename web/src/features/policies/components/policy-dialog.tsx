import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import { useFormik } from "formik";
import { useTranslation } from "react-i18next";
import type { Policy, PolicyInput } from "@alpvault/contracts/policies";
import { policySchema, validatePolicy } from "@alpvault/contracts/policy-request";
import type { PlanId } from "@alpvault/contracts/plans";
import "../i18n/register";
import {
  ArchivingField,
  DataTypesField,
  FrequencyField,
  RetentionField,
  ScheduleField,
  type PolicyFormValues,
} from "./policy-form-fields";

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

          <DataTypesField form={form} shown={shown} planId={planId} />
          <FrequencyField form={form} shown={shown} planId={planId} />
          <ScheduleField form={form} shown={shown} />
          <RetentionField form={form} shown={shown} />
          <ArchivingField form={form} />
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
