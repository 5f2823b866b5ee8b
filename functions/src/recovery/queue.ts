/** The `runRecovery` queue: one task per recovery (lib/task-queue.ts carries it). */
import type { RegionId } from "@alpvault/contracts/regions";
import { enqueueTask } from "../lib/task-queue";

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
  enqueueTask(regionId, "runRecovery", task, options);
