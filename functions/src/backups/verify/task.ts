/**
 * The `verifyBackups` task: one delivery of one integrity verification run (`worker.ts`). A malformed
 * payload is dropped; a run another worker holds is thrown back so Cloud Tasks delivers it again later.
 */
import type { Request } from "firebase-functions/v2/tasks";
import { object, string, ValidationError } from "yup";
import type { RegionId } from "@alpvault/contracts/regions";
import * as logs from "../../logs";
import { catalogKeyring, dataKeyResolver } from "../data-keys";
import { enqueueVerify, type VerifyTask } from "../queue";
import { TASK_BUDGET_MS, workerDeps } from "../wiring";
import { executeVerifyTask, type VerifyDeps } from "./worker";

const verifyTaskSchema = object({
  organizationId: string()
    .required()
    .matches(/^[A-Za-z0-9_-]{1,128}$/),
  runId: string()
    .required()
    .matches(/^[A-Za-z0-9_-]{1,128}$/),
}).noUnknown();

/** The worker's dependencies from the backup worker's (bucket, key wrappers). */
export function verifyDeps(servingRegion: RegionId): VerifyDeps {
  const deps = workerDeps();
  return {
    blobStore: (regionId) => deps.blobStore(regionId),
    keys: (scope) => dataKeyResolver(scope, deps.wrappers),
    keyring: (scope) => catalogKeyring(scope, deps.wrappers),
    enqueue: enqueueVerify,
    budgetMs: TASK_BUDGET_MS,
    servingRegion,
  };
}

/** Handles one `verifyBackups` delivery in `regionId`'s queue. */
export function verifyTaskHandler(regionId: RegionId) {
  return async (request: Request<unknown>): Promise<void> => {
    const queue = `${regionId}-verifyBackups`;
    logs.taskReceived({ queue, taskId: request.id, retryCount: request.retryCount });
    let task: VerifyTask;
    try {
      task = await verifyTaskSchema.validate(request.data, { strict: true });
    } catch (error) {
      if (error instanceof ValidationError) {
        logs.taskDropped({ queue, taskId: request.id, reason: error.errors.join("; ") });
        return;
      }
      throw error;
    }
    await executeVerifyTask(task, verifyDeps(regionId));
  };
}
