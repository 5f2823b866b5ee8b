/**
 * Cloud Functions triggers. Only exports live here; the work is in the domain folders.
 *
 * Data residency: an organisation's data is processed where it is stored. The global `api` (in
 * GLOBAL_REGION) serves only what belongs to no organisation (sign-in checks, regions, plans) and sends an
 * organisation's calls to its region. Each region has a group of its own, deployed in the region's location
 * (`ch-api`, `ch-dispatchBackups`, `ch-runBackup`, `ch-collectBackupGarbage`, `ch-verifyBackups`,
 * `ch-runRecovery`, `ch-runExport`, `ch-runDrill` in europe-west6…): its API (its own Hosting site and host,
 * `<region>.api.<API_BASE_DOMAIN>`), its scheduled dispatcher and its task queues. See docs/residency.md.
 */
import { setGlobalOptions } from "firebase-functions/v2";
import { onRequest } from "firebase-functions/v2/https";
import { onSchedule } from "firebase-functions/v2/scheduler";
import { onTaskDispatched } from "firebase-functions/v2/tasks";
import { REGION_IDS, regionLocation, type RegionId } from "@alpvault/contracts/regions";
import {
  GLOBAL_REGION,
  apiSecrets,
  deployTimeQuotaConfig,
  loadRuntimeConfig,
  webOrigins,
  withoutEmulatorCors,
  workerSecrets,
} from "./config";
import { createApi } from "./http/app";
import { appCheckVerifier, firebaseIdentityVerifier } from "./http/verifiers";
import { runDispatcher } from "./jobs/dispatcher";
import { backupTaskHandler } from "./backups/task";
import { gcTaskHandler } from "./backups/retention/task";
import { verifyTaskHandler } from "./backups/verify/task";
import { recoveryTaskHandler } from "./recovery/task";
import { exportTaskHandler } from "./export/task";
import { drillTaskHandler } from "./drills/task";
import { QUOTA_MODELS } from "./engine/google/costs";
import { backupRunSlots, backupRunsPerRegion } from "./engine/google/daily-budget";

setGlobalOptions({ region: GLOBAL_REGION });
withoutEmulatorCors();

/** An API built on its first request, so that configuration is read at run time, not at deploy analysis. */
function lazyApi(servingRegion: RegionId | null) {
  let app: ReturnType<typeof createApi> | undefined;
  return () => {
    if (!app) {
      const config = loadRuntimeConfig();
      app = createApi({
        servingRegion,
        corsOrigins: servingRegion ? webOrigins() : [],
        identity: firebaseIdentityVerifier(),
        appCheck: appCheckVerifier(config),
      });
    }
    return app;
  };
}

const deployQuota = deployTimeQuotaConfig();
/** Each region's backup queue: its share of the runs the project's Gmail quota holds at once. */
const BACKUP_RUNS_PER_REGION = backupRunsPerRegion(
  backupRunSlots(QUOTA_MODELS[deployQuota.model], deployQuota.projectUnitsPerMinute),
  REGION_IDS.length,
);

const globalApi = lazyApi(null);

/** The global JSON API under /v1 (the web app's Hosting site rewrites /v1/** here). */
export const api = onRequest({ invoker: "public", secrets: apiSecrets() }, (request, response) =>
  globalApi()(request, response),
);

/**
 * The options of a worker that runs one stretch of a job per delivery and re-enqueues itself until the job
 * ends (verification, recovery, export, drill): 9 minutes, retried with backoff up to an hour.
 */
function stretchWorker(region: string, memory: "512MiB" | "1GiB", maxConcurrentDispatches: number) {
  return {
    region,
    secrets: workerSecrets(),
    timeoutSeconds: 540,
    memory,
    retryConfig: { maxAttempts: 5, minBackoffSeconds: 30, maxBackoffSeconds: 3600, maxDoublings: 5 },
    rateLimits: { maxConcurrentDispatches },
  } as const;
}

/** One region's functions, all in the region's location. */
function regionalFunctions(regionId: RegionId) {
  const region = regionLocation(regionId);
  const regionalApi = lazyApi(regionId);
  return {
    /** The region's JSON API under /v1 (its Hosting site, `<region>.api.<domain>`, rewrites here). */
    api: onRequest({ region, invoker: "public", secrets: apiSecrets() }, (request, response) =>
      regionalApi()(request, response),
    ),

    /** Dispatches the region's due backups. */
    dispatchBackups: onSchedule(
      { region, schedule: "every 10 minutes", timeZone: "UTC", secrets: workerSecrets() },
      (event) => runDispatcher(regionId, event.scheduleTime),
    ),

    /** One stretch of one backup run (it re-enqueues itself until the run ends). */
    runBackup: onTaskDispatched(
      {
        region,
        secrets: workerSecrets(),
        timeoutSeconds: 540,
        memory: "1GiB",
        retryConfig: { maxAttempts: 5, minBackoffSeconds: 30, maxBackoffSeconds: 3600, maxDoublings: 5 },
        // As many runs at once as the project's Gmail quota holds at their per-user ceiling, shared
        // among the regions (one Google Cloud project serves them all).
        rateLimits: { maxConcurrentDispatches: BACKUP_RUNS_PER_REGION, maxDispatchesPerSecond: 5 },
      },
      backupTaskHandler(regionId),
    ),

    /** Retention and garbage collection of one organisation's backups (daily, from the dispatcher). */
    collectBackupGarbage: onTaskDispatched(
      {
        region,
        secrets: workerSecrets(),
        timeoutSeconds: 1800,
        memory: "1GiB",
        retryConfig: { maxAttempts: 3, minBackoffSeconds: 600 },
        rateLimits: { maxConcurrentDispatches: 4 },
      },
      gcTaskHandler(regionId),
    ),

    /**
     * One stretch of one integrity verification run of an organisation's backups (daily from the
     * dispatcher, or asked for through the API; it re-enqueues itself until the run ends).
     */
    verifyBackups: onTaskDispatched(stretchWorker(region, "1GiB", 4), verifyTaskHandler(regionId)),

    /** One stretch of one recovery (it re-enqueues itself until the recovery ends). */
    runRecovery: onTaskDispatched(stretchWorker(region, "1GiB", 10), recoveryTaskHandler(regionId)),

    /** One stretch of one export job (it re-enqueues itself until the export's file is complete). */
    runExport: onTaskDispatched(stretchWorker(region, "512MiB", 10), exportTaskHandler(regionId)),

    /** One stretch of one restore drill (it re-enqueues itself until the drill ends). */
    runDrill: onTaskDispatched(stretchWorker(region, "1GiB", 4), drillTaskHandler(regionId)),
  };
}

// One export per region of REGION_IDS (a test checks that none is missing).
export const ch = regionalFunctions("ch");
export const eu = regionalFunctions("eu");
export const us = regionalFunctions("us");
