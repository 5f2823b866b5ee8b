/**
 * Enqueues `runBackup`, `collectBackupGarbage`, `verifyBackups`, `runRecovery`, `runExport` and `runDrill`
 * tasks (Cloud Tasks through firebase-admin; locally the Cloud Tasks emulator, which firebase-admin finds
 * through `CLOUD_TASKS_EMULATOR_HOST`). Every queue is a region's: `<region>-runBackup` in the region's
 * location, next to the region's data, so an organisation's work is only ever done in its region.
 *
 * Every task leaves through one transport: Cloud Tasks, unless a test that runs the product in its own
 * process has put a queue of its own in its place (`useTaskTransport`), from which it delivers tasks when it
 * says so.
 */
import { getFunctions } from "firebase-admin/functions";
import { regionLocation, type RegionId } from "@alpvault/contracts/regions";
import { adminApp } from "../lib/firebase";
import type { BackupTask } from "./schema";

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

export type EnqueueBackup = (regionId: RegionId, task: BackupTask, options?: EnqueueOptions) => Promise<void>;

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

function enqueue(regionId: RegionId, queue: QueueName, task: object, options: EnqueueOptions): Promise<void> {
  return transport(regionId, queue, task, options);
}

export const enqueueBackup: EnqueueBackup = (regionId, task, options = {}) =>
  enqueue(regionId, "runBackup", task, options);

/** Payload of a `collectBackupGarbage` task: one organisation's retention and garbage collection. */
export interface GcTask {
  organizationId: string;
}

/** One collection per organisation and day (the task id says which day). */
export function enqueueGc(regionId: RegionId, task: GcTask, day: string): Promise<void> {
  return enqueue(regionId, "collectBackupGarbage", task, {
    id: `gc-${task.organizationId}-${day}`,
  });
}

/** Payload of a `runRecovery` task: one recovery, which says everything else. */
export interface RecoveryTask {
  organizationId: string;
  recoveryId: string;
}

export type EnqueueRecovery = (
  regionId: RegionId,
  task: RecoveryTask,
  options?: { id?: string },
) => Promise<void>;

export const enqueueRecovery: EnqueueRecovery = (regionId, task, options = {}) =>
  enqueue(regionId, "runRecovery", task, options);

/** Payload of a `runExport` task: one export job, which says everything else. */
export interface ExportTask {
  organizationId: string;
  exportId: string;
}

export type EnqueueExport = (
  regionId: RegionId,
  task: ExportTask,
  options?: { id?: string },
) => Promise<void>;

export const enqueueExport: EnqueueExport = (regionId, task, options = {}) =>
  enqueue(regionId, "runExport", task, options);

/** Payload of a `runDrill` task: one restore drill, which says everything else. */
export interface DrillTask {
  organizationId: string;
  drillRunId: string;
}

export type EnqueueDrill = (regionId: RegionId, task: DrillTask, options?: { id?: string }) => Promise<void>;

export const enqueueDrill: EnqueueDrill = (regionId, task, options = {}) =>
  enqueue(regionId, "runDrill", task, options);

/** Payload of a `verifyBackups` task: one integrity verification run of an organisation. */
export interface VerifyTask {
  organizationId: string;
  runId: string;
}

export type EnqueueVerify = (
  regionId: RegionId,
  task: VerifyTask,
  options?: { id?: string },
) => Promise<void>;

export const enqueueVerify: EnqueueVerify = (regionId, task, options = {}) =>
  enqueue(regionId, "verifyBackups", task, options);
