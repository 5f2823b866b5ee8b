import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import type { VerifyRun } from "@alpvault/contracts/integrity";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { asApiError } from "@/lib/query";
import { useSnackbar } from "@/lib/snackbar";
import { isVerifyUnderWay, useIntegrity } from "../api/get-integrity";
import { resourcesKeys } from "../api/list-resources";
import { useVerifyIntegrity } from "../api/verify-integrity";
import "../i18n/register-page";

/** A day and time of the daily schedule, in the console's language, in UTC (as the schedule is kept). */
function useScheduleFormat(): Intl.DateTimeFormat {
  const { i18n } = useTranslation();
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
}

/** How a check the admin follows is going: waiting, reading back, or how it ended. */
function RunState({ run }: { run: VerifyRun }) {
  const { t } = useTranslation();
  if (isVerifyUnderWay(run)) {
    return (
      <Box data-testid="integrity-check-progress">
        <LinearProgress aria-label={t("resources.page.integrityChecking")} sx={{ my: 0.5 }} />
        <Typography variant="body2">
          {run.state === "pending"
            ? t("resources.page.integrityWaiting")
            : t("resources.page.integrityReading", { count: run.progress.checkedItems })}
        </Typography>
      </Box>
    );
  }
  return (
    <Typography
      variant="body2"
      color={run.state === "failed" || run.progress.damagedItems > 0 ? "error" : undefined}
      data-testid="integrity-check-outcome"
    >
      {run.state === "failed"
        ? t("resources.page.integrityCheckFailed", { reason: run.failureReason ?? "" })
        : run.progress.damagedItems > 0
          ? t("resources.page.integrityCheckDamaged", {
              count: run.progress.checkedItems,
              damaged: run.progress.damagedItems,
            })
          : t("resources.page.integrityCheckOk", { count: run.progress.checkedItems })}
    </Typography>
  );
}

/**
 * A resource's integrity checks (docs/requirements.md#backup-activity): when the organisation's daily check
 * is next due (the first a day after set-up), and "Check now", which reads the resource's backups back at
 * once and follows the check to its outcome; the resource is read again once it ends.
 */
export function IntegrityCheck({
  organizationId,
  resourceId,
}: {
  organizationId: string | null;
  resourceId: string;
}) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const client = useQueryClient();
  const schedule = useScheduleFormat();
  const [started, setStarted] = useState<VerifyRun | null>(null);
  const report = useIntegrity(organizationId, resourceId, started?.runId ?? null);
  const verify = useVerifyIntegrity();
  const runs = report.data?.runs ?? [];
  // The check the admin started (as the report has it now, or as the start answered), else one under way.
  const followed = started
    ? (runs.find((run) => run.runId === started.runId) ?? started)
    : runs.find((run) => isVerifyUnderWay(run) && run.resourceIds.includes(resourceId));
  const ended = started !== null && followed !== undefined && !isVerifyUnderWay(followed);
  // Once the check ends, the resource is read again: its integrity line says what the check found.
  useEffect(() => {
    if (ended) void client.invalidateQueries({ queryKey: resourcesKeys.all(organizationId) });
  }, [ended, client, organizationId]);

  const checkNow = () => {
    if (!organizationId) return;
    verify.run(organizationId, resourceId).then(
      (run) => {
        setStarted(run);
        show({ text: t("resources.page.integrityStarted"), isError: false });
      },
      (error: unknown) => show({ text: asApiError(error).message, isError: true }),
    );
  };
  const daily = report.data?.dailyVerification;
  return (
    <Box sx={{ mt: 0.5 }}>
      {daily && (
        <Typography variant="caption" color="text.secondary" component="p" data-testid="integrity-schedule">
          {daily.lastAt === null
            ? t("resources.page.integrityFirstDue", { date: schedule.format(new Date(daily.nextAt)) })
            : t("resources.page.integrityNextDue", { date: schedule.format(new Date(daily.nextAt)) })}
        </Typography>
      )}
      {followed && <RunState run={followed} />}
      <Button
        size="small"
        variant="outlined"
        sx={{ mt: 0.5 }}
        onClick={checkNow}
        disabled={!organizationId || verify.pending || (followed !== undefined && isVerifyUnderWay(followed))}
      >
        {t("resources.page.integrityCheckNow")}
      </Button>
    </Box>
  );
}
