import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import type { ActiveBackup } from "@alpvault/contracts/backups";
import type { Resource } from "@alpvault/contracts/organizations";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { paths } from "@/config/paths";
import { WorkPace } from "@/components/ui/work-pace";
import { useNow } from "@/lib/clock";
import { formatGigabytes, formatPastTime, formatRelativeTime, formatStorage } from "@/lib/format";

/**
 * docs/requirements.md#data-the-console-shows: the display name is the name plus the email or a 'shared
 * drive' label. With `linked`, the name leads to the resource's page.
 */
export function DisplayName({ resource, linked = false }: { resource: Resource; linked?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="resource-display-name">
      <Typography variant="body2" sx={{ fontWeight: 500, "& a": { color: "inherit" } }}>
        {linked ? (
          <RouterLink to={paths.app.resource.getHref(resource.resourceId)} data-testid="resource-link">
            {resource.name}
          </RouterLink>
        ) : (
          resource.name
        )}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {resource.type === "shared_drive" ? t("resources.table.sharedDriveLabel") : resource.email}
      </Typography>
    </Box>
  );
}

/**
 * A backup pending or running (docs/requirements.md#screens-and-navigation live progress): the items and
 * source bytes done so far, of the totals Google gave the run when it knows them (the bar is then
 * determinate), its pace, the time left and what sets it.
 */
function BackupProgress({ name, backup }: { name: string; backup: ActiveBackup }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => value.toLocaleString(i18n.language);
  const total = backup.totalItems;
  const known = backup.state === "running" && total !== null && total > 0;
  return (
    <Box sx={{ minWidth: 160, mt: 0.5 }} data-testid="backup-progress" data-state={backup.state}>
      <LinearProgress
        aria-label={t("resources.table.backupInProgress", { name })}
        variant={known ? "determinate" : "indeterminate"}
        value={known ? Math.min(100, (backup.items / total) * 100) : undefined}
        sx={{ my: 0.5 }}
      />
      <Typography variant="caption" color="text.secondary" component="div" data-testid="backup-progress-text">
        {backup.state === "pending"
          ? t("resources.table.backupWaiting")
          : known
            ? t("resources.table.backupProgressOf", {
                items: number(backup.items),
                total: number(total),
                size: formatStorage(backup.bytes),
              })
            : t("resources.table.backupProgress", {
                count: backup.items,
                items: number(backup.items),
                size: formatStorage(backup.bytes),
              })}
      </Typography>
      {backup.state === "running" && <WorkPace pace={backup} testId="backup-pace" />}
    </Box>
  );
}

export function BackupDates({ resource }: { resource: Resource }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const when = (value: string | null, fallback: string) =>
    value ? formatRelativeTime(value, now, i18n.language) : fallback;
  const happened = (value: string | null, fallback: string) =>
    value ? formatPastTime(value, now, i18n.language) : fallback;
  return (
    <Box data-testid="resource-dates">
      <Typography variant="body2">
        {t("resources.table.lastBackup", {
          when: happened(resource.lastBackupAt, t("resources.table.never")),
        })}
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
          when: happened(resource.lastVerifiedAt, t("resources.table.neverVerified")),
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
export function Storage({ bytes }: { bytes: number }) {
  if (bytes <= 0) return <>{formatGigabytes(0)}</>;
  return (
    <Box component="span" title={formatStorage(bytes)} data-bytes={bytes}>
      {bytes < SMALLEST_SHOWN_BYTES ? "< 0.01 GB" : formatGigabytes(bytes)}
    </Box>
  );
}
