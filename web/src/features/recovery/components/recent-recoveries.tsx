import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import type { Recovery, RecoveryState } from "@alpvault/contracts/recovery";
import { useTranslation } from "react-i18next";
import { ListCard } from "@/components/ui/list-card";
import { isLoading } from "@/lib/query";
import { useResourceRecoveries } from "../api/list-recoveries";
import "../i18n/register";

const STATE_COLORS: Record<RecoveryState, "default" | "info" | "success" | "error"> = {
  pending: "default",
  running: "info",
  succeeded: "success",
  failed: "error",
};

function RecoveryRow({
  recovery,
  resourceId,
  nameOf,
}: {
  recovery: Recovery;
  resourceId: string;
  nameOf: (resourceId: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const { total, restored, skipped, failed } = recovery.progress;
  const other =
    recovery.resourceId !== resourceId
      ? t("recovery.recent.fromOther", { source: nameOf(recovery.resourceId) })
      : recovery.targetResourceId !== resourceId
        ? t("recovery.recent.toOther", { target: nameOf(recovery.targetResourceId) })
        : null;
  return (
    <Box
      component="li"
      data-testid="resource-recovery"
      data-recovery-id={recovery.recoveryId}
      data-state={recovery.state}
      sx={{ listStyle: "none", p: 2, display: "flex", flexDirection: "column", gap: 0.5 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0 }}>
          {t("recovery.recent.item", {
            service: t(`recovery.service.${recovery.service}`),
            method: t(`recovery.method.${recovery.method}`),
          })}
          {other ? ` · ${other}` : ""}
        </Typography>
        <Chip
          size="small"
          color={STATE_COLORS[recovery.state]}
          label={t(`recovery.recent.states.${recovery.state}`)}
        />
      </Box>
      <Typography variant="body2" color="text.secondary">
        {t("recovery.recent.requested", { date: date.format(new Date(recovery.requestedAt)) })}
      </Typography>
      <Typography variant="body2" data-testid="resource-recovery-progress">
        {t("recovery.recent.progress", { restored, total, skipped, failed })}
      </Typography>
      {recovery.failureReason && (
        <Typography variant="body2" color="error">
          {t("recovery.recent.failed", { reason: recovery.failureReason })}
        </Typography>
      )}
    </Box>
  );
}

/**
 * A resource's newest recoveries, from it or to it, each with its state and outcome counts; `nameOf` names
 * the other resource of a recovery from or to another one.
 */
export function RecentRecoveries({
  organizationId,
  resourceId,
  nameOf,
}: {
  organizationId: string | null;
  resourceId: string;
  nameOf: (resourceId: string) => string;
}) {
  const { t } = useTranslation();
  const list = useResourceRecoveries(organizationId, resourceId);
  const recoveries = list.data?.recoveries ?? [];
  return (
    <ListCard
      id="resource-recoveries"
      heading={t("recovery.recent.heading")}
      loading={isLoading(list) && !list.data}
      error={list.error?.message ?? null}
      empty={list.data && recoveries.length === 0 ? t("recovery.recent.empty") : null}
    >
      {recoveries.length > 0 && (
        <Box component="ul" sx={{ m: 0, p: 0, "& > li + li": { borderTop: 1, borderColor: "divider" } }}>
          {recoveries.map((recovery) => (
            <RecoveryRow
              key={recovery.recoveryId}
              recovery={recovery}
              resourceId={resourceId}
              nameOf={nameOf}
            />
          ))}
        </Box>
      )}
    </ListCard>
  );
}
