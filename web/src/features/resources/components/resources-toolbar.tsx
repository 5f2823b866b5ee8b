import SearchOutlined from "@mui/icons-material/SearchOutlined";
import SyncOutlined from "@mui/icons-material/SyncOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import OutlinedInput from "@mui/material/OutlinedInput";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { FilterMenu, type PolicyOption, type ResourceFilters } from "./filter-menu";

/** Above the table: search, filters, how many rows are selected, sync, and assign a policy to them. */
export function ResourcesToolbar(props: {
  search: string;
  onSearchChange: (search: string) => void;
  filters: ResourceFilters;
  policies: PolicyOption[];
  onFiltersChange: (filters: ResourceFilters) => void;
  selectedCount: number;
  syncDisabled: boolean;
  onSync: () => void;
  onAssign: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 2, display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center" }}>
      {/* A bare input (not a TextField, whose select mode brings MUI's menu and modal into the first load). */}
      <OutlinedInput
        size="small"
        type="search"
        value={props.search}
        onChange={(event) => props.onSearchChange(event.target.value)}
        placeholder={t("resources.search")}
        sx={{ minWidth: 280, flexGrow: { xs: 1, md: 0 } }}
        inputProps={{ "aria-label": t("resources.search") }}
        startAdornment={
          <InputAdornment position="start">
            <SearchOutlined fontSize="small" />
          </InputAdornment>
        }
      />
      <FilterMenu filters={props.filters} policies={props.policies} onChange={props.onFiltersChange} />
      <Box sx={{ flexGrow: 1 }} />
      {props.selectedCount > 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="resources-selected">
          {t("resources.selected", { count: props.selectedCount })}
        </Typography>
      )}
      <Button
        variant="outlined"
        startIcon={<SyncOutlined />}
        onClick={props.onSync}
        disabled={props.syncDisabled}
      >
        {t("resources.sync")}
      </Button>
      <Button variant="contained" disabled={props.selectedCount === 0} onClick={props.onAssign}>
        {t("resources.assignPolicy")}
      </Button>
    </Box>
  );
}
