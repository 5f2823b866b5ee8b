/**
 * Every log line the functions write, as named events. Never pass tokens, keys, headers, query strings or
 * customer content (mail, file names, search terms) to these.
 */
import { logger } from "firebase-functions";

/** What a log line says of an error: its name and message, never its cause's data. */
function errorFields(error: unknown): { errorName: string; errorMessage: string | undefined } {
  return {
    errorName: error instanceof Error ? error.name : typeof error,
    errorMessage: error instanceof Error ? error.message : undefined,
  };
}

export function requestCompleted(entry: {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  uid: string | undefined;
}): void {
  logger.info("request completed", entry);
}

export function requestRejected(entry: { route: string; status: number; reason: string }): void {
  logger.warn("request rejected", entry);
}

export function unexpectedError(entry: { route: string; error: unknown }): void {
  const error = entry.error;
  logger.error("unexpected error", {
    route: entry.route,
    ...errorFields(error),
    errorStack: error instanceof Error ? error.stack : undefined,
  });
}

/** A refused sign-in could not be written to the organisation's audit log (the refusal itself stood). */
export function refusalNotRecorded(entry: { route: string; error: unknown }): void {
  const error = entry.error;
  logger.error("refused access not recorded", {
    route: entry.route,
    ...errorFields(error),
  });
}

/** Audit entries were written but not sealed into the chain yet (the next append or check seals them). */
export function auditSealFailed(entry: { organizationId: string; error: unknown }): void {
  logger.warn("audit seal failed", {
    organizationId: entry.organizationId,
    ...errorFields(entry.error),
  });
}

export function configurationRefused(reason: string): void {
  logger.error("configuration refused", { reason });
}

export function dispatcherRan(entry: {
  regionId: string;
  scheduledTime: string;
  runs: number;
  resynced: number;
  resyncFailed: number;
  backupsScheduled: number;
  backupsRedispatched: number;
  drillsStarted: number;
  verificationsScheduled: number;
  chargesSent: number;
}): void {
  logger.info("dispatcher ran", entry);
}

export function taskReceived(entry: { queue: string; taskId: string | undefined; retryCount: number }): void {
  logger.info("task received", entry);
}

export function taskDropped(entry: { queue: string; taskId: string | undefined; reason: string }): void {
  logger.warn("task dropped", entry);
}

export function resourceSyncFailed(entry: { organizationId: string; error: unknown }): void {
  const error = entry.error;
  logger.warn("resource sync failed", {
    organizationId: entry.organizationId,
    ...errorFields(error),
  });
}

export function backupsStoppedAfterGracefulPeriod(entry: { organizations: number }): void {
  logger.info("backups stopped after graceful period", entry);
}

export function gracefulStopFailed(entry: { organizationId: string; error: unknown }): void {
  const error = entry.error;
  logger.warn("graceful period stop failed", {
    organizationId: entry.organizationId,
    ...errorFields(error),
  });
}

/** A backup delivery ended (ids and counts only: no customer content). */
export function backupTaskEnded(entry: {
  organizationId: string;
  runId: string;
  outcome: string;
  items?: number;
  unitsUsed?: number;
}): void {
  logger.info("backup task ended", entry);
}

/**
 * A backup delivery waits for the project's daily Google budget to allow it a share, or (`googleDailyLimit`)
 * for the quota day to turn after Google answered that an API's daily limit is reached.
 */
export function backupPacedByDailyBudget(entry: {
  organizationId: string;
  runId: string;
  resumesAt: string;
  googleDailyLimit?: string;
}): void {
  logger.info("backup paced by the daily Google budget", entry);
}

export function dailyBudgetNotRecorded(entry: { organizationId: string; error: unknown }): void {
  logger.warn("daily Google budget not recorded", {
    organizationId: entry.organizationId,
    errorName: entry.error instanceof Error ? entry.error.name : typeof entry.error,
  });
}

export function backupDispatchFailed(entry: { organizationId: string; error: unknown }): void {
  const error = entry.error;
  logger.warn("backup dispatch failed", {
    organizationId: entry.organizationId,
    errorName: error instanceof Error ? error.name : typeof error,
  });
}

/** Sending an organisation's charges failed before the provider was asked (its database did not answer). */
export function chargesFailed(entry: { organizationId: string; error: unknown }): void {
  const error = entry.error;
  logger.warn("charges failed", {
    organizationId: entry.organizationId,
    errorName: error instanceof Error ? error.name : typeof error,
  });
}

/** The payment provider refused a charge or did not answer; it stays pending for the next dispatcher run. */
export function chargeRefused(entry: { organizationId: string; pending: number }): void {
  logger.warn("charge refused by the payment provider", entry);
}

