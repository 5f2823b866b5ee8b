import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isLoading } from "@/lib/query";
import {
  resourceLabel,
  type RecoveryFormState,
  type RecoveryFormValues,
  type RecoveryTarget,
} from "../hooks/use-recovery-form";

/** A labelled group of radio choices (`{name}-label` names it), with what a choice opens below it. */
export function Choices<T extends string>(props: {
  name: string;
  label: string;
  value: T;
  choices: readonly T[];
  choiceLabel: (choice: T) => string;
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
            key={choice}
            value={choice}
            control={<Radio />}
            label={props.choiceLabel(choice)}
          />
        ))}
      </RadioGroup>
      {props.children}
    </FormControl>
  );
}

/** The choices of one of the form's fields, which a choice sets. */
export function FieldChoices<F extends "location" | "method">(props: {
  form: RecoveryFormState["form"];
  field: F;
  label: string;
  choices: readonly RecoveryFormValues[F][];
  choiceLabel: (choice: RecoveryFormValues[F]) => string;
  children: ReactNode;
}) {
  const { form, field } = props;
  return (
    <Choices
      name={field}
      label={props.label}
      value={form.values[field]}
      choices={props.choices}
      choiceLabel={props.choiceLabel}
      onChange={(value) => void form.setFieldValue(field, value)}
    >
      {props.children}
    </Choices>
  );
}

/** What is recovered: from which resource, the selected items or everything, and as of which day. */
export function RecoverySubject({ target }: { target: RecoveryTarget }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="recovery-subject">
      <Typography variant="body1">{t("recovery.from", { resource: target.resourceName })}</Typography>
      <Typography variant="body2" color="text.secondary">
        {target.itemIds ? t("recovery.selected", { count: target.itemIds.length }) : t("recovery.everything")}
      </Typography>
      {target.date && (
        <Typography variant="body2" color="text.secondary" data-testid="recovery-as-of">
          {t("recovery.asOf", { date: target.date })}
        </Typography>
      )}
    </Box>
  );
}

/** Another resource to recover to, among those able to receive the data (loaded when first wanted). */
export function TargetPicker({ state }: { state: RecoveryFormState }) {
  const { t } = useTranslation();
  const { form, choices, options, chosen, shown } = state;
  return (
    <Autocomplete
      id="recovery-target"
      options={options}
      value={chosen}
      loading={isLoading(choices)}
      loadingText={t("recovery.location.loading")}
      noOptionsText={t("recovery.location.none")}
      getOptionLabel={resourceLabel}
      isOptionEqualToValue={(option, value) => option.resourceId === value.resourceId}
      onChange={(_, resource) => void form.setFieldValue("targetResourceId", resource?.resourceId ?? "")}
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
  );
}

/** The name of the separate folder the recovery writes into. */
export function FolderNameField({ state }: { state: RecoveryFormState }) {
  const { t } = useTranslation();
  const { form, shown } = state;
  return (
    <TextField
      id="recovery-folder-name"
      name="folderName"
      label={t("recovery.method.folderName", { context: form.values.service })}
      value={form.values.folderName}
      onChange={form.handleChange}
      onBlur={form.handleBlur}
      error={Boolean(shown("folderName"))}
      helperText={shown("folderName") ?? t("recovery.method.folderHint")}
      required
      sx={{ mt: 1 }}
    />
  );
}
