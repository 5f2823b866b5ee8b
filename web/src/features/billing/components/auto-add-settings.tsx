import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import type { SubscriptionDetails } from "@alpvault/contracts/organizations";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { useAutoAddSeatsSetting, useAutoAddStorageSetting } from "../hooks/use-billing";

/** One of the account's settings as a switch, with what it does. */
function SettingSwitch({
  enabled,
  disabled,
  onChange,
  testId,
  label,
  help,
}: {
  /** The setting as shown (follows the switch at once; reverts when saving fails). */
  enabled: boolean;
  disabled: boolean;
  onChange(enabled: boolean): void;
  testId: string;
  label: string;
  help: string;
}) {
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={enabled}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { "data-testid": testId } as object }}
          />
        }
        label={label}
      />
      <Typography variant="body2" color="text.secondary">
        {help}
      </Typography>
    </Box>
  );
}

/**
 * The auto-add settings (docs/requirements.md#data-the-console-shows): storage, and seats for new
 * mailboxes (paid plans only; on the free plan the switch says to upgrade).
 */
export function AutoAddSettings({
  organizationId,
  subscription,
  freePlan,
  onSaved,
}: {
  organizationId: string | null;
  subscription: SubscriptionDetails | undefined;
  freePlan: boolean;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const storage = useAutoAddStorageSetting(organizationId, subscription);
  const seats = useAutoAddSeatsSetting(organizationId, subscription, onSaved);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
      <SettingSwitch
        enabled={storage.enabled}
        disabled={!subscription || storage.saving}
        onChange={storage.change}
        testId="auto-add-storage"
        label={t("billing.subscription.autoAdd")}
        help={t("billing.subscription.autoAddHelp")}
      />
      <SettingSwitch
        enabled={seats.enabled}
        disabled={!subscription || seats.saving || freePlan}
        onChange={seats.change}
        testId="auto-add-seats"
        label={t("billing.subscription.autoAddSeats")}
        help={t(freePlan ? "billing.subscription.autoAddSeatsFree" : "billing.subscription.autoAddSeatsHelp")}
      />
    </Box>
  );
}
