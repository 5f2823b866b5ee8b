import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import type { Resource } from "@alpvault/contracts/organizations";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError } from "@/lib/query";
import { useAssignPolicy } from "../api/assign-policy";
import { useBackupNow } from "../api/backup-now";
import type { PolicyChoice } from "../api/list-policies";
import { useMarkAlertsRead } from "../api/mark-alerts-read";
import { useSyncResources } from "../api/sync-resources";
import type { AssignTarget } from "../components/assign-policy-dialog";

/**
 * The resources screen's writes, each answered in the snackbar: sync with Google Workspace, assign a policy
 * (to the selected resources or one row's; `onAssigned` after it), back up now and mark the alerts read.
 */
export function useResourceActions(
  organizationId: string | null,
  policies: readonly PolicyChoice[],
  onAssigned: () => void,
) {
  const { t } = useTranslation();
  const { show: setMessage } = useSnackbar();
  const [assignTarget, setAssignTarget] = useState<AssignTarget | null>(null);
  const sync = useSyncResources();
  const markRead = useMarkAlertsRead();
  const assign = useAssignPolicy();
  const startBackup = useBackupNow();

  const fail = (error: unknown) => setMessage({ text: asApiError(error).message, isError: true });

  const runSync = () => {
    if (!organizationId) return;
    sync.run(organizationId).then((result) => {
      setMessage({ text: t("resources.synced", { ...result }), isError: false });
    }, fail);
  };

  const assignPolicy = (policyId: string) => {
    if (!organizationId || !assignTarget) return;
    assign.run(organizationId, policyId, assignTarget.resourceIds).then((result) => {
      const name = policies.find((policy) => policy.policyId === policyId)?.name ?? "";
      setMessage({ text: t("resources.assign.done", { count: result.assigned, name }), isError: false });
      setAssignTarget(null);
      onAssigned();
    }, fail);
  };

  const backupNow = (resource: Resource) => {
    if (!organizationId) return;
    startBackup.run(organizationId, resource.resourceId).then((result) => {
      setMessage({
        text: result.created ? BACKUP_MESSAGES.started : BACKUP_MESSAGES.alreadyRunning,
        isError: false,
      });
    }, fail);
  };

  const markAllRead = () => {
    if (!organizationId) return;
    markRead.run(organizationId).then(() => {
      setMessage({ text: t("resources.alerts.marked"), isError: false });
    }, fail);
  };

  return {
    assignTarget,
    setAssignTarget,
    syncing: sync.pending,
    assigning: assign.pending,
    marking: markRead.pending,
    runSync,
    assignPolicy,
    backupNow,
    markAllRead,
  };
}
