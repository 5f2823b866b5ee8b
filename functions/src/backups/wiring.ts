/**
 * The worker's dependencies from the runtime configuration, built once per instance: one quota-aware
 * caller for the process, delegated Gmail and Drive clients per resource (without their own retries), the
 * region's bucket, and the key wrappers (built-in key, Cloud KMS).
 */
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import { DEFAULT_SECRET_ID } from "@alpvault/contracts/secrets";
import { loadEngineConfig, loadKmsConfig, loadQuotaConfig, loadWorkspaceConfig } from "../config";
import { kmsClient, kmsService, type Kms } from "../secrets/kms";
import { addGoogleUnitsSpent, googleUnitsSpent } from "../system/service";
import { delegatedJwt, workspaceRootUrl } from "../workspace/gateway";
import { restoreClients } from "../workspace/restore-clients";
import { GcsBlobStore, regionBucketName } from "../engine/blobstore/gcs-blob-store";
import { defaultKeyWrapper } from "../engine/format/keys";
import { googleClientOptions } from "../engine/google/client-options";
import { QUOTA_MODELS } from "../engine/google/costs";
import { backupRunSlots } from "../engine/google/daily-budget";
import { quotaAwareCaller } from "../engine/google/quota-caller";
import { enqueueBackup } from "./queue";
import { DriveSource, findDriveMember } from "../engine/drive/source";
import { GmailSource } from "../engine/gmail/source";
import type { WorkerDeps } from "./worker";
import { cloudKmsKeyWrapper } from "../secrets/key-wrapper";

const GMAIL_SCOPES = ["https://www.googleapis.com/auth/gmail.readonly"];
const DRIVE_SCOPES = ["https://www.googleapis.com/auth/drive"];

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
    streams: {
      gmail: (user, caller, signal, labelNames) =>
        new GmailSource({
          gmail: new gmail_v1.Gmail(
            googleClientOptions({ auth: delegatedJwt(workspace, user, GMAIL_SCOPES), ...root }),
          ),
          user,
          caller,
          signal,
          ...(labelNames ? { labelNames } : {}),
        }),
      driveMember: ({ driveId, admin, domain }, caller, signal) =>
        findDriveMember({
          drive: new drive_v3.Drive(
            googleClientOptions({ auth: delegatedJwt(workspace, admin, DRIVE_SCOPES), ...root }),
          ),
          caller,
          admin,
          driveId,
          domain,
          signal,
        }),
      drive: (resource, caller, signal) => {
        const subject = resource.kind === "user" ? resource.email : resource.actAs;
        const auth = delegatedJwt(workspace, subject, DRIVE_SCOPES);
        return new DriveSource({
          drive: new drive_v3.Drive(googleClientOptions({ auth, ...root })),
          resource,
          caller,
          signal,
          accessToken: async () => (await auth.getAccessToken()).token ?? "",
        });
      },
    },
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
