import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import "../i18n/register";

/** The auto-add-storage setting (docs/requirements.md#data-the-console-shows), with what it does. */
export function AutoAddStorageSwitch({
  enabled,
  disabled,
  onChange,
}: {
  /** The setting as shown (follows the switch at once; reverts when saving fails). */
  enabled: boolean;
  disabled: boolean;
  onChange(enabled: boolean): void;
}) {
  const { t } = useTranslation();
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={enabled}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { "data-testid": "auto-add-storage" } as object }}
          />
        }
        label={t("billing.subscription.autoAdd")}
      />
      <Typography variant="body2" color="text.secondary">
        {t("billing.subscription.autoAddHelp")}
      </Typography>
    </Box>
  );
}
