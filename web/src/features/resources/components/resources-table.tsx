import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Typography from "@mui/material/Typography";
import {
  resourceBackupBytes,
  type Resource,
  type ResourceSortField,
} from "@alpvault/contracts/organizations";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TablePager } from "@/components/ui/table-pager";
import { BackupDates, DisplayName, Storage } from "./resource-cells";
import { Status } from "./resource-status";
import { RowMenu } from "./row-menu";

export const PAGE_SIZES = [5, 10, 25, 50, 100];

export interface TableSort {
  sort: ResourceSortField;
  direction: "asc" | "desc";
}

/** What a row's actions do. */
interface RowActions {
  /** "Recover" and the row menu's "Recover all data": the recovery modal for the resource. */
  onRecoverAll: (resource: Resource) => void;
  onBackupNow: (resource: Resource) => void;
  onChangePolicy: (resource: Resource) => void;
}

/** The header: select all on the page, and the columns the API sorts by. */
function ResourcesTableHead({
  sort,
  selectedOnPage,
  allOnPage,
  emptyPage,
  onToggleAll,
  onSortChange,
}: {
  sort: TableSort;
  selectedOnPage: number;
  allOnPage: boolean;
  emptyPage: boolean;
  onToggleAll: () => void;
  onSortChange: (sort: TableSort) => void;
}) {
  const { t } = useTranslation();
  const sortable = (field: ResourceSortField, label: string): ReactNode => (
    <TableSortLabel
      active={sort.sort === field}
      direction={sort.sort === field ? sort.direction : "asc"}
      onClick={() =>
        onSortChange({
          sort: field,
          direction: sort.sort === field && sort.direction === "asc" ? "desc" : "asc",
        })
      }
    >
      {label}
    </TableSortLabel>
  );
  return (
    <TableHead>
      <TableRow>
        <TableCell padding="checkbox">
          <Checkbox
            indeterminate={selectedOnPage > 0 && !allOnPage}
            checked={allOnPage}
            onChange={onToggleAll}
            disabled={emptyPage}
            slotProps={{ input: { "aria-label": t("resources.table.selectAll") } }}
          />
        </TableCell>
        <TableCell sortDirection={sort.sort === "name" ? sort.direction : false}>
          {sortable("name", t("resources.table.name"))}
        </TableCell>
        <TableCell>{t("resources.table.policy")}</TableCell>
        <TableCell sortDirection={sort.sort === "status" ? sort.direction : false}>
          {sortable("status", t("resources.table.status"))}
        </TableCell>
        <TableCell sortDirection={sort.sort === "lastBackupAt" ? sort.direction : false}>
          {sortable("lastBackupAt", t("resources.table.dates"))}
        </TableCell>
        <TableCell align="right" sortDirection={sort.sort === "storage" ? sort.direction : false}>
          {sortable("storage", t("resources.table.storage"))}
        </TableCell>
        <TableCell>{t("resources.table.recover")}</TableCell>
        <TableCell padding="checkbox">
          <Box component="span" sx={visuallyHidden}>
            {t("resources.table.actions")}
          </Box>
        </TableCell>
      </TableRow>
    </TableHead>
  );
}

