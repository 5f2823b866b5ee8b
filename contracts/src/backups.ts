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
