import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useFormik } from "formik";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Resource } from "@alpvault/contracts/organizations";
import {
  recoveryRequestSchema,
  type Recovery,
  type RecoveryRequest,
  type RecoveryService,
} from "@alpvault/contracts/recovery";
import { asApiError, isLoading } from "@/lib/query";
import { useStartRecovery } from "../api/start-recovery";
import { useResourceChoices, type LoadResources } from "../hooks/use-resource-choices";
import "../i18n/register";

/** What the modal recovers: a resource's selected items, or everything of a service. */
export interface RecoveryTarget {
  resourceId: string;
  /** How the modal names the resource (its name, with its email when it has one). */
  resourceName: string;
  /** The services to choose from (the first is chosen); one service means no choice. */
  services: readonly RecoveryService[];
  /** Catalog item ids (the search results' `itemId`); absent: everything of the service. */
  itemIds?: string[];
  /** MM-DD-YYYY: the items as the backups held them at the end of that day; absent: as backed up last. */
  date?: string;
}

interface RecoveryFormValues {
  resourceId: string;
  service: RecoveryService;
  itemIds?: string[];
  location: "original" | "other";
  targetResourceId: string;
  method: "folder" | "overwrite";
  folderName: string;
  permissions: boolean;
  date?: string;
}

type FieldName = "targetResourceId" | "folderName";

function initialValues(target: RecoveryTarget): RecoveryFormValues {
  return {
    resourceId: target.resourceId,
    service: target.services[0] ?? "gmail",
    ...(target.itemIds ? { itemIds: target.itemIds } : {}),
    location: "original",
    targetResourceId: "",
    method: "folder",
    folderName: "",
    permissions: false,
    ...(target.date ? { date: target.date } : {}),
  };
}

/** The request of the form's values: only the fields its choices use. */
function requestOf(values: RecoveryFormValues): RecoveryRequest {
  return {
    resourceId: values.resourceId,
    service: values.service,
    ...(values.itemIds ? { itemIds: values.itemIds } : {}),
    location: values.location,
    ...(values.location === "other" ? { targetResourceId: values.targetResourceId } : {}),
    method: values.method,
    ...(values.method === "folder" ? { folderName: values.folderName.trim() } : {}),
    permissions: values.service === "drive" && values.permissions,
    ...(values.date ? { date: values.date } : {}),
  };
}

/** Another resource able to receive the service's data: mail goes to a mailbox. */
const canReceive = (resource: Resource, values: RecoveryFormValues) =>
  resource.resourceId !== values.resourceId && (values.service === "drive" || resource.email !== null);

const resourceLabel = (resource: Resource) =>
  resource.email ? `${resource.name} (${resource.email})` : resource.name;

