import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Typography from "@mui/material/Typography";
import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import type { ResourceDetail } from "@alpvault/contracts/organizations";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { paths } from "@/config/paths";
import { formatDate, formatStorage } from "@/lib/format";
import { asApiError } from "@/lib/query";
import { useSnackbar } from "@/lib/snackbar";
import { useBackupNow } from "../api/backup-now";
import { IntegrityCheck } from "./integrity-check";
import { BackupDates, DisplayName } from "./resource-cells";
import { Status } from "./resource-status";
import "../i18n/register";
import "../i18n/register-page";

/** A labelled figure of the summary. */
function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Box data-testid={testId}>{children}</Box>
    </Box>
  );
}

/** What the last integrity verification found, in a sentence. */
function IntegrityLine({ resource }: { resource: ResourceDetail }) {
  const { t, i18n } = useTranslation();
  const integrity = resource.integrity;
  if (!integrity) return <Typography variant="body2">{t("resources.page.integrityNever")}</Typography>;
  const date = formatDate(integrity.verifiedAt, i18n.language);
  return (
    <Typography variant="body2" color={integrity.state === "damaged" ? "error" : undefined}>
      {integrity.state === "damaged"
        ? t("resources.page.integrityDamaged", {
            date,
            damaged: integrity.damagedItems,
            count: integrity.checkedItems,
          })
        : t("resources.page.integrityOk", { date, count: integrity.checkedItems })}
    </Typography>
  );
}

/**
 * The top of a resource's page: who or what it is, its policy and status (each service's last backup,
 * what it skipped, integrity), its backup dates with live progress, storage by service, and the actions:
 * back up now, browse its backups at a date and search them.
 */
export function ResourceOverview({
  organizationId,
  resource,
  onBackupStarted,
}: {
  organizationId: string | null;
  resource: ResourceDetail;
  onBackupStarted: () => void;
}) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const start = useBackupNow();
  const backupNow = () => {
    if (!organizationId) return;
    start.run(organizationId, resource.resourceId).then(
      (result) => {
        show({
          text: result.created ? BACKUP_MESSAGES.started : BACKUP_MESSAGES.alreadyRunning,
          isError: false,
        });
        onBackupStarted();
      },
      (error: unknown) => show({ text: asApiError(error).message, isError: true }),
    );
  };
  const storage = (bytes: number, count: number) =>
    count === 0 && bytes === 0
      ? t("resources.page.notBackedUp")
      : t("resources.page.serviceStorage", { size: formatStorage(bytes), count });
  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby="resource-summary-heading"
      sx={{ p: 2 }}
      data-testid="resource-overview"
    >
      <Typography variant="h6" component="h2" id="resource-summary-heading" sx={{ mb: 1 }}>
        {t("resources.page.summary")}
      </Typography>
      <Box
        sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "repeat(3, minmax(0, 1fr))" } }}
      >
        <Figure label={t("resources.page.type")} testId="resource-type">
          <DisplayName resource={resource} />
          <Typography variant="body2">
            {resource.type === "email" ? t("resources.page.mailbox") : t("resources.page.sharedDrive")}
          </Typography>
        </Figure>
        <Figure label={t("resources.page.policy")} testId="resource-policy">
          <Typography variant="body2">{resource.policyName ?? t("resources.table.noPolicy")}</Typography>
          <Status resource={resource} />
        </Figure>
        <Figure label={t("resources.table.dates")} testId="resource-backup-dates">
          <BackupDates resource={resource} />
        </Figure>
        <Figure label={t("resources.page.storage")} testId="resource-storage">
          <Typography variant="body2" data-testid="resource-storage-gmail">
            Gmail: {storage(resource.mailBackupBytes, resource.mailItems)}
          </Typography>
          <Typography variant="body2" data-testid="resource-storage-drive">
            Drive: {storage(resource.driveBackupBytes, resource.driveItems)}
          </Typography>
        </Figure>
        <Box>
          <Figure label={t("resources.page.integrity")} testId="resource-integrity">
            <IntegrityLine resource={resource} />
          </Figure>
          <IntegrityCheck organizationId={organizationId} resourceId={resource.resourceId} />
        </Box>
      </Box>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mt: 2 }}>
        <Button variant="contained" onClick={backupNow} disabled={start.pending || !resource.protected}>
          {t("resources.page.backupNow")}
        </Button>
        <Button variant="outlined" component={RouterLink} to={paths.app.browse.getHref(resource.resourceId)}>
          {t("resources.page.browse")}
        </Button>
        <Button variant="outlined" component={RouterLink} to={paths.app.search.getHref(resource.resourceId)}>
          {t("resources.page.search")}
        </Button>
      </Box>
    </Card>
  );
}
