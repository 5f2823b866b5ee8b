/** Backup runs as the API and the screens see them (docs/requirements.md#errors-and-messages failure reasons). */
import type { EtaLimit } from "./eta";
import { SERVICE_IDS, SERVICES, serviceNames, type ServiceId } from "./services";

/** docs/requirements.md#errors-and-messages: why a backup failed (one per failed run). */
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

/**
 * What each failure reason means for the admin: what happened, and what to do about it (the reason's
 * label above stays the required text; this sentence goes with it).
 */
export const BACKUP_FAILURE_ADVICE: Record<BackupFailureReason, string> = {
  "search-service-unavailable":
    "The search service could not be reached. Nothing is needed from you: the next backup tries again.",
  "google-api-error":
    "Google refused or failed the requests for this account's data. Check in the Google Admin console that the Alpvault app is still installed with all its permissions; the next backup tries again.",
  "encryption-error":
    "An item could not be encrypted, so it was not stored (nothing is ever stored unencrypted). The next backup tries again; if this stays, contact support with the details below.",
  "encryption-key-error":
    "The encryption key could not be used. On the Secrets screen, check the default key (Check key): it must exist in Cloud KMS and Alpvault must be allowed to use it.",
  "object-storage-unavailable":
    "The backup storage could not be reached. Nothing is needed from you: the next backup tries again and goes on from where this one stopped.",
  "backup-not-completed":
    "The backup could not run to its end: the account may be suspended or without a policy, Alpvault may have lost access to it, the mailbox may be beyond your seats, or backups may be stopped for an unpaid subscription. Check the resource and your subscription (Plans: seats); the next backup goes on from where this one stopped.",
  "email-unreadable":
    "Gmail would not hand out some emails. Nothing is needed from you: the next backup tries them again.",
  "storage-full":
    "Your backup storage is full, so new items were not stored. Add storage on the Plans screen, or turn on Add storage automatically.",
  "database-unresponsive":
    "Our catalogue did not answer in time. Nothing is needed from you: the next backup goes on from where this one stopped.",
  "unknown-error":
    "Something unexpected stopped the backup. The next backup tries again; if this stays, contact support with the details below.",
};

/**
 * A resource's backup in progress, as the resources list shows it (docs/requirements.md#screens-and-navigation:
 * live progress), with its totals, pace and time left (docs/backup-engine.md "Totals, rate and time left").
 */
export interface ActiveBackup {
  runId: string;
  state: "pending" | "running";
  /** Items and source bytes backed up so far by this run. */
  items: number;
  bytes: number;
  startedAt: string | null;
  /**
   * What the run expects to have backed up once the service it is on now (Gmail, then Drive) is done, as
   * Google counts it (Gmail's messages, a My Drive's bytes) or its listed changes say; never below `items`
   * and `bytes`. null: not known (yet).
   */
  totalItems: number | null;
  totalBytes: number | null;
  /** The run's measured pace on that service (null until it has run a minute). */
  itemsPerMinute: number | null;
  /** Seconds left for that service (null: not known). */
  etaSeconds: number | null;
  /** What sets the pace (null while pending). */
  limit: EtaLimit | null;
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

/** The services a resource is backed up from today (a mailbox: Gmail and its My Drive; a shared drive: Drive). */
/** The services a backup run backs up: every service of the registry. */
export const BACKED_UP_SERVICES = SERVICE_IDS;
export type BackedUpService = ServiceId;

/**
 * One service of a resource as its last backup left it: each service succeeds or fails on its own, and
 * says what it did not back up (or kept without content) and why.
 */
export interface ServiceStatus {
  /** "unavailable": the service does not exist for this user (Gmail off for a Drive-only licence). */
  state: "succeeded" | "failed" | "unavailable";
  failureReason: BackupFailureReason | null;
  /** Google's reason for a failed or unavailable service ("insufficientPermissions"…), or null. */
  detail: string | null;
  /** Items not backed up, or kept without their content, by reason ("not-exportable", Google's reasons). */
  skipped: Record<string, number>;
  /**
   * Items that backup stored and people should know about, by note ("external-owner": files owned outside
   * the organisation, shared with the user); see `serviceNoteText`.
   */
  notes: Record<string, number>;
  /** When that backup ended (ISO 8601). */
  at: string;
}

export const SERVICE_LABELS: Readonly<Record<BackedUpService, string>> = serviceNames();

/** What a skip reason means, for people (Google's reasons we know; the others are named as they are). */
const SKIP_REASON_TEXTS: Record<string, string> = {
  "not-exportable":
    "Google offers no export of these (Forms, Sites, My Maps, Jamboard): their details are kept",
  cannotDownloadFile: "Their owner does not allow them to be downloaded",
  downloadQuotaExceeded: "Google's download limit for them was reached; they are tried again next time",
  cannotDownloadAbusiveFile: "Google flagged them as abusive",
  fileNotDownloadable: "Google does not allow them to be downloaded",
  cannotExportFile: "Google could not export them",
  exportSizeLimitExceeded: "Too large for Google to export",
  insufficientFilePermissions: "The account backing up may not read them",
  "content-mismatch": "They changed while being backed up; they are tried again next time",
  "no-message-content":
    "Gmail returned them without any content (no message and no parts); they are tried again next time",
  notFound: "They vanished while being backed up",
  badRequest: "Google refused to return them",
};

export function skipReasonText(reason: string): string {
  return SKIP_REASON_TEXTS[reason] ?? `Google refused them (${reason})`;
}

/** What each note means, for people, given its count. */
const SERVICE_NOTE_TEXTS: Record<string, (count: number) => string> = {
  "external-owner": (count) => `${count} ${count === 1 ? "file" : "files"} owned outside the organisation`,
};

/** What a note of a service's last backup says (`ServiceStatus.notes`). */
export function serviceNoteText(note: string, count: number): string {
  return SERVICE_NOTE_TEXTS[note]?.(count) ?? `${count} × ${note}`;
}

/** The tooltip of a note: what it means for the user's data. */
const SERVICE_NOTE_DETAILS: Record<string, string> = {
  "external-owner":
    "Backed up from Shared with me: their owner can delete them or take them back at any time. A restore makes a copy owned by the user.",
};

export function serviceNoteDetail(note: string): string {
  return SERVICE_NOTE_DETAILS[note] ?? "";
}

/** Why a service is unavailable, for people. */
export function unavailableText(service: BackedUpService, detail: string | null): string {
  const known = detail === null ? undefined : SERVICES[service].unavailableTexts[detail];
  return known ?? `${SERVICE_LABELS[service]} is not available for this resource`;
}