/** A labelled group of radio choices (`{name}-label` names it), with what a choice opens below it. */
function Choices<T extends string>(props: {
  name: string;
  label: string;
  value: T;
  choices: { value: T; label: string }[];
  row?: boolean;
  onChange: (value: T) => void;
  children?: ReactNode;
}) {
  const labelId = `recovery-${props.name}-label`;
  return (
    <FormControl component="fieldset">
      <FormLabel id={labelId}>{props.label}</FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        name={props.name}
        row={props.row ?? false}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as T)}
      >
        {props.choices.map((choice) => (
          <FormControlLabel
            key={choice.value}
            value={choice.value}
            control={<Radio />}
            label={choice.label}
          />
        ))}
      </RadioGroup>
      {props.children}
    </FormControl>
  );
}

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
  const start = useStartRecovery();
  const [apiError, setApiError] = useState<string | null>(null);
  const form = useFormik<RecoveryFormValues>({
    initialValues: initialValues(target),
    validationSchema: recoveryRequestSchema,
    onSubmit: async (values) => {
      if (organizationId === null) return;
      setApiError(null);
      try {
        const recovery = await start.run(organizationId, requestOf(values));
        // `chosen` is the target picked in the field below (read when the form is submitted).
        onStarted(recovery, values.location === "other" && chosen ? resourceLabel(chosen) : null);
      } catch (error) {
        setApiError(asApiError(error).message);
      }
    },
  });
  const { values } = form;
  const choices = useResourceChoices(organizationId, loadResources, values.location === "other");
  const options = (choices.data ?? []).filter((resource) => canReceive(resource, values));
  const chosen = options.find((resource) => resource.resourceId === values.targetResourceId) ?? null;
  const shown = (field: FieldName): string | undefined => {
    const error = form.errors[field];
    return (form.submitCount > 0 || form.touched[field]) && typeof error === "string" ? error : undefined;
  };
  const busy = start.pending || form.isSubmitting;

  const changeService = (service: RecoveryService) => {
    void form.setFieldValue("service", service);
    // A shared drive cannot receive mail: a target chosen for Drive goes when Gmail is chosen.
    const kept = (choices.data ?? []).find((resource) => resource.resourceId === values.targetResourceId);
    if (service === "gmail" && kept && kept.email === null) void form.setFieldValue("targetResourceId", "");
  };

  return (
    <Box component="form" noValidate onSubmit={form.handleSubmit}>
      <DialogTitle id="recovery-dialog-title">{t("recovery.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}>
        <Box data-testid="recovery-subject">
          <Typography variant="body1">{t("recovery.from", { resource: target.resourceName })}</Typography>
          <Typography variant="body2" color="text.secondary">
            {target.itemIds
              ? t("recovery.selected", { count: target.itemIds.length })
              : t("recovery.everything")}
          </Typography>
          {target.date && (
            <Typography variant="body2" color="text.secondary" data-testid="recovery-as-of">
              {t("recovery.asOf", { date: target.date })}
            </Typography>
          )}
        </Box>

        {target.services.length > 1 && (
          <Choices
            name="service"
            label={t("recovery.service.label")}
            row
            value={values.service}
            choices={target.services.map((service) => ({
              value: service,
              label: t(`recovery.service.${service}`),
            }))}
            onChange={changeService}
          />
        )}

        <Choices
          name="location"
          label={t("recovery.location.label")}
          value={values.location}
          choices={[
            { value: "original", label: t("recovery.location.original") },
            { value: "other", label: t("recovery.location.other") },
          ]}
          onChange={(location) => void form.setFieldValue("location", location)}
        >
          {values.location === "other" && (
            <Autocomplete
              id="recovery-target"
              options={options}
              value={chosen}
              loading={isLoading(choices)}
              loadingText={t("recovery.location.loading")}
              noOptionsText={t("recovery.location.none")}
              getOptionLabel={resourceLabel}
              isOptionEqualToValue={(option, value) => option.resourceId === value.resourceId}
              onChange={(_, resource) =>
                void form.setFieldValue("targetResourceId", resource?.resourceId ?? "")
              }
              onBlur={() => void form.setFieldTouched("targetResourceId", true)}
              sx={{ mt: 1 }}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t("recovery.location.target")}
                  error={Boolean(shown("targetResourceId") ?? choices.error)}
                  helperText={shown("targetResourceId") ?? choices.error?.message ?? " "}
                />
              )}
            />
          )}
        </Choices>

        <Choices
          name="method"
          label={t("recovery.method.label")}
          value={values.method}
          choices={[
            { value: "folder", label: t("recovery.method.folder") },
            { value: "overwrite", label: t("recovery.method.overwrite") },
          ]}
          onChange={(method) => void form.setFieldValue("method", method)}
        >
          {values.method === "folder" && (
            <TextField
              id="recovery-folder-name"
              name="folderName"
              label={t("recovery.method.folderName")}
              value={values.folderName}
              onChange={form.handleChange}
              onBlur={form.handleBlur}
              error={Boolean(shown("folderName"))}
              helperText={shown("folderName") ?? t("recovery.method.folderHint")}
              required
              sx={{ mt: 1 }}
            />
          )}
        </Choices>

        {values.service === "drive" && (
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

        {apiError && (
          <Alert severity="error" data-testid="recovery-error">
            {apiError}
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
