import Alert from "@mui/material/Alert";
import { SERVICES } from "@alpvault/contracts/services";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { RECOVERY_MESSAGES, type Recovery } from "@alpvault/contracts/recovery";
import { useRecoveryForm, type RecoveryTarget } from "../hooks/use-recovery-form";
import type { LoadResources } from "../hooks/use-resource-choices";
import "../i18n/register";
import { RecoveryEstimateLine } from "./recovery-estimate";
import { Choices, FieldChoices, FolderNameField, RecoverySubject, TargetPicker } from "./recovery-fields";

function RecoveryForm({
  organizationId,
  target,
  loadResources,
  onClose,
  onStarted,
}: {
  organizationId: string | null;
  target: RecoveryTarget;
  loadResources: LoadResources;
  onClose: () => void;
  /** The recovery the API started, and the other resource it goes to (its label), if any. */
  onStarted: (recovery: Recovery, targetName: string | null) => void;
}) {
  const { t } = useTranslation();
  const state = useRecoveryForm(organizationId, target, loadResources, onStarted);
  const { form, apiError, busy } = state;
  const { values } = form;

  return (
    <Box component="form" noValidate onSubmit={form.handleSubmit}>
      <DialogTitle id="recovery-dialog-title">{t("recovery.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}>
        <RecoverySubject target={target} />

        {target.services.length > 1 && (
          <Choices
            name="service"
            label={t("recovery.service.label")}
            row
            value={values.service}
            choices={target.services}
            choiceLabel={(service) => t(`recovery.service.${service}`)}
            onChange={state.changeService}
          />
        )}

        {/* Where to: the original resource, or another one. */}
        <FieldChoices
          form={form}
          field="location"
          label={t("recovery.location.label")}
          choices={["original", "other"] as const}
          choiceLabel={(location) => t(`recovery.location.${location}`)}
        >
          {values.location === "other" && <TargetPicker state={state} />}
        </FieldChoices>
        {/* How: into a separate folder, or overwriting existing content. */}
        <FieldChoices
          form={form}
          field="method"
          label={t("recovery.method.label")}
          choices={["folder", "overwrite"] as const}
          choiceLabel={(method) => t(`recovery.method.${method}`, { context: values.service })}
        >
          {values.method === "folder" && <FolderNameField state={state} />}
        </FieldChoices>

        {SERVICES[values.service].restoresSharing && (
          <FormControlLabel
            control={
              <Checkbox
                name="permissions"
                checked={values.permissions}
                onChange={(event) => void form.setFieldValue("permissions", event.target.checked)}
              />
            }
            label={t("recovery.permissions")}
          />
        )}

        <RecoveryEstimateLine organizationId={organizationId} values={values} />

        {apiError !== null && (
          <Alert severity="error" data-testid="recovery-error">
            {/* Another recovery under way has a text of its own; any other refusal is "Recovery failed" and why. */}
            {apiError === RECOVERY_MESSAGES.inProgress ? (
              apiError
            ) : (
              <>
                <AlertTitle>{t("recovery.startFailed")}</AlertTitle>
                {apiError.trim() || t("common.somethingWentWrong")}
              </>
            )}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t("recovery.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy || organizationId === null}>
          {t("recovery.submit")}
        </Button>
      </DialogActions>
    </Box>
  );
}

/**
 * The recovery modal (docs/requirements.md#screens-and-navigation, #validation): restore location (the original resource, or another one picked from the
 * organisation's resources), restore method (a separate folder, named with letters, numbers, dashes and
 * underscores, or overwriting existing content) and, for Drive, whether sharing permissions come back too.
 * formik checks the request with the rules and texts the API checks with; what the API refuses (400, 404,
 * 409) shows in the modal with its text. `onStarted` gets the recovery the API started.
 */
export function RecoveryModal({
  organizationId,
  target,
  loadResources,
  onClose,
  onStarted,
}: {
  organizationId: string | null;
  /** What to recover; null closes the modal. */
  target: RecoveryTarget | null;
  loadResources: LoadResources;
  onClose: () => void;
  onStarted: (recovery: Recovery, target: RecoveryTarget, targetName: string | null) => void;
}) {
  // The content stays while the modal fades out; a new target starts a fresh form.
  const [shownTarget, setShownTarget] = useState(target);
  const [opened, setOpened] = useState(0);
  if (target !== null && target !== shownTarget) {
    setShownTarget(target);
    setOpened((value) => value + 1);
  }
  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="recovery-dialog-title"
      data-testid="recovery-dialog"
    >
      {shownTarget && (
        <RecoveryForm
          key={opened}
          organizationId={organizationId}
          target={shownTarget}
          loadResources={loadResources}
          onClose={onClose}
          onStarted={(recovery, targetName) => onStarted(recovery, shownTarget, targetName)}
        />
      )}
    </Dialog>
  );
}
