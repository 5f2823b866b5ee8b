/**
 * The export worker's wiring: the region's bucket (a blob store for reading backups and directory parts,
 * the upload target for the export's file, and download links signed as the runtime's service account;
 * against the emulator, signed with the local service-account key the emulator checks), and the handler of
 * one `runExport` delivery.
 */
import type { RegionId } from "@alpvault/contracts/regions";
import { loadEngineConfig, loadWorkspaceConfig } from "../config";
import { organizationTaskHandler } from "../lib/task-handler";
import { GcsBlobStore, regionBucketName } from "../engine/blobstore/gcs-blob-store";
import { enqueueExport } from "./queue";
import { TASK_BUDGET_MS, workerDeps } from "../backups/wiring";
import { executeExport, type ExportDeps } from "./job";
import type { ExportStorage } from "./jobs";

const buckets = new Map<RegionId, GcsBlobStore>();

/** The region's bucket as the export jobs use it (one client per region and instance). */
function regionBucket(regionId: RegionId): GcsBlobStore {
  let bucket = buckets.get(regionId);
  if (!bucket) {
    const engine = loadEngineConfig();
    bucket = new GcsBlobStore({
      bucket: regionBucketName(engine.projectId, regionId),
      projectId: engine.projectId,
      ...(engine.storageEmulatorHost
        ? { apiEndpoint: engine.storageEmulatorHost, signer: loadWorkspaceConfig().serviceAccountKey() }
        : {}),
    });
    buckets.set(regionId, bucket);
  }
  return bucket;
}

export const exportStorage: ExportStorage = {
  signedReadUrl: (regionId, name, expires, fileName) =>
    regionBucket(regionId).signedReadUrl(name, expires, fileName),
  delete: (regionId, name) => regionBucket(regionId).delete(name),
};

/** The export worker's dependencies as the deployed handler wires them. */
export function exportDeps(): ExportDeps {
  const backup = workerDeps();
  return {
    blobStore: (regionId) => regionBucket(regionId),
    upload: (regionId) => regionBucket(regionId).uploadTarget(),
    wrappers: backup.wrappers,
    enqueue: enqueueExport,
    budgetMs: TASK_BUDGET_MS,
  };
}

/**
 * Handles one `runExport` delivery in `regionId`'s queue; a malformed payload, or an export of another
 * region's organisation, is dropped.
 */
export function exportTaskHandler(regionId: RegionId) {
  return organizationTaskHandler(`${regionId}-runExport`, "exportId", (task) =>
    executeExport(task, { ...exportDeps(), servingRegion: regionId }),
  );
}
