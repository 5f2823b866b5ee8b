import FilterListOutlined from "@mui/icons-material/FilterListOutlined";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Popover from "@mui/material/Popover";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";

export interface ResourceFilters {
  policyId: string;
  type: "" | "email" | "shared_drive";
  protection: "" | "protected" | "unprotected";
}

export const NO_FILTERS: ResourceFilters = { policyId: "", type: "", protection: "" };

export interface PolicyOption {
  policyId: string;
  name: string;
}

/** The filter menu (docs/requirements.md#screens-and-navigation): backup policy; type (email address or shared drive); protected or not. */
export function FilterMenu({
  filters,
  policies,
  onChange,
}: {
  filters: ResourceFilters;
  policies: PolicyOption[];
  onChange: (filters: ResourceFilters) => void;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const active = [filters.policyId, filters.type, filters.protection].filter((value) => value !== "").length;
  // The empty value ("all") is shown as its option's text under a raised label.
  const selectProps = {
    size: "small" as const,
    select: true,
    fullWidth: true,
    slotProps: { inputLabel: { shrink: true }, select: { displayEmpty: true } },
  };

  return (
    <>
      <Badge badgeContent={active} color="primary">
        <Button
          variant="outlined"
          startIcon={<FilterListOutlined />}
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-haspopup="true"
          aria-expanded={anchor !== null}
        >
          {t("resources.filter.open")}
        </Button>
      </Badge>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
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
            onChange={(event) =>
              onChange({ ...filters, type: event.target.value as ResourceFilters["type"] })
            }
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
    </>
  );
}
