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
import { regionLocation, type RegionId } from "@alpvault/contracts/regions";
import { GLOBAL_REGION, apiSecrets, withoutEmulatorCors, workerSecrets } from "./config";
import type { Express } from "express";
import { productApi } from "./api";
import { runDispatcher } from "./jobs/dispatcher";
import type { QueueName } from "./lib/task-queue";
import { TASK_QUEUES } from "./task-queues";

setGlobalOptions({ region: GLOBAL_REGION });
withoutEmulatorCors();

/** An API built on its first request, so that configuration is read at run time, not at deploy analysis. */
function lazyApi(servingRegion: RegionId | null) {
  let app: Express | undefined;
  return () => {
    app ??= productApi(servingRegion);
    return app;
  };
}

const globalApi = lazyApi(null);

/** The global JSON API under /v1 (the web app's Hosting site rewrites /v1/** here). */
export const api = onRequest({ invoker: "public", secrets: apiSecrets() }, (request, response) =>
  globalApi()(request, response),
);

/** One task-queue function of the region per queue of TASK_QUEUES, in the region's location. */
function regionalTaskQueue(regionId: RegionId, queue: QueueName) {
  const { handler, options } = TASK_QUEUES[queue];
  return onTaskDispatched(options(regionLocation(regionId)), handler(regionId));
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

    // The region's task queues (task-queues.ts says what each does).
    runBackup: regionalTaskQueue(regionId, "runBackup"),
    collectBackupGarbage: regionalTaskQueue(regionId, "collectBackupGarbage"),
    verifyBackups: regionalTaskQueue(regionId, "verifyBackups"),
    runRecovery: regionalTaskQueue(regionId, "runRecovery"),
    runExport: regionalTaskQueue(regionId, "runExport"),
    runDrill: regionalTaskQueue(regionId, "runDrill"),
  };
}

// One export per region of REGION_IDS (a test checks that none is missing).
export const ch = regionalFunctions("ch");
export const eu = regionalFunctions("eu");
export const us = regionalFunctions("us");
