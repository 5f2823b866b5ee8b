import CloseOutlined from "@mui/icons-material/CloseOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { RECOVERY_MESSAGES, type Recovery } from "@alpvault/contracts/recovery";
import { NamedProblems } from "@/components/ui/named-problems";
import { apiDownload } from "@/lib/api-client";
import { saveFile } from "@/lib/save-file";
import { recoveryReportPath } from "../api/get-recovery";
import { WorkPace } from "@/components/ui/work-pace";
import { formatStorage } from "@/lib/format";
import { isRecoveryOver, useRecoveryProgress } from "../hooks/use-recovery-progress";
import "../i18n/register";

/** Items named in the card; the report lists every one. */
const NAMED_PROBLEMS = 5;

/**
 * What a finished recovery also skipped or could not restore, if anything: the counts, the first items
 * with why, and the report of every item.
 */
function Remarks({ organizationId, recovery }: { organizationId: string; recovery: Recovery }) {
  const { t } = useTranslation();
  const [reportError, setReportError] = useState<string | null>(null);
  const { skipped, failed } = recovery.progress;
  const remarks = [
    skipped > 0 ? t("recovery.progress.skipped", { count: skipped }) : null,
    failed > 0 ? t("recovery.progress.failedItems", { count: failed }) : null,
  ].filter((remark) => remark !== null);
  if (remarks.length === 0) return null;
  const named = recovery.problems.slice(0, NAMED_PROBLEMS);
  const more = skipped + failed - named.length;
  const download = () => {
    setReportError(null);
    apiDownload(recoveryReportPath(organizationId, recovery.recoveryId), undefined)
      .then((blob) => saveFile(blob, `recovery-${recovery.recoveryId}.csv`))
      .catch((error: unknown) =>
        setReportError(
          t("recovery.progress.reportFailed", {
            reason: error instanceof Error && error.message ? error.message : RECOVERY_MESSAGES.failed,
          }),
        ),
      );
  };
  return (
    <Box data-testid="recovery-problems">
      <Typography variant="body2">{remarks.join(" · ")}</Typography>
      <NamedProblems problems={named} more={more} texts="recovery.progress" testId="recovery-problem" />
      <Button size="small" color="inherit" variant="outlined" onClick={download} sx={{ mt: 0.5 }}>
        {t("recovery.progress.report")}
      </Button>
      {reportError && (
        <Typography variant="body2" role="alert">
          {reportError}
        </Typography>
      )}
    </Box>
  );
}

/**
 * One recovery followed live (docs/requirements.md#screens-and-navigation): waiting, then the items restored so far, until it ends with how
 * many were restored, or why it failed (as an error). The admin dismisses it.
 */
export function RecoveryProgress({
  organizationId,
  started,
  resourceName,
  targetName = null,
  onDismiss,
}: {
  organizationId: string;
  started: Recovery;
  resourceName: string;
  /** The other resource the recovery goes to, when it is not the original one. */
  targetName?: string | null;
  onDismiss: () => void;
}) {
  const { t, i18n } = useTranslation();
  const recovery = useRecoveryProgress(organizationId, started);
  const { total, restored, skipped, failed } = recovery.progress;
  const dismiss = (
    <IconButton size="small" aria-label={t("recovery.progress.dismiss")} onClick={onDismiss}>
      <CloseOutlined fontSize="small" />
    </IconButton>
  );
  const common = { "data-testid": "recovery-progress", "data-state": recovery.state };
  const titleText = targetName
    ? t("recovery.progress.titleTo", { resource: resourceName, target: targetName })
    : t("recovery.progress.title", { resource: resourceName });
  const title = (
    <Typography variant="caption" component="div">
      {titleText}
    </Typography>
  );

  if (isRecoveryOver(recovery)) {
    return recovery.state === "succeeded" ? (
      <Alert severity="success" variant="filled" action={dismiss} {...common}>
        {title}
        <Box data-testid="recovery-progress-text">{t("recovery.progress.finished", { count: restored })}</Box>
        <Remarks organizationId={organizationId} recovery={recovery} />
      </Alert>
    ) : (
      <Alert severity="error" variant="filled" action={dismiss} {...common}>
        {title}
        <Box data-testid="recovery-progress-text">
          {t("recovery.progress.failed", { reason: recovery.failureReason ?? RECOVERY_MESSAGES.failed })}
        </Box>
        <Remarks organizationId={organizationId} recovery={recovery} />
      </Alert>
    );
  }

  const done = restored + skipped + failed;
  const number = (value: number) => value.toLocaleString(i18n.language);
  const text =
    recovery.state === "pending"
      ? t("recovery.progress.waiting")
      : total > 0
        ? t("recovery.progress.running", { restored: number(restored), total: number(total) })
        : t("recovery.progress.runningUnknown", { count: restored });
  const { bytes, totalBytes } = recovery.progress;
  return (
    <Paper variant="outlined" sx={{ p: 1.5, pr: 1 }} {...common}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        {/* The whole title: names and addresses wrap rather than being cut. */}
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0, overflowWrap: "anywhere" }}>
          {titleText}
        </Typography>
        {dismiss}
      </Box>
      <LinearProgress
        aria-label={t("recovery.progress.bar", { resource: resourceName })}
        variant={total > 0 && recovery.state === "running" ? "determinate" : "indeterminate"}
        value={total > 0 ? Math.min(100, (done / total) * 100) : undefined}
        sx={{ my: 1 }}
      />
      <Typography variant="body2" color="text.secondary" data-testid="recovery-progress-text">
        {text}
        {recovery.state === "running" && totalBytes > 0
          ? ` · ${t("recovery.progress.bytes", { size: formatStorage(bytes), total: formatStorage(totalBytes) })}`
          : ""}
      </Typography>
      {recovery.state === "running" && <WorkPace pace={recovery.progress} testId="recovery-pace" />}
    </Paper>
  );
}
