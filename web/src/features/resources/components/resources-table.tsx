import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Typography from "@mui/material/Typography";
import type { Resource, ResourceSortField } from "@alpvault/contracts/organizations";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatGigabytes, formatRelativeTime } from "@/lib/format";
import { RowMenu } from "./row-menu";

export const PAGE_SIZES = [5, 10, 25, 50, 100];

export interface TableSort {
  sort: ResourceSortField;
  direction: "asc" | "desc";
}

/** Spec §3: the display name is the name plus the email or a 'shared drive' label. */
function DisplayName({ resource }: { resource: Resource }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="resource-display-name">
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {resource.name}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {resource.type === "shared_drive" ? t("resources.table.sharedDriveLabel") : resource.email}
      </Typography>
    </Box>
  );
}

function Status({ resource }: { resource: Resource }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap" }} data-testid="resource-status">
      {resource.status === "suspended" && (
        <Chip size="small" color="warning" label={t("resources.table.suspended")} />
      )}
      {resource.status === "deleted" && (
        <Chip size="small" color="error" label={t("resources.table.deleted")} />
      )}
      <Chip
        size="small"
        variant="outlined"
        color={resource.protected ? "success" : "default"}
        label={resource.protected ? t("resources.table.protected") : t("resources.table.unprotected")}
      />
    </Box>
  );
}

function BackupDates({ resource }: { resource: Resource }) {
  const { t, i18n } = useTranslation();
  const when = (value: string | null, fallback: string) =>
    value ? formatRelativeTime(value, Date.now(), i18n.language) : fallback;
  return (
    <Box>
      <Typography variant="body2">
        {t("resources.table.lastBackup", { when: when(resource.lastBackupAt, t("resources.table.never")) })}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t("resources.table.nextBackup", {
          when: when(resource.nextBackupAt, t("resources.table.notScheduled")),
        })}
      </Typography>
    </Box>
  );
}

/** The resources table (spec §2): selectable rows, sorting and paging by the API. */
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
  onUnavailable,
  onChangePolicy,
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
  onUnavailable: () => void;
  onChangePolicy: (resource: Resource) => void;
}) {
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
    <Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      <TableContainer>
        <Table
          size="small"
          aria-label={t("resources.table.label")}
          aria-busy={loading}
          data-testid="resources-table"
        >
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  indeterminate={selectedOnPage > 0 && !allOnPage}
                  checked={allOnPage}
                  onChange={toggleAll}
                  disabled={resources.length === 0}
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
          <TableBody>
            {resources.map((resource) => {
              const isSelected = selected.has(resource.resourceId);
              return (
                <TableRow
                  key={resource.resourceId}
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
                      onChange={() => toggle(resource.resourceId)}
                      slotProps={{
                        input: { "aria-label": t("resources.table.select", { name: resource.name }) },
                      }}
                    />
                  </TableCell>
                  <TableCell>
                    <DisplayName resource={resource} />
                  </TableCell>
                  <TableCell>
                    <Typography
                      variant="body2"
                      color={resource.policyName ? "text.primary" : "text.secondary"}
                    >
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
                    {formatGigabytes(resource.mailBackupBytes + resource.driveBackupBytes)}
                  </TableCell>
                  <TableCell>
                    <Button size="small" onClick={onUnavailable}>
                      {t("resources.table.recover")}
                    </Button>
                  </TableCell>
                  <TableCell padding="checkbox">
                    <RowMenu
                      name={resource.name}
                      onUnavailable={onUnavailable}
                      onChangePolicy={() => onChangePolicy(resource)}
                    />
                  </TableCell>
                </TableRow>
              );
            })}
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
      <TablePagination
        component="div"
        count={total}
        page={Math.max(0, page - 1)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_, next) => onPageChange(next + 1)}
        onRowsPerPageChange={(event) => onPageSizeChange(Number(event.target.value))}
        labelRowsPerPage={t("resources.table.rowsPerPage")}
      />
    </Box>
  );
}

const visuallyHidden = {
  border: 0,
  clip: "rect(0 0 0 0)",
  height: 1,
  margin: -1,
  overflow: "hidden",
  padding: 0,
  position: "absolute",
  whiteSpace: "nowrap",
  width: 1,
} as const;
