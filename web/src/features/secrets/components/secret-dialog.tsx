import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import TextField from "@mui/material/TextField";
import { useFormik, type FormikErrors } from "formik";
import { useTranslation } from "react-i18next";
import { descriptionError, kmsResourceNameError, type Secret } from "@alpvault/contracts/secrets";
import "../i18n/register";

export interface SecretFormValues {
  description: string;
  kmsResourceName: string;
  isDefault: boolean;
}

/** docs/requirements.md#validation: the API's own rules and texts (`@alpvault/contracts/secrets`). */
function validate(values: SecretFormValues): FormikErrors<SecretFormValues> {
  const description = descriptionError(values.description);
  const kmsResourceName = kmsResourceNameError(values.kmsResourceName);
  return {
    ...(description ? { description } : {}),
    ...(kmsResourceName ? { kmsResourceName } : {}),
  };
}

/** Adds a Cloud KMS key (`secret` null) or edits one; `onSubmit` rejects to keep the dialog open. */
export function SecretDialog({
  open,
  secret,
  pending,
  onClose,
  onSubmit,
}: {
  open: boolean;
  secret: Secret | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: SecretFormValues) => Promise<void>;
}) {
  const { t } = useTranslation();
  const form = useFormik<SecretFormValues>({
    initialValues: {
      description: secret?.description ?? "",
      kmsResourceName: secret?.kmsResourceName ?? "",
      isDefault: false,
    },
    enableReinitialize: true,
    validate,
    onSubmit: async (values) => {
      try {
        await onSubmit({
          ...values,
          description: values.description.trim(),
          kmsResourceName: values.kmsResourceName.trim(),
        });
      } catch {
        // The screen reported the failure; the dialog stays open with what was typed.
      }
    },
  });
  const fieldError = (name: "description" | "kmsResourceName") =>
    (form.touched[name] || form.submitCount > 0) && form.errors[name] ? form.errors[name] : undefined;

  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      slotProps={{ transition: { onExited: () => form.resetForm() } }}
    >
      <form noValidate onSubmit={form.handleSubmit} data-testid="secret-dialog">
        <DialogTitle>{t(secret ? "secrets.dialog.editTitle" : "secrets.dialog.addTitle")}</DialogTitle>
        <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
          <TextField
            id="secret-description"
            name="description"
            label={t("secrets.dialog.description")}
            value={form.values.description}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={Boolean(fieldError("description"))}
            helperText={fieldError("description") ?? " "}
            autoFocus
            fullWidth
          />
          <TextField
            id="secret-kms-resource-name"
            name="kmsResourceName"
            label={t("secrets.dialog.kmsResourceName")}
            value={form.values.kmsResourceName}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={Boolean(fieldError("kmsResourceName"))}
            helperText={fieldError("kmsResourceName") ?? t("secrets.dialog.kmsHelp")}
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: "monospace" } } }}
            fullWidth
          />
          {!secret && (
            <FormControlLabel
              control={
                <Checkbox name="isDefault" checked={form.values.isDefault} onChange={form.handleChange} />
              }
              label={t("secrets.dialog.makeDefault")}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            {t("secrets.dialog.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={pending}>
            {t(secret ? "secrets.dialog.save" : "secrets.dialog.add")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
