/**
 * Audit logs (docs/requirements.md#data-the-console-shows entry, #validation date validation, #constants-and-limits operations): append-only, one entry per operation,
 * written in the same transaction as the change it records.
 */

/**
 * Every audited operation (docs/requirements.md#constants-and-limits, plus the key and storage-setting changes and the restore drills a serious
 * product records).
 */
export const AUDIT_OPERATIONS = {
  "user.logged-in": "User logged in",
  "access.refused": "Access refused",
  "backup-item.searched": "Backup item searched",
  "backup.started": "Backup started",
  "backup.finished": "Backup finished",
  "backup.failed": "Backup failed",
  "integrity.damaged": "Backup integrity damaged",
  "recovery.started": "Recovery started",
  "recovery.finished": "Recovery finished",
  "recovery.failed": "Recovery failed",
  "export.started": "Export started",
  "export.finished": "Export finished",
  "export.failed": "Export failed",
  "export.downloaded": "Export downloaded",
  "resources.added": "Resources added",
  "resources.removed": "Resources removed",
  "resources.policy-updated": "Resources policy updated",
  "encryption-key.added": "Encryption key added",
  "encryption-key.updated": "Encryption key updated",
  "encryption-key.default-updated": "Encryption key default updated",
  "encryption-key.checked": "Encryption key checked",
  "encryption-key.deleted": "Encryption key deleted",
  "policy.created": "Policy created",
  "policy.updated": "Policy updated",
  "policy.deleted": "Policy deleted",
  "pricing-tier.updated": "Pricing tier updated",
  "licenses.updated": "Licenses updated",
  "storage-packs.updated": "Storage packs updated",
  "storage-settings.updated": "Storage settings updated",
  "seat-settings.updated": "Seat settings updated",
  "seats.exceeded": "Seats exceeded",
  "seats.added": "Seats added",
  "storage-packs.added": "Storage packs added",
  "graceful-period.started": "Graceful period started",
  "graceful-period.reset": "Graceful period reset",
  "backups.stopped": "Backups stopped",
  "drill-settings.updated": "Restore drill settings updated",
  "drill.started": "Restore drill started",
  "drill.finished": "Restore drill finished",
  "drill.failed": "Restore drill failed",
} as const;

export type AuditOperation = keyof typeof AUDIT_OPERATIONS;

export function isAuditOperation(value: unknown): value is AuditOperation {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(AUDIT_OPERATIONS, value);
}

/** docs/requirements.md#data-the-console-shows audit log entry. */
export interface AuditEntry {
  entryId: string;
  /** ISO date-time of the operation. */
  date: string;
  /** Who did it: the admin's email, or "Alpvault" for the service's own scheduled work. */
  actor: string;
  operation: AuditOperation;
  /** What it was done to (a policy name, a resource, a key description, a plan...). */
  object: string;
  /** Why it failed; null when it succeeded. */
  failureReason: string | null;
}

/** GET /v1/organizations/{id}/audit-logs?start=YYYY-MM-DD&end=YYYY-MM-DD&page=N&pageSize=N (page from 1). */
export interface AuditPage {
  entries: AuditEntry[];
  page: number;
  pageSize: number;
  totalEntries: number;
  /** "Page X of Y": at least 1, also when there are no entries. */
  totalPages: number;
}

/** The actor of the service's own work (scheduled syncs, backups). */
export const SYSTEM_ACTOR = "Alpvault";

/** docs/requirements.md#validation audit-log date rules; the API answers the same texts as the browser shows. */
export const AUDIT_MESSAGES = {
  startRequired: "Start Date is required",
  startBeforeEnd: "Start Date must be before End Date",
  endRequired: "End Date is required",
  endAfterStart: "End Date must be after Start Date",
  invalidDate: "Invalid date format",
  invalidPage: "Page must be a whole number from 1",
} as const;

export const AUDIT_PAGE_SIZE = 20;
export const AUDIT_MAX_PAGE_SIZE = 100;

/**
 * Validates an audit date range given as YYYY-MM-DD strings (docs/requirements.md#validation): both required, start before end.
 * Returns the first failing rule's text per field, or no keys when the range is valid. A range of one day
 * (start equal to end) is valid: it means that whole day.
 */
export function validateAuditRange(
  start: string | null | undefined,
  end: string | null | undefined,
): {
  start?: string;
  end?: string;
} {
  const errors: { start?: string; end?: string } = {};
  const day = /^\d{4}-\d{2}-\d{2}$/;
  const valid = (value: string) => day.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
  if (!start) errors.start = AUDIT_MESSAGES.startRequired;
  else if (!valid(start)) errors.start = AUDIT_MESSAGES.invalidDate;
  if (!end) errors.end = AUDIT_MESSAGES.endRequired;
  else if (!valid(end)) errors.end = AUDIT_MESSAGES.invalidDate;
  if (!errors.start && !errors.end && start && end && start > end) {
    errors.start = AUDIT_MESSAGES.startBeforeEnd;
    errors.end = AUDIT_MESSAGES.endAfterStart;
  }
  return errors;
}

/** Why the chain check stopped at an entry (GET …/audit-logs/verify). */
export type AuditChainBreakReason =
  /** The entry's fields no longer give the hash it was sealed with. */
  | "content-changed"
  /** The entry does not follow the one before it (its previous hash, seal or place in the chain is wrong). */
  | "link-broken"
  /** Sealed entries are missing: the chain skips one or more sequence numbers. */
  | "entry-missing"
  /** The entry was never sealed into the chain (and is not a moment-old entry about to be). */
  | "not-sealed";

/** The first place where the chain does not hold. */
export interface AuditChainBreak {
  reason: AuditChainBreakReason;
  /** What is wrong, in words (no entry content). */
  message: string;
  /**
   * The entry at which the check failed: the changed, misplaced or unsealed entry, or for missing entries
   * the first entry after the gap. Null when no entry follows the missing ones.
   */
  entryId: string | null;
  /** The sequence number where the chain breaks: the entry's own, or the first missing one. */
  seq: number | null;
  /** The entry's date and operation as stored (null when there is no entry or they are not valid). */
  date: string | null;
  operation: AuditOperation | null;
}

/**
 * GET /v1/organizations/{id}/audit-logs/verify: whether the log's hash chain is intact. `entries` counts the
 * sealed entries checked and found sound (all of them when intact, those before the break otherwise).
 */
export interface AuditChainVerification {
  intact: boolean;
  entries: number;
  /** The chain's last sealed entry as the check found it; null for a log with no sealed entry. */
  head: { seq: number; hash: string } | null;
  verifiedAt: string;
  firstBroken: AuditChainBreak | null;
}
