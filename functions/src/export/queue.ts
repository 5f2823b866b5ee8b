/** The `runExport` queue: one task per export job (lib/task-queue.ts carries it). */
import type { RegionId } from "@alpvault/contracts/regions";
import { enqueueTask } from "../lib/task-queue";

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
  enqueueTask(regionId, "runExport", task, options);
