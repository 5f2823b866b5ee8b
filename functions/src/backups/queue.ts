/**
 * Enqueues `runBackup`, `collectBackupGarbage`, `verifyBackups`, `runRecovery`, `runExport` and `runDrill`
 * tasks (Cloud Tasks through firebase-admin; locally the Cloud Tasks emulator, which firebase-admin finds
 * through `CLOUD_TASKS_EMULATOR_HOST`). Every queue is a region's: `<region>-runBackup` in the region's
 * location, next to the region's data, so an organisation's work is only ever done in its region.
 */
import { getFunctions } from "firebase-admin/functions";
import { regionLocation, type RegionId } from "@alpvault/contracts/regions";
import { adminApp } from "../lib/firebase";
import type { BackupTask } from "./schema";

export type EnqueueBackup = (
  regionId: RegionId,
  task: BackupTask,
  options?: { id?: string; delaySeconds?: number },
) => Promise<void>;

/** The task queue of a region's function (`ch-runBackup` in europe-west6). */
export function regionalQueue(regionId: RegionId, name: string): string {
  return `locations/${regionLocation(regionId)}/functions/${regionId}-${name}`;
}

/** Enqueues a task; a task id Cloud Tasks has seen already (a duplicate) is not an error. */
async function enqueue<T extends object>(
  queue: string,
  task: T,
  options: { id?: string; delaySeconds?: number },
): Promise<void> {
  try {
    await getFunctions(adminApp())
      .taskQueue<T>(queue)
      .enqueue(task, {
        ...(options.id ? { id: options.id } : {}),
        ...(options.delaySeconds ? { scheduleDelaySeconds: options.delaySeconds } : {}),
      });
  } catch (error) {
    if ((error as { code?: unknown }).code === "functions/task-already-exists") return;
    throw error;
  }
}

export const enqueueBackup: EnqueueBackup = (regionId, task, options = {}) =>
  enqueue(regionalQueue(regionId, "runBackup"), task, options);

/** Payload of a `collectBackupGarbage` task: one organisation's retention and garbage collection. */
export interface GcTask {
  organizationId: string;
}

/** One collection per organisation and day (the task id says which day). */
export function enqueueGc(regionId: RegionId, task: GcTask, day: string): Promise<void> {
  return enqueue(regionalQueue(regionId, "collectBackupGarbage"), task, {
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
  enqueue(regionalQueue(regionId, "runRecovery"), task, options);

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
  enqueue(regionalQueue(regionId, "runExport"), task, options);

/** Payload of a `runDrill` task: one restore drill, which says everything else. */
export interface DrillTask {
  organizationId: string;
  drillRunId: string;
}

export type EnqueueDrill = (regionId: RegionId, task: DrillTask, options?: { id?: string }) => Promise<void>;

export const enqueueDrill: EnqueueDrill = (regionId, task, options = {}) =>
  enqueue(regionalQueue(regionId, "runDrill"), task, options);

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
  enqueue(regionalQueue(regionId, "verifyBackups"), task, options);
