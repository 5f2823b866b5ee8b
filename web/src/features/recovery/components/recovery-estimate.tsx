import Alert from "@mui/material/Alert";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import type { RecoveryRequest } from "@alpvault/contracts/recovery-request";
import { useTranslation } from "react-i18next";
import { aboutDuration } from "@/components/ui/work-pace";
import { formatStorage } from "@/lib/format";
import { useRecoveryEstimate } from "../api/estimate-recovery";
import { requestOf, type RecoveryFormValues } from "../hooks/use-recovery-form";

/**
 * What the estimate is asked for: the form's choices that change what is restored and where (the folder's
 * name does not), or null while the target is still to be chosen.
 */
function estimateRequestOf(values: RecoveryFormValues): RecoveryRequest | null {
  if (values.location === "other" && !values.targetResourceId) return null;
  return requestOf({ ...values, folderName: "Estimate" });
}

/** Two lines of an Alert's text (the estimate's usual length), so that the answer does not resize it. */
const ESTIMATE_HEIGHT = 68;

/**
 * Before the recovery starts: what it would restore (items and bytes) and about how long it would take,
 * with the limit that sets the pace ("about 3 h 20 min at Gmail's import limit of 240 messages a minute
 * per mailbox"), as the API estimates it for the target now.
 */
export function RecoveryEstimateLine({
  organizationId,
  values,
}: {
  organizationId: string | null;
  values: RecoveryFormValues;
}) {
  const { t, i18n } = useTranslation();
  const request = estimateRequestOf(values);
  const estimate = useRecoveryEstimate(organizationId, request);
  if (request === null) return null;
  // The line keeps its place while the answer comes (and the previous answer while a changed choice is
  // estimated): the dialog is centred, so a line that appeared late would move every field under the
  // pointer.
  if (!estimate.data) {
    return (
      <Alert severity="info" sx={{ minHeight: ESTIMATE_HEIGHT }} data-testid="recovery-estimate-pending">
        {estimate.isError ? t("recovery.estimate.unavailable") : t("recovery.estimate.pending")}
      </Alert>
    );
  }
  const { items, bytes, seconds, limit } = estimate.data;
  if (items === 0) {
    return (
      <Alert severity="warning" sx={{ minHeight: ESTIMATE_HEIGHT }} data-testid="recovery-estimate">
        {RECOVERY_MESSAGES.nothingToRecover}
      </Alert>
    );
  }
  const what = t("recovery.estimate.what", {
    count: items,
    items: items.toLocaleString(i18n.language),
    size: formatStorage(bytes),
  });
  return (
    <Alert
      severity="info"
      sx={{ minHeight: ESTIMATE_HEIGHT }}
      data-testid="recovery-estimate"
      data-seconds={seconds ?? ""}
    >
      {seconds === null
        ? what
        : t("recovery.estimate.time", { what, duration: aboutDuration(seconds, t), limit: limit.text })}
    </Alert>
  );
}
