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
  const estimate = useRecoveryEstimate(organizationId, estimateRequestOf(values));
  if (!estimate.data) return null;
  const { items, bytes, seconds, limit } = estimate.data;
  if (items === 0) {
    return (
      <Alert severity="warning" data-testid="recovery-estimate">
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
    <Alert severity="info" data-testid="recovery-estimate" data-seconds={seconds ?? ""}>
      {seconds === null
        ? what
        : t("recovery.estimate.time", { what, duration: aboutDuration(seconds, t), limit: limit.text })}
    </Alert>
  );
}
