import type { Request } from "firebase-functions/v2/tasks";
import { ValidationError } from "yup";
import * as logs from "../logs";
import { backupTaskSchema, type BackupTask } from "./schema";
import { recordBackupRequest } from "./repo";

/**
 * Handles one `runBackup` task delivery. A malformed payload is dropped (retrying cannot fix it); a valid
 * one is recorded as a pending run, keyed by task id so a duplicate delivery records nothing twice. The
 * backup engine that executes pending runs arrives with the engine issue.
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
  await recordBackupRequest(request.id ?? `${task.organizationId}:${task.resourceId}:${Date.now()}`, task);
}
