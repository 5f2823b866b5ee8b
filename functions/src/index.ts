/** Cloud Functions triggers. Only exports live here; the work is in the domain folders. */
import { setGlobalOptions } from "firebase-functions/v2";
import { onRequest } from "firebase-functions/v2/https";
import { onSchedule } from "firebase-functions/v2/scheduler";
import { onTaskDispatched } from "firebase-functions/v2/tasks";
import { GLOBAL_REGION, apiSecrets, loadRuntimeConfig, workerSecrets } from "./config";
import { createApi } from "./http/app";
import { appCheckVerifier, firebaseIdentityVerifier } from "./http/verifiers";
import { runDispatcher } from "./backup/dispatcher";
import { backupTaskHandler } from "./backup/task";
import { gcTaskHandler } from "./backup/retention/task";
import { recoveryTaskHandler } from "./recovery/task";

setGlobalOptions({ region: GLOBAL_REGION });

let apiApp: ReturnType<typeof createApi> | undefined;

/** Built on first request, so that configuration is read at run time, not at deploy-time analysis. */
function apiHandler(): ReturnType<typeof createApi> {
  if (!apiApp) {
    const config = loadRuntimeConfig();
    apiApp = createApi({ identity: firebaseIdentityVerifier(), appCheck: appCheckVerifier(config) });
  }
  return apiApp;
}

/** The JSON API under /v1 (Hosting rewrites /v1/** here). */
export const api = onRequest({ invoker: "public", secrets: apiSecrets() }, (request, response) =>
  apiHandler()(request, response),
);

/** Dispatches due backups. */
export const dispatchBackups = onSchedule({ schedule: "every 10 minutes", timeZone: "UTC" }, (event) =>
  runDispatcher(event.scheduleTime),
);

/** One stretch of one backup run (it re-enqueues itself until the run ends). */
export const runBackup = onTaskDispatched(
  {
    secrets: workerSecrets(),
    timeoutSeconds: 540,
    memory: "1GiB",
    retryConfig: { maxAttempts: 5, minBackoffSeconds: 30, maxBackoffSeconds: 3600, maxDoublings: 5 },
    rateLimits: { maxConcurrentDispatches: 20, maxDispatchesPerSecond: 5 },
  },
  backupTaskHandler,
);

/** Retention and garbage collection of one organisation's backups (daily, from the dispatcher). */
export const collectBackupGarbage = onTaskDispatched(
  {
    secrets: workerSecrets(),
    timeoutSeconds: 1800,
    memory: "1GiB",
    retryConfig: { maxAttempts: 3, minBackoffSeconds: 600 },
    rateLimits: { maxConcurrentDispatches: 4 },
  },
  gcTaskHandler,
);

/** One stretch of one recovery (it re-enqueues itself until the recovery ends). */
export const runRecovery = onTaskDispatched(
  {
    secrets: workerSecrets(),
    timeoutSeconds: 540,
    memory: "1GiB",
    retryConfig: { maxAttempts: 5, minBackoffSeconds: 30, maxBackoffSeconds: 3600, maxDoublings: 5 },
    rateLimits: { maxConcurrentDispatches: 10 },
  },
  recoveryTaskHandler,
);
