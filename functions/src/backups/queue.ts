/**
 * The backups module's queues: `runBackup` (a run), `collectBackupGarbage` (an organisation's retention and
 * garbage collection) and `verifyBackups` (an integrity verification run); lib/task-queue.ts carries them.
 */
import type { RegionId } from "@alpvault/contracts/regions";
import { enqueueTask, type EnqueueOptions } from "../lib/task-queue";
import type { BackupTask } from "./schema";

export type EnqueueBackup = (regionId: RegionId, task: BackupTask, options?: EnqueueOptions) => Promise<void>;

export const enqueueBackup: EnqueueBackup = (regionId, task, options = {}) =>
  enqueueTask(regionId, "runBackup", task, options);

/** Payload of a `collectBackupGarbage` task: one organisation's retention and garbage collection. */
export interface GcTask {
  organizationId: string;
}

/** One collection per organisation and day (the task id says which day). */
export function enqueueGc(regionId: RegionId, task: GcTask, day: string): Promise<void> {
  return enqueueTask(regionId, "collectBackupGarbage", task, {
    id: `gc-${task.organizationId}-${day}`,
  });
}

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
  enqueueTask(regionId, "verifyBackups", task, options);
