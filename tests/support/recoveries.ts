/** Starting recoveries through the API and waiting for their end, as the web app does; a dead one resumed. */
import type { Recovery, RecoveryService } from "@alpvault/contracts/recovery";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { catalogDocId } from "../../functions/src/engine/runner/catalog-ids";
import { REGION_DB, enqueueTaskTo, organizationDoc } from "./backup-runs";
import { withRegionDb, type ApiCaller } from "./organizations";
import { afterBackgroundWork } from "./wait";

export function recoveriesOf(call: ApiCaller, organization: OrganizationSummary) {
  const base = `/organizations/${organization.organizationId}/recoveries`;
  return {
    /** POST …/recoveries with the body as given. */
    start: (body: Record<string, unknown>) => call(base, { method: "POST", body }),
    /** The recovery once it succeeded or failed (see `afterBackgroundWork`). */
    finished: (recoveryId: string): Promise<Recovery> =>
      afterBackgroundWork(
        `Recovery ${recoveryId}`,
        async () => (await call(`${base}/${recoveryId}`)).body as Recovery,
        (recovery) => recovery.state === "succeeded" || recovery.state === "failed",
        120_000,
      ),
  };
}

/**
 * A recovery of one item whose worker died between the import (or upload) and its ledger entry: stored
 * "running" with an expired lease and the item's ledger entry left "importing", then its task delivered
 * again, as Cloud Tasks would retry it. Returns the recovery's id.
 */
export async function resumeDeadRecovery(
  organization: OrganizationSummary,
  recovery: {
    /** Default: a new id. */
    recoveryId?: string;
    service: RecoveryService;
    resourceId: string;
    folderName: string;
    /** Default: into a separate folder. */
    method?: "folder" | "overwrite";
    itemId: string;
    requestedBy: string;
    /** The recovery's secret for the marks it leaves at Google (absent: one requested before there was one). */
    tagSecret?: string;
  },
): Promise<string> {
  const recoveryId = recovery.recoveryId ?? `resumed${Date.now()}`;
  await withRegionDb(REGION_DB, async (db) => {
    const stored = organizationDoc(organization)(db).collection("recoveries").doc(recoveryId);
    await stored.create({
      state: "running",
      service: recovery.service,
      resourceId: recovery.resourceId,
      targetResourceId: recovery.resourceId,
      method: recovery.method ?? "folder",
      folderName: recovery.method === "overwrite" ? null : recovery.folderName,
      asOf: null,
      permissions: false,
      itemIds: [recovery.itemId],
      requestedAt: new Date().toISOString(),
      requestedBy: recovery.requestedBy,
      finishedAt: null,
      progress: { total: 1, restored: 0, skipped: 0, failed: 0 },
      failureReason: null,
      position: { index: 0, lastItemKey: null },
      lease: { holder: "a-worker-that-died", until: new Date(Date.now() - 1000).toISOString() },
      ...(recovery.tagSecret ? { tagSecret: recovery.tagSecret } : {}),
    });
    await stored
      .collection("ledger")
      .doc(catalogDocId(recovery.itemId))
      .set({ itemKey: recovery.itemId, state: "importing" });
  });
  await enqueueTaskTo("runRecovery", { organizationId: organization.organizationId, recoveryId });
  return recoveryId;
}
