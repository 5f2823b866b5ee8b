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
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import {
  BACKED_UP_SERVICES,
  BACKUP_FAILURE_REASONS,
  SERVICE_LABELS,
  serviceNoteDetail,
  serviceNoteText,
  skipReasonText,
  unavailableText,
  type ActiveBackup,
} from "@alpvault/contracts/backups";
import type { Resource, ResourceSortField } from "@alpvault/contracts/organizations";
import { REFETCH_TEXTS, damagedItemsText } from "@alpvault/contracts/integrity";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatGigabytes, formatRelativeTime, formatStorage } from "@/lib/format";
import { RowMenu } from "./row-menu";

export const PAGE_SIZES = [5, 10, 25, 50, 100];

export interface TableSort {
  sort: ResourceSortField;
  direction: "asc" | "desc";
}

/** docs/requirements.md#data-the-console-shows: the display name is the name plus the email or a 'shared drive' label. */
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

const WRAPPING_CHIP = {
  height: "auto",
  maxWidth: 220,
  "& .MuiChip-label": { display: "block", whiteSpace: "normal", py: 0.25 },
} as const;

/**
 * What each service's last backup left to say (issue: each service succeeds or fails on its own): a failed
 * service with its reason, a service that is not available for the resource, the items a service did
 * not back up (or kept without content), with each reason and its count in the chip's tooltip, and the
 * items it backed up that people should know about (files owned outside the organisation).
 */
function ServiceNotes({ resource }: { resource: Resource }) {
  const { t } = useTranslation();
  const notes: ReactNode[] = [];
  for (const service of BACKED_UP_SERVICES) {
    const status = resource.services[service];
    if (!status) continue;
    const label = SERVICE_LABELS[service];
    const common = { size: "small" as const, "data-testid": "service-status", "data-service": service };
    if (status.state === "failed") {
      notes.push(
        <Tooltip
          key={`${service}-failed`}
          title={status.detail ? t("resources.table.serviceDetail", { detail: status.detail }) : ""}
        >
          <Chip
            {...common}
            data-state="failed"
            color="error"
            label={t("resources.table.serviceFailed", {
              service: label,
              reason: BACKUP_FAILURE_REASONS[status.failureReason ?? "unknown-error"],
            })}
            sx={WRAPPING_CHIP}
          />
        </Tooltip>,
      );
    } else if (status.state === "unavailable") {
      notes.push(
        <Chip
          key={`${service}-unavailable`}
          {...common}
          data-state="unavailable"
          variant="outlined"
          label={unavailableText(service, status.detail)}
          sx={WRAPPING_CHIP}
        />,
      );
    }
    const reasons = Object.entries(status.skipped);
    const skipped = reasons.reduce((sum, [, count]) => sum + count, 0);
    if (skipped > 0) {
      notes.push(
        <Tooltip
          key={`${service}-skipped`}
          title={
            <Box component="ul" sx={{ m: 0, pl: 2 }} data-testid="skip-reasons">
              {reasons.map(([reason, count]) => (
                <li key={reason}>
                  {count} — {skipReasonText(reason)}
                </li>
              ))}
            </Box>
          }
        >
          <Chip
            {...common}
            data-state="skipped"
            color="warning"
            variant="outlined"
            tabIndex={0}
            label={t("resources.table.serviceSkipped", { service: label, count: skipped })}
            sx={WRAPPING_CHIP}
          />
        </Tooltip>,
      );
    }
    for (const [note, count] of Object.entries(status.notes)) {
      if (count <= 0) continue;
      notes.push(
        <Tooltip key={`${service}-note-${note}`} title={serviceNoteDetail(note)}>
          <Chip
            {...common}
            data-state="note"
            data-note={note}
            color="info"
            variant="outlined"
            tabIndex={0}
            label={t("resources.table.serviceNote", { service: label, note: serviceNoteText(note, count) })}
            sx={WRAPPING_CHIP}
          />
        </Tooltip>,
      );
    }
  }
  return <>{notes}</>;
}

/**
 * What the last integrity verification found when it found damage: the count, and each damaged item's
 * name with what the next backup does about it in the chip's tooltip.
 */
