/**
 * The worker's dependencies from the runtime configuration, built once per instance: one quota-aware
 * caller for the process, delegated Gmail and Drive clients per resource (without their own retries), the
 * region's bucket, and the key wrappers (built-in key, Cloud KMS).
 */
import { DEFAULT_SECRET_ID } from "@alpvault/contracts/secrets";
import { loadEngineConfig, loadKmsConfig, loadQuotaConfig, loadWorkspaceConfig } from "../config";
import { kmsClient, kmsService, type Kms } from "../secrets/kms";
import { addGoogleUnitsSpent, googleUnitsSpent } from "../system/service";
import { workspaceRootUrl } from "../workspace/gateway";
import { restoreClients } from "../workspace/restore-clients";
import { GcsBlobStore, regionBucketName } from "../engine/blobstore/gcs-blob-store";
import { defaultKeyWrapper } from "../engine/format/keys";
import { QUOTA_MODELS } from "../engine/google/costs";
import { backupRunSlots } from "../engine/google/daily-budget";
import { quotaAwareCaller } from "../engine/google/quota-caller";
import { enqueueBackup } from "./queue";
import { streamBuilders } from "./stream-builders";
import type { WorkerDeps } from "./worker";
import { openCatalogKeys } from "./data-keys";
import type { CatalogScope } from "./catalog/sealed-documents";
import type { Scope } from "../lib/tenancy";
import { cloudKmsKeyWrapper } from "../secrets/key-wrapper";

/** How long one delivery works before it checkpoints and re-enqueues (the function's timeout is 540 s). */
export const TASK_BUDGET_MS = 7 * 60_000;

let built: WorkerDeps | undefined;

export function workerDeps(): WorkerDeps {
  if (built) return built;
  const workspace = loadWorkspaceConfig();
  const engine = loadEngineConfig();
  const rootUrl = workspaceRootUrl(workspace);
  const root = rootUrl ? { rootUrl } : {};
  let kms: Kms | undefined;
  const stores = new Map<string, GcsBlobStore>();
  const quota = loadQuotaConfig();
  const raised = quota.projectUnitsPerMinute;
  built = {
    caller: quotaAwareCaller({
      model: QUOTA_MODELS[quota.model],
      limits: {
        ...(raised.gmail ? { gmail: { perProjectPerMinute: raised.gmail } } : {}),
        ...(raised.drive ? { drive: { perProjectPerMinute: raised.drive } } : {}),
      },
    }),
    dailyBudget: {
      model: QUOTA_MODELS[quota.model],
      runSlots: backupRunSlots(QUOTA_MODELS[quota.model], raised),
      spent: googleUnitsSpent,
      add: addGoogleUnitsSpent,
    },
    streams: streamBuilders(workspace, root),
    blobStore: (regionId) => {
      let store = stores.get(regionId);
      if (!store) {
        store = new GcsBlobStore({
          bucket: regionBucketName(engine.projectId, regionId),
          projectId: engine.projectId,
          ...(engine.storageEmulatorHost ? { apiEndpoint: engine.storageEmulatorHost } : {}),
        });
        stores.set(regionId, store);
      }
      return store;
    },
    wrappers: (secret) => {
      if (secret.secretId === DEFAULT_SECRET_ID || !secret.kmsResourceName) {
        return defaultKeyWrapper(engine.keyEncryptionKey());
      }
      kms ??= kmsService(kmsClient(loadKmsConfig()));
      return cloudKmsKeyWrapper(kms, secret.kmsResourceName);
    },
    enqueue: enqueueBackup,
    budgetMs: TASK_BUDGET_MS,
  };
  return built;
}

/**
 * What a worker that restores into Google runs with (recoveries, restore drills): the backup worker's
 * caller, bucket and key wrappers, the restore clients, its own queue to re-enqueue itself, and the task
 * budget.
 */
export function restoreWorkerDeps<Enqueue>(enqueue: Enqueue) {
  const backup = workerDeps();
  return {
    caller: backup.caller,
    ...restoreClients(),
    blobStore: backup.blobStore,
    wrappers: backup.wrappers,
    enqueue,
    budgetMs: TASK_BUDGET_MS,
  };
}

/**
 * For the API's routes and the jobs that read backups (search, browse, recovery, export, downloads): the
 * scope with the organisation's catalog keys open, or a 409 "Encryption key error" while its key cannot be
 * used (`openCatalogKeys`).
 */
export async function readableScope<S extends Scope>(scope: S): Promise<S & CatalogScope> {
  return { ...scope, keyring: await openCatalogKeys(scope, workerDeps().wrappers) };
}
