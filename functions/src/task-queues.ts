/**
 * Each region's task queues: the handler of every queue and the options Cloud Tasks runs it with (retries,
 * concurrency). `index.ts` deploys one task-queue function per queue and region from this table; a test that
 * runs the product in its own process delivers its tasks to the same handlers, with the same retries.
 */
import type { Request, TaskQueueOptions } from "firebase-functions/v2/tasks";
import { REGION_IDS, type RegionId } from "@alpvault/contracts/regions";
import { deployTimeQuotaConfig, workerSecrets } from "./config";
import type { QueueName } from "./lib/task-queue";
import { backupTaskHandler } from "./backups/task";
import { gcTaskHandler } from "./backups/retention/task";
import { verifyTaskHandler } from "./backups/verify/task";
import { recoveryTaskHandler } from "./recovery/task";
import { exportTaskHandler } from "./export/task";
import { drillTaskHandler } from "./drills/task";
import { QUOTA_MODELS } from "./engine/google/costs";
import { backupRunSlots, backupRunsPerRegion } from "./engine/google/daily-budget";

export type TaskHandler = (request: Request<unknown>) => Promise<void>;

export interface TaskQueueDefinition {
  /** The handler of one delivery in a region's queue. */
  handler: (regionId: RegionId) => TaskHandler;
  /** The function's options in the region's location (retries, concurrency, time, memory). */
  options: (location: string) => TaskQueueOptions;
}

/** Each region's backup queue: its share of the runs the project's Gmail quota holds at once. */
function backupRunsPerRegionAtDeploy(): number {
  const quota = deployTimeQuotaConfig();
  return backupRunsPerRegion(
    backupRunSlots(QUOTA_MODELS[quota.model], quota.projectUnitsPerMinute),
    REGION_IDS.length,
  );
}

/**
 * The options of a worker that runs one stretch of a job per delivery and re-enqueues itself until the job
 * ends (verification, recovery, export, drill): 9 minutes, retried with backoff up to an hour.
 */
function stretchWorker(memory: "512MiB" | "1GiB", maxConcurrentDispatches: number) {
  return (location: string): TaskQueueOptions => ({
    region: location,
    secrets: workerSecrets(),
    timeoutSeconds: 540,
    memory,
    retryConfig: { maxAttempts: 5, minBackoffSeconds: 30, maxBackoffSeconds: 3600, maxDoublings: 5 },
    rateLimits: { maxConcurrentDispatches },
  });
}

export const TASK_QUEUES: Record<QueueName, TaskQueueDefinition> = {
  /** One stretch of one backup run (it re-enqueues itself until the run ends). */
  runBackup: {
    handler: backupTaskHandler,
    options: (location) => ({
      region: location,
      secrets: workerSecrets(),
      timeoutSeconds: 540,
      memory: "1GiB",
      retryConfig: { maxAttempts: 5, minBackoffSeconds: 30, maxBackoffSeconds: 3600, maxDoublings: 5 },
      // As many runs at once as the project's Gmail quota holds at their per-user ceiling, shared among the
      // regions (one Google Cloud project serves them all).
      rateLimits: { maxConcurrentDispatches: backupRunsPerRegionAtDeploy(), maxDispatchesPerSecond: 5 },
    }),
  },
  /** Retention and garbage collection of one organisation's backups (daily, from the dispatcher). */
  collectBackupGarbage: {
    handler: gcTaskHandler,
    options: (location) => ({
      region: location,
      secrets: workerSecrets(),
      timeoutSeconds: 1800,
      memory: "1GiB",
      retryConfig: { maxAttempts: 3, minBackoffSeconds: 600 },
      rateLimits: { maxConcurrentDispatches: 4 },
    }),
  },
  /**
   * One stretch of one integrity verification run of an organisation's backups (daily from the
   * dispatcher, or asked for through the API; it re-enqueues itself until the run ends).
   */
  verifyBackups: { handler: verifyTaskHandler, options: stretchWorker("1GiB", 4) },
  /** One stretch of one recovery (it re-enqueues itself until the recovery ends). */
  runRecovery: { handler: recoveryTaskHandler, options: stretchWorker("1GiB", 10) },
  /** One stretch of one export job (it re-enqueues itself until the export's file is complete). */
  runExport: { handler: exportTaskHandler, options: stretchWorker("512MiB", 10) },
  /** One stretch of one restore drill (it re-enqueues itself until the drill ends). */
  runDrill: { handler: drillTaskHandler, options: stretchWorker("1GiB", 4) },
};