function IntegrityStatus({ resource }: { resource: Resource }) {
  const integrity = resource.integrity;
  if (!integrity || integrity.state !== "damaged") return null;
  const unnamed = integrity.damagedItems - integrity.damaged.length;
  return (
    <Tooltip
      title={
        <Box component="ul" sx={{ m: 0, pl: 2 }} data-testid="damaged-items">
          {integrity.damaged.map((item) => (
            <li key={item.itemKey}>
              {item.name} — {REFETCH_TEXTS[item.refetch]}
            </li>
          ))}
          {unnamed > 0 && <li>+{unnamed}</li>}
        </Box>
      }
    >
      <Chip
        size="small"
        color="error"
        tabIndex={0}
        data-testid="integrity-status"
        data-state="damaged"
        label={damagedItemsText(integrity.damagedItems)}
        sx={WRAPPING_CHIP}
      />
    </Tooltip>
  );
}

function Status({ resource }: { resource: Resource }) {
  const { t } = useTranslation();
  // A failed service says why itself; the run's reason is shown when no service does.
  const serviceFailed = Object.values(resource.services).some((status) => status?.state === "failed");
  const failure = resource.activeBackup === null && !serviceFailed ? resource.lastBackupFailure : null;
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
      {failure && (
        <Chip
          size="small"
          color="error"
          label={t("resources.table.backupFailed", { reason: BACKUP_FAILURE_REASONS[failure] })}
          data-testid="backup-failure"
          // Long reasons wrap instead of being cut off or widening the column.
          sx={WRAPPING_CHIP}
        />
      )}
      <ServiceNotes resource={resource} />
      <IntegrityStatus resource={resource} />
    </Box>
  );
}

/**
 * A backup pending or running (docs/requirements.md#screens-and-navigation live progress): the items and source bytes done so far. A backup
 * does not know its total in advance, so the bar is indeterminate.
 */
function BackupProgress({ name, backup }: { name: string; backup: ActiveBackup }) {
  const { t, i18n } = useTranslation();
  return (
    <Box sx={{ minWidth: 160, mt: 0.5 }} data-testid="backup-progress" data-state={backup.state}>
      <LinearProgress aria-label={t("resources.table.backupInProgress", { name })} sx={{ my: 0.5 }} />
      <Typography variant="caption" color="text.secondary">
        {backup.state === "pending"
          ? t("resources.table.backupWaiting")
          : t("resources.table.backupProgress", {
              count: backup.items,
              items: backup.items.toLocaleString(i18n.language),
              size: formatStorage(backup.bytes),
            })}
      </Typography>
    </Box>
  );
}

function BackupDates({ resource }: { resource: Resource }) {
  const { t, i18n } = useTranslation();
  const when = (value: string | null, fallback: string) =>
    value ? formatRelativeTime(value, Date.now(), i18n.language) : fallback;
  return (
    <Box data-testid="resource-dates">
      <Typography variant="body2">
        {t("resources.table.lastBackup", { when: when(resource.lastBackupAt, t("resources.table.never")) })}
      </Typography>
      {resource.activeBackup ? (
        <BackupProgress name={resource.name} backup={resource.activeBackup} />
      ) : (
        <Typography variant="caption" color="text.secondary">
          {t("resources.table.nextBackup", {
            when: when(resource.nextBackupAt, t("resources.table.notScheduled")),
          })}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" component="div" data-testid="last-verified">
        {t("resources.table.lastVerified", {
          when: when(resource.lastVerifiedAt, t("resources.table.neverVerified")),
        })}
      </Typography>
    </Box>
  );
}

/** Below this a backup would read "0.00 GB", as if there were none. */
const SMALLEST_SHOWN_BYTES = 0.005 * 1024 ** 3;

/**
 * The data storage column in GB (docs/requirements.md#screens-and-navigation). A backup too small for two decimals reads "< 0.01 GB" rather
 * than looking empty; its exact size is the cell's tooltip.
 */
function Storage({ bytes }: { bytes: number }) {
  if (bytes <= 0) return <>{formatGigabytes(0)}</>;
  return (
    <Box component="span" title={formatStorage(bytes)} data-bytes={bytes}>
      {bytes < SMALLEST_SHOWN_BYTES ? "< 0.01 GB" : formatGigabytes(bytes)}
    </Box>
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
  onRecoverAll,
  onBackupNow,
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
  /** "Recover" and the row menu's "Recover all data": the recovery modal for the resource. */
  onRecoverAll: (resource: Resource) => void;
  onBackupNow: (resource: Resource) => void;
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
                    <Storage bytes={resource.mailBackupBytes + resource.driveBackupBytes} />
                  </TableCell>
                  <TableCell>
                    <Button size="small" onClick={() => onRecoverAll(resource)}>
                      {t("resources.table.recover")}
                    </Button>
                  </TableCell>
                  <TableCell padding="checkbox">
                    <RowMenu
                      resource={resource}
                      onRecoverAll={() => onRecoverAll(resource)}
                      onBackupNow={() => onBackupNow(resource)}
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
