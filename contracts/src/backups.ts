/** Backup runs as the API and the screens see them (spec §8 failure reasons). */

/** Spec §8: why a backup failed (one per failed run). */
export const BACKUP_FAILURE_REASONS = {
  "search-service-unavailable": "Search service unavailable",
  "google-api-error": "Google API error",
  "encryption-error": "Encryption error",
  "encryption-key-error": "Encryption key error",
  "object-storage-unavailable": "Object storage unavailable",
  "backup-not-completed": "Backup not completed",
  "email-unreadable": "Email couldn't be read",
  "storage-full": "Storage full",
  "database-unresponsive": "SQL database unresponsive",
  "unknown-error": "Unknown error",
} as const;

export type BackupFailureReason = keyof typeof BACKUP_FAILURE_REASONS;

/** A resource's backup in progress, as the resources list shows it (spec §2: live progress). */
export interface ActiveBackup {
  runId: string;
  state: "pending" | "running";
  /** Items and source bytes backed up so far by this run. */
  items: number;
  bytes: number;
  startedAt: string | null;
}

/** POST /v1/organizations/{id}/resources/{resourceId}/backups ("Backup now"): 202. */
export interface BackupNowResponse {
  runId: string;
  state: "pending" | "running";
  /** False when the resource already had a backup pending or running (that one is returned). */
  created: boolean;
}

export const BACKUP_MESSAGES = {
  started: "Backup started",
  alreadyRunning: "A backup of this resource is already in progress.",
  resourceNotFound: "Resource not found",
  noPolicy: "Assign a backup policy to this resource before backing it up.",
  unavailable: "This resource can no longer be backed up: it is suspended or deleted in Google Workspace.",
  backupsStopped:
    "Backups are stopped because the subscription is unpaid. Update your payment to resume them.",
} as const;