function ResourceRow({
  resource,
  isSelected,
  onToggle,
  actions,
}: {
  resource: Resource;
  isSelected: boolean;
  onToggle: () => void;
  actions: RowActions;
}) {
  const { t } = useTranslation();
  return (
    <TableRow
      hover
      selected={isSelected}
      data-testid="resource-row"
      data-resource-id={resource.resourceId}
      data-status={resource.status}
      sx={resource.status === "deleted" ? { opacity: 0.7 } : undefined}
    >
      <TableCell padding="checkbox">
        <Checkbox
          checked={isSelected}
          onChange={onToggle}
          slotProps={{
            input: { "aria-label": t("resources.table.select", { name: resource.name }) },
          }}
        />
      </TableCell>
      <TableCell>
        <DisplayName resource={resource} linked />
      </TableCell>
      <TableCell>
        <Typography variant="body2" color={resource.policyName ? "text.primary" : "text.secondary"}>
          {resource.policyName ?? t("resources.table.noPolicy")}
        </Typography>
      </TableCell>
      <TableCell>
        <Status resource={resource} />
      </TableCell>
      <TableCell>
        <BackupDates resource={resource} />
      </TableCell>
      <TableCell align="right" data-testid="resource-storage">
        <Storage bytes={resourceBackupBytes(resource)} />
      </TableCell>
      <TableCell>
        <Button size="small" onClick={() => actions.onRecoverAll(resource)}>
          {t("resources.table.recover")}
        </Button>
      </TableCell>
      <TableCell padding="checkbox">
        <RowMenu
          resource={resource}
          onRecoverAll={() => actions.onRecoverAll(resource)}
          onBackupNow={() => actions.onBackupNow(resource)}
          onChangePolicy={() => actions.onChangePolicy(resource)}
        />
      </TableCell>
    </TableRow>
  );
}

/** The resources table (docs/requirements.md#screens-and-navigation): selectable rows, sorting and paging by the API. */
export function ResourcesTable({
  resources,
  total,
  page,
  pageSize,
  loading,
  sort,
  selected,
  onSortChange,
  onPageChange,
  onPageSizeChange,
  onSelectionChange,
  ...actions
}: {
  resources: Resource[];
  total: number;
  /** One-based, as the API counts. */
  page: number;
  pageSize: number;
  loading: boolean;
  sort: TableSort;
  selected: ReadonlySet<string>;
  onSortChange: (sort: TableSort) => void;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  onSelectionChange: (selected: Set<string>) => void;
} & RowActions) {
  const { t } = useTranslation();
  const selectedOnPage = resources.filter((resource) => selected.has(resource.resourceId)).length;
  const allOnPage = resources.length > 0 && selectedOnPage === resources.length;

  const toggleAll = () => {
    const next = new Set(selected);
    for (const resource of resources) {
      if (allOnPage) next.delete(resource.resourceId);
      else next.add(resource.resourceId);
    }
    onSelectionChange(next);
  };
  const toggle = (resourceId: string) => {
    const next = new Set(selected);
    if (next.has(resourceId)) next.delete(resourceId);
    else next.add(resourceId);
    onSelectionChange(next);
  };

  return (
    <Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      {/* Positioned, so that the header's hidden label scrolls with the table instead of widening the page. */}
      <TableContainer sx={{ position: "relative" }}>
        <Table
          size="small"
          aria-label={t("resources.table.label")}
          aria-busy={loading}
          data-testid="resources-table"
        >
          <ResourcesTableHead
            sort={sort}
            selectedOnPage={selectedOnPage}
            allOnPage={allOnPage}
            emptyPage={resources.length === 0}
            onToggleAll={toggleAll}
            onSortChange={onSortChange}
          />
          <TableBody>
            {resources.map((resource) => (
              <ResourceRow
                key={resource.resourceId}
                resource={resource}
                isSelected={selected.has(resource.resourceId)}
                onToggle={() => toggle(resource.resourceId)}
                actions={actions}
              />
            ))}
            {!loading && resources.length === 0 && (
              <TableRow>
                <TableCell colSpan={8}>
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ py: 2 }}
                    data-testid="resources-empty"
                  >
                    {t("resources.table.empty")}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePager
        count={total}
        page={page}
        pageSize={pageSize}
        pageSizes={PAGE_SIZES}
        rowsPerPageLabel={t("resources.table.rowsPerPage")}
        onPageChange={onPageChange}
        onPageSizeChange={onPageSizeChange}
      />
    </Box>
  );
}

/** Read by screen readers, not shown: a 1 px box (in `sx` a bare 1 would mean 100 % of the page). */
const visuallyHidden = {
  border: 0,
  clip: "rect(0 0 0 0)",
  height: "1px",
  margin: "-1px",
  overflow: "hidden",
  padding: 0,
  position: "absolute",
  whiteSpace: "nowrap",
  width: "1px",
} as const;
