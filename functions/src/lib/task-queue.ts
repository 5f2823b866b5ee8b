/**
 * The task queues' transport: `runBackup`, `collectBackupGarbage`, `verifyBackups`, `runRecovery`,
 * `runExport` and `runDrill` tasks go to Cloud Tasks through firebase-admin (locally the Cloud Tasks
 * emulator, which firebase-admin finds through `CLOUD_TASKS_EMULATOR_HOST`). Every queue is a region's:
 * `<region>-runBackup` in the region's location, next to the region's data, so an organisation's work is
 * only ever done in its region. Each module enqueues its own tasks through `enqueueTask` (backups/queue.ts,
 * recovery/queue.ts, export/queue.ts, drills/queue.ts).
 *
 * Every task leaves through one transport: Cloud Tasks, unless a test that runs the product in its own
 * process has put a queue of its own in its place (`useTaskTransport`), from which it delivers tasks when it
 * says so.
 */
import { getFunctions } from "firebase-admin/functions";
import { regionLocation, type RegionId } from "@alpvault/contracts/regions";
import { adminApp } from "./firebase";

/** The task-queue functions of a region (`ch-runBackup`…), each served by its own worker. */
export const QUEUE_NAMES = [
  "runBackup",
  "collectBackupGarbage",
  "verifyBackups",
  "runRecovery",
  "runExport",
  "runDrill",
] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** How a task is enqueued: `id` names it (a second task of the same id is dropped), `delaySeconds` defers it. */
export interface EnqueueOptions {
  id?: string;
  delaySeconds?: number;
}

/** Where enqueued tasks go. A duplicate id must not be an error (Cloud Tasks' named-task dedupe). */
export type TaskTransport = (
  regionId: RegionId,
  queue: QueueName,
  task: object,
  options: EnqueueOptions,
) => Promise<void>;

/** The task queue of a region's function (`ch-runBackup` in europe-west6). */
export function regionalQueue(regionId: RegionId, name: QueueName): string {
  return `locations/${regionLocation(regionId)}/functions/${regionId}-${name}`;
}

/** Cloud Tasks (locally its emulator); a task id Cloud Tasks has seen already (a duplicate) is not an error. */
const cloudTasks: TaskTransport = async (regionId, queue, task, options) => {
  try {
    await getFunctions(adminApp())
      .taskQueue(regionalQueue(regionId, queue))
      .enqueue(task, {
        ...(options.id ? { id: options.id } : {}),
        ...(options.delaySeconds ? { scheduleDelaySeconds: options.delaySeconds } : {}),
      });
  } catch (error) {
    if ((error as { code?: unknown }).code === "functions/task-already-exists") return;
    throw error;
  }
};

let transport: TaskTransport = cloudTasks;

/**
 * Sends every task of this process through `replacement` (a test's own queue, which delivers tasks when
 * the test says so); `undefined` puts Cloud Tasks back. Deployed functions never call it.
 */
export function useTaskTransport(replacement: TaskTransport | undefined): void {
  transport = replacement ?? cloudTasks;
}

/** Enqueues `task` into a region's queue, through the transport in place. */
export function enqueueTask(
  regionId: RegionId,
  queue: QueueName,
  task: object,
  options: EnqueueOptions = {},
): Promise<void> {
  return transport(regionId, queue, task, options);
}
