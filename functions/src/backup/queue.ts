/**
 * Enqueues `runBackup` and `collectBackupGarbage` tasks (Cloud Tasks through firebase-admin; locally the Cloud Tasks emulator, which
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

const queueOf = (name: string) => `locations/${GLOBAL_REGION}/functions/${name}`;

/** Enqueues a task; a task id Cloud Tasks has seen already (a duplicate) is not an error. */
async function enqueue<T extends object>(
  queue: string,
  task: T,
  options: { id?: string; delaySeconds?: number },
): Promise<void> {
  try {
    await getFunctions(adminApp())
      .taskQueue<T>(queueOf(queue))
      .enqueue(task, {
        ...(options.id ? { id: options.id } : {}),
        ...(options.delaySeconds ? { scheduleDelaySeconds: options.delaySeconds } : {}),
      });
  } catch (error) {
    if ((error as { code?: unknown }).code === "functions/task-already-exists") return;
    throw error;
  }
}

export const enqueueBackup: EnqueueBackup = (task, options = {}) => enqueue("runBackup", task, options);

/** Payload of a `collectBackupGarbage` task: one organisation's retention and garbage collection. */
export interface GcTask {
  organizationId: string;
}

/** One collection per organisation and day (the task id says which day). */
export function enqueueGc(task: GcTask, day: string): Promise<void> {
  return enqueue("collectBackupGarbage", task, { id: `gc-${task.organizationId}-${day}` });
}

/** Payload of a `runRecovery` task: one recovery, which says everything else. */
export interface RecoveryTask {
  organizationId: string;
  recoveryId: string;
}

export type EnqueueRecovery = (task: RecoveryTask, options?: { id?: string }) => Promise<void>;

export const enqueueRecovery: EnqueueRecovery = (task, options = {}) => enqueue("runRecovery", task, options);
