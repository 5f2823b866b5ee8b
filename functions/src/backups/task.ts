import type { Request } from "firebase-functions/v2/tasks";
import { ValidationError } from "yup";
import type { RegionId } from "@alpvault/contracts/regions";
import * as logs from "../logs";
import { backupTaskSchema, type BackupTask } from "./schema";
import { workerDeps } from "./wiring";
import { executeBackupTask } from "./worker";

/**
 * Handles one `runBackup` task delivery in `regionId`'s queue. A malformed payload is dropped (retrying
 * cannot fix it); a valid one runs the backup worker, which drops a task of another region's organisation.
 * An error thrown here makes Cloud Tasks deliver the task again (with the queue's backoff); the run's lease
 * and state make a repeated delivery safe.
 */
export function backupTaskHandler(regionId: RegionId) {
  return async (request: Request<unknown>): Promise<void> => {
    logs.taskReceived({ queue: `${regionId}-runBackup`, taskId: request.id, retryCount: request.retryCount });
    let task: BackupTask;
    try {
      task = await backupTaskSchema.validate(request.data, { strict: true });
    } catch (error) {
      if (error instanceof ValidationError) {
        logs.taskDropped({
          queue: `${regionId}-runBackup`,
          taskId: request.id,
          reason: error.errors.join("; "),
        });
        return;
      }
      throw error;
    }
    await executeBackupTask(task, { ...workerDeps(), servingRegion: regionId });
  };
}
