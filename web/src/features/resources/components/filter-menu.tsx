import FilterListOutlined from "@mui/icons-material/FilterListOutlined";
import Badge from "@mui/material/Badge";
import Button from "@mui/material/Button";
import { lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { WhenWanted } from "@/components/ui/when-wanted";
import type { PolicyOption, ResourceFilters } from "./filters";

export { NO_FILTERS, type PolicyOption, type ResourceFilters } from "./filters";

/** The filters' panel loads when it is first opened. */
const FilterPanel = lazy(() => import("./filter-panel"));

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
      <WhenWanted wanted={anchor !== null}>
        <FilterPanel
          anchor={anchor}
          filters={filters}
          policies={policies}
          active={active}
          onChange={onChange}
          onClose={() => setAnchor(null)}
        />
      </WhenWanted>
    </>
  );
}
