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
import { resourceLabel, type RecoveryFormState, type RecoveryTarget } from "../hooks/use-recovery-form";

/** A labelled group of radio choices (`{name}-label` names it), with what a choice opens below it. */
export function Choices<T extends string>(props: {
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

/** Where to: the original resource, or another one picked from those able to receive the data. */
export function LocationChoice({ state }: { state: RecoveryFormState }) {
  const { t } = useTranslation();
  const { form, choices, options, chosen, shown } = state;
  return (
    <Choices
      name="location"
      label={t("recovery.location.label")}
      value={form.values.location}
      choices={[
        { value: "original", label: t("recovery.location.original") },
        { value: "other", label: t("recovery.location.other") },
      ]}
      onChange={(location) => void form.setFieldValue("location", location)}
    >
      {form.values.location === "other" && (
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
      )}
    </Choices>
  );
}

/** How: into a separate folder (named by the admin) or overwriting existing content. */
export function MethodChoice({ state }: { state: RecoveryFormState }) {
  const { t } = useTranslation();
  const { form, shown } = state;
  return (
    <Choices
      name="method"
      label={t("recovery.method.label")}
      value={form.values.method}
      choices={[
        { value: "folder", label: t("recovery.method.folder") },
        { value: "overwrite", label: t("recovery.method.overwrite") },
      ]}
      onChange={(method) => void form.setFieldValue("method", method)}
    >
      {form.values.method === "folder" && (
        <TextField
          id="recovery-folder-name"
          name="folderName"
          label={t("recovery.method.folderName")}
          value={form.values.folderName}
          onChange={form.handleChange}
          onBlur={form.handleBlur}
          error={Boolean(shown("folderName"))}
          helperText={shown("folderName") ?? t("recovery.method.folderHint")}
          required
          sx={{ mt: 1 }}
        />
      )}
    </Choices>
  );
}
