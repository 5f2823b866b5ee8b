/**
 * Recording an ended backup run: the resource's status and totals, what became of the damaged items it was
 * to fetch again, "backup finished/failed" in the audit log and an alert on failure. Idempotent: a repeated
 * delivery of an ended run records the same again (the audit entry and the alert are keyed by run).
 */
import { BACKUP_FAILURE_REASONS } from "@alpvault/contracts/backups";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { appendAudit } from "../audit/service";
import type { Scope } from "../lib/tenancy";
import { putAlert } from "../resources/service";
import { recordRunEnd, type BackupResource, type BackupRun } from "./repo";
import { recordRunActivity } from "./history";
import { readVerifyResource, refetchOutcomes, updateRefetchStates } from "./verify/repo";

/**
 * After a run, what became of the damaged items it was to fetch again: written again ("refetched"), or
 * gone at Google ("gone", it stays damaged); the others wait for the next run.
 */
async function recordRefetches(scope: Scope, resourceId: string): Promise<void> {
  const integrity = (await readVerifyResource(scope, resourceId))?.integrity;
  const pending = (integrity?.damaged ?? []).filter((item) => item.refetch === "pending");
  if (!integrity || pending.length === 0) return;
  const outcomes = await refetchOutcomes(
    scope,
    resourceId,
    pending.map((item) => item.itemKey),
    integrity.verifiedAt,
  );
  await updateRefetchStates(scope, resourceId, integrity.verifiedAt, outcomes);
}

/** Records an ended run: resource status and totals, the audit entry, an alert on failure. Idempotent. */
export async function recordEnd(
  scope: Scope,
  run: BackupRun,
  resource: BackupResource | undefined,
): Promise<void> {
  await recordRunEnd(scope, run);
  await recordRunActivity(scope, run, new Date());
  await recordRefetches(scope, run.resourceId);
  const name = resource?.email ?? resource?.name ?? run.resourceId;
  const failed = run.state === "failed";
  const reason = run.failureReason ?? "unknown-error";
  await appendAudit(scope, {
    operation: failed ? "backup.failed" : "backup.finished",
    actor: SYSTEM_ACTOR,
    object: name,
    failureReason: failed ? BACKUP_FAILURE_REASONS[reason] : null,
    date: new Date(run.finishedAt ?? Date.now()),
    key: `backup-ended-${run.runId}`,
  });
  if (failed) {
    // Keyed by run, so a repeated delivery raises it once.
    await putAlert(scope, `backup-failed-${run.runId}`, {
      createdAt: run.finishedAt ?? new Date().toISOString(),
      kind: "backup-failed",
      message: `Backup of ${name} failed: ${BACKUP_FAILURE_REASONS[reason]}`,
      read: false,
    });
  }
}
