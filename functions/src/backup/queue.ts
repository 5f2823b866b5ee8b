/**
 * Enqueues `runBackup` tasks (Cloud Tasks through firebase-admin; locally the Cloud Tasks emulator, which
 * firebase-admin finds through `CLOUD_TASKS_EMULATOR_HOST`). The queue is the function's, in the functions'
 * region.
 */
import { getFunctions } from "firebase-admin/functions";
import { GLOBAL_REGION } from "../config";
import { adminApp } from "../lib/firebase";
import type { BackupTask } from "./schema";

export type EnqueueBackup = (
  task: BackupTask,
  options?: { id?: string; delaySeconds?: number },
) => Promise<void>;

const QUEUE = `locations/${GLOBAL_REGION}/functions/runBackup`;

/** Enqueues a task; a task id Cloud Tasks has seen already (a duplicate) is not an error. */
export const enqueueBackup: EnqueueBackup = async (task, options = {}) => {
  try {
    await getFunctions(adminApp())
      .taskQueue<BackupTask>(QUEUE)
      .enqueue(task, {
        ...(options.id ? { id: options.id } : {}),
        ...(options.delaySeconds ? { scheduleDelaySeconds: options.delaySeconds } : {}),
      });
  } catch (error) {
    if ((error as { code?: unknown }).code === "functions/task-already-exists") return;
    throw error;
  }
};
