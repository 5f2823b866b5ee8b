import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import {
  BACKED_UP_SERVICES,
  BACKUP_FAILURE_ADVICE,
  BACKUP_FAILURE_REASONS,
  type BackupFailureReason,
  SERVICE_LABELS,
  serviceNoteDetail,
  serviceNoteText,
  skipReasonText,
  unavailableText,
} from "@alpvault/contracts/backups";
import type { Resource } from "@alpvault/contracts/organizations";
import { accessToGrantText, type ServiceId } from "@alpvault/contracts/services";
import { REFETCH_TEXTS, damagedItemsText } from "@alpvault/contracts/integrity";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DeferredTooltip } from "@/components/ui/deferred-tooltip";

const WRAPPING_CHIP = {
  height: "auto",
  maxWidth: 220,
  "& .MuiChip-label": { display: "block", whiteSpace: "normal", py: 0.25 },
} as const;

/**
 * A failure's explanation (the failure chips' tooltip): what happened and what to do, then the reason's
 * code and Google's answer, for support.
 */
function FailureExplained({
  service,
  reason,
  detail,
}: {
  /** The failed service, when it is one service's failure (not the run's as a whole). */
  service?: ServiceId;
  reason: BackupFailureReason;
  detail: string | null;
}) {
  const { t } = useTranslation();
  const grant = service ? accessToGrantText(service, detail) : null;
  return (
    <Box data-testid="failure-advice">
      <Box component="p" sx={{ m: 0 }}>
        {BACKUP_FAILURE_ADVICE[reason]}
      </Box>
      {grant && (
        <Box component="p" sx={{ m: 0, mt: 0.5 }} data-testid="access-to-grant">
          {grant}
        </Box>
      )}
      {detail && (
        <Box component="p" sx={{ m: 0, mt: 0.5 }}>
          {t("resources.table.serviceDetail", { detail })}
        </Box>
      )}
      <Box component="p" sx={{ m: 0, mt: 0.5, fontFamily: "monospace" }}>
        {t("resources.table.forSupport", { code: reason })}
      </Box>
    </Box>
  );
}

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
        <DeferredTooltip
          key={`${service}-failed`}
          title={
            <FailureExplained
              service={service}
              reason={status.failureReason ?? "unknown-error"}
              detail={status.detail}
            />
          }
        >
          <Chip
            {...common}
            tabIndex={0}
            data-state="failed"
            color="error"
            label={t("resources.table.serviceFailed", {
              service: label,
              reason: BACKUP_FAILURE_REASONS[status.failureReason ?? "unknown-error"],
            })}
            sx={WRAPPING_CHIP}
          />
        </DeferredTooltip>,
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
        <DeferredTooltip
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
        </DeferredTooltip>,
      );
    }
    for (const [note, count] of Object.entries(status.notes)) {
      if (count <= 0) continue;
      notes.push(
        <DeferredTooltip key={`${service}-note-${note}`} title={serviceNoteDetail(note)}>
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
        </DeferredTooltip>,
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
    <DeferredTooltip
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
    </DeferredTooltip>
  );
}

/** The resource's state, protection, the last backup's failure, each service's notes and found damage. */
export function Status({ resource }: { resource: Resource }) {
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
        <DeferredTooltip title={<FailureExplained reason={failure} detail={null} />}>
          <Chip
            size="small"
            color="error"
            tabIndex={0}
            label={t("resources.table.backupFailed", { reason: BACKUP_FAILURE_REASONS[failure] })}
            data-testid="backup-failure"
            // Long reasons wrap instead of being cut off or widening the column.
            sx={WRAPPING_CHIP}
          />
        </DeferredTooltip>
      )}
      <ServiceNotes resource={resource} />
      <IntegrityStatus resource={resource} />
    </Box>
  );
}
