import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Popover from "@mui/material/Popover";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { NO_FILTERS, type PolicyOption, type ResourceFilters } from "./filters";

/** The filter menu's panel, open at `anchor` (see `FilterMenu`). */
export default function FilterPanel({
  anchor,
  filters,
  policies,
  active,
  onChange,
  onClose,
}: {
  anchor: HTMLElement | null;
  filters: ResourceFilters;
  policies: PolicyOption[];
  /** How many filters are set. */
  active: number;
  onChange: (filters: ResourceFilters) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // The empty value ("all") is shown as its option's text under a raised label.
  const selectProps = {
    size: "small" as const,
    select: true,
    fullWidth: true,
    slotProps: { inputLabel: { shrink: true }, select: { displayEmpty: true } },
  };

  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: "bottom", horizontal: "left" }}
    >
      <Box
        data-testid="filter-menu"
        sx={{ p: 2, width: 300, display: "flex", flexDirection: "column", gap: 2 }}
      >
        <Typography variant="subtitle1" component="h2">
          {t("resources.filter.title")}
        </Typography>
        <TextField
          {...selectProps}
          label={t("resources.filter.policy")}
          value={filters.policyId}
          onChange={(event) => onChange({ ...filters, policyId: event.target.value })}
          helperText={policies.length === 0 ? t("resources.filter.noPolicies") : undefined}
        >
          <MenuItem value="">{t("resources.filter.anyPolicy")}</MenuItem>
          {policies.map((policy) => (
            <MenuItem key={policy.policyId} value={policy.policyId}>
              {policy.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          {...selectProps}
          label={t("resources.filter.type")}
          value={filters.type}
          onChange={(event) => onChange({ ...filters, type: event.target.value as ResourceFilters["type"] })}
        >
          <MenuItem value="">{t("resources.filter.anyType")}</MenuItem>
          <MenuItem value="email">{t("resources.filter.email")}</MenuItem>
          <MenuItem value="shared_drive">{t("resources.filter.sharedDrive")}</MenuItem>
        </TextField>
        <TextField
          {...selectProps}
          label={t("resources.filter.protection")}
          value={filters.protection}
          onChange={(event) =>
            onChange({ ...filters, protection: event.target.value as ResourceFilters["protection"] })
          }
        >
          <MenuItem value="">{t("resources.filter.anyProtection")}</MenuItem>
          <MenuItem value="protected">{t("resources.filter.protected")}</MenuItem>
          <MenuItem value="unprotected">{t("resources.filter.unprotected")}</MenuItem>
        </TextField>
        <Button onClick={() => onChange(NO_FILTERS)} disabled={active === 0}>
          {t("resources.filter.clear")}
        </Button>
      </Box>
    </Popover>
  );
}
