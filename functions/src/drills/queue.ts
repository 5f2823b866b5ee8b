/** The `runDrill` queue: one task per restore drill (lib/task-queue.ts carries it). */
import type { RegionId } from "@alpvault/contracts/regions";
import { enqueueTask } from "../lib/task-queue";

/** Payload of a `runDrill` task: one restore drill, which says everything else. */
export interface DrillTask {
  organizationId: string;
  drillRunId: string;
}

export type EnqueueDrill = (regionId: RegionId, task: DrillTask, options?: { id?: string }) => Promise<void>;

export const enqueueDrill: EnqueueDrill = (regionId, task, options = {}) =>
  enqueueTask(regionId, "runDrill", task, options);
