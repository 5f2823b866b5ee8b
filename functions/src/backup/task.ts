import type { Request } from "firebase-functions/v2/tasks";
import { ValidationError } from "yup";
import * as logs from "../logs";
import { backupTaskSchema, type BackupTask } from "./schema";
import { workerDeps } from "./wiring";
import { executeBackupTask } from "./worker";

/**
 * Handles one `runBackup` task delivery. A malformed payload is dropped (retrying cannot fix it); a valid
 * one runs the backup worker. An error thrown here makes Cloud Tasks deliver the task again (with the
 * queue's backoff); the run's lease and state make a repeated delivery safe.
 */
export async function backupTaskHandler(request: Request<unknown>): Promise<void> {
  logs.taskReceived({ queue: "runBackup", taskId: request.id, retryCount: request.retryCount });
  let task: BackupTask;
  try {
    task = await backupTaskSchema.validate(request.data, { strict: true });
  } catch (error) {
    if (error instanceof ValidationError) {
      logs.taskDropped({ queue: "runBackup", taskId: request.id, reason: error.errors.join("; ") });
      return;
    }
    throw error;
  }
  await executeBackupTask(task, workerDeps());
}