/** A garbage collection ended (counts only). */
export function gcEnded(entry: {
  organizationId: string;
  outcome: string;
  why?: string;
  versionsPruned: number;
  itemsRemoved: number;
  liveChunks: number;
  chunksDeleted: number;
  manifestsDeleted: number;
}): void {
  logger.info("backup garbage collection ended", entry);
}

/** A verification task delivery ended (ids and counts only: no item names, no object names). */
export function verifyTaskEnded(entry: {
  organizationId: string;
  runId: string;
  outcome: string;
  resourcesDone: number;
  checkedItems: number;
  damagedItems: number;
  objectsRead: number;
  bytesRead: number;
}): void {
  logger.info("backup verification task ended", entry);
}

/** A verification run failed (its error's name only). */
export function verifyFailed(entry: { organizationId: string; runId: string; error: unknown }): void {
  logger.warn("backup verification failed", {
    organizationId: entry.organizationId,
    runId: entry.runId,
    errorName: entry.error instanceof Error ? entry.error.name : typeof entry.error,
  });
}

/** A recovery ended (ids and counts only). */
export function recoveryEnded(entry: {
  organizationId: string;
  recoveryId: string;
  state: string;
  total: number;
  restored: number;
  skipped: number;
  failed: number;
}): void {
  logger.info("recovery ended", entry);
}

export function recoveryFailed(entry: { organizationId: string; recoveryId: string; error: unknown }): void {
  const error = entry.error;
  logger.warn("recovery failed", {
    organizationId: entry.organizationId,
    recoveryId: entry.recoveryId,
    errorName: error instanceof Error ? error.name : typeof error,
  });
}

/** An export left an item out: its stored objects are damaged or missing (ids only, never content). */
export function exportItemUnreadable(entry: { organizationId: string; itemKey: string }): void {
  logger.error("export left out an item whose backup is damaged", entry);
}

/** An export job ended (ids and counts only). */
export function exportEnded(entry: {
  organizationId: string;
  exportId: string;
  state: "succeeded" | "failed";
  total: number;
  exported: number;
  failed: number;
  bytes: number;
}): void {
  logger.info("export ended", entry);
}

/** An export found its upload session ahead of its checkpoint (a crash between the two) and starts anew. */
export function exportRestarted(entry: { organizationId: string; exportId: string }): void {
  logger.warn("export restarted its file", entry);
}

/** A delivery of an export job failed; the task is retried. */
export function exportFailed(entry: { organizationId: string; exportId: string; error: unknown }): void {
  logger.warn("export delivery failed", {
    organizationId: entry.organizationId,
    exportId: entry.exportId,
    ...errorFields(entry.error),
  });
}

/** Expired exports were deleted (counts only). */
export function exportsExpired(entry: { organizationId: string; deleted: number }): void {
  logger.info("expired exports deleted", entry);
}

/** A scheduled drill's task could not be enqueued (the run stays pending; the dispatcher tries again). */
export function drillDispatchFailed(entry: { organizationId: string; error: unknown }): void {
  logger.warn("drill dispatch failed", { organizationId: entry.organizationId, ...errorFields(entry.error) });
}

export function drillEnded(entry: {
  organizationId: string;
  drillRunId: string;
  state: string;
  sample: number;
  matched: number;
  mismatched: number;
  failed: number;
  skipped: number;
}): void {
  logger.info("drill ended", entry);
}

export function drillFailed(entry: { organizationId: string; drillRunId: string; error: unknown }): void {
  logger.warn("drill failed", {
    organizationId: entry.organizationId,
    drillRunId: entry.drillRunId,
    errorName: entry.error instanceof Error ? entry.error.name : typeof entry.error,
  });
}

/** What the drill restored could not all be removed from the sandbox (ids only). */
export function drillCleanupFailed(entry: {
  organizationId: string;
  drillRunId: string;
  error: unknown;
}): void {
  logger.warn("drill cleanup failed", {
    organizationId: entry.organizationId,
    drillRunId: entry.drillRunId,
    errorName: entry.error instanceof Error ? entry.error.name : typeof entry.error,
  });
}

/**
 * A stored document did not decode with its kind's schema (lib/stored.ts): its kind, its path (ids only),
 * the fields that did not (names only, never values) and what the reader did: `failed` (the read threw
 * `StoredDocumentError`; an API request answers 500) or `skipped` (a list went on without it).
 */
export function storedDocumentUnreadable(entry: {
  kind: string;
  path: string;
  fields: string[];
  handling: "failed" | "skipped";
}): void {
  logger.error("stored document unreadable", entry);
}
