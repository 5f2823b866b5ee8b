/**
 * The resources module's stored documents, one schema each (lib/stored.ts): `resources/{resourceId}` (a
 * mailbox or shared drive, with what backups, policies and verification record on it), `alerts/{alertId}`,
 * and the organisation's `meta/usage` and `meta/sync`.
 *
 * A resource is created by a directory sync (`repo.ts` `applySync`) with its identity and empty backup
 * fields; the backups module records its last run, sizes, item counts and services on it
 * (`backups/repo.ts` `recordRunEnd`), the policies module its policy and next backup, verification its
 * integrity. Every field but its type and name may be missing (resources written before the field existed,
 * or by the benches' set-ups) and reads as the sync would have written it. A status or a failure reason no
 * longer known reads as "active" or "unknown-error" (the totals count such a resource as active too:
 * `totals-repo.ts`).
 */
import { z } from "zod/mini";
import { SERVICE_IDS, type ServiceId } from "@alpvault/contracts/services";
import type { Alert, ResourceType } from "@alpvault/contracts/organizations";
import type { BackedUpService, BackupFailureReason, ServiceStatus } from "@alpvault/contracts/backups";
import { alertSchema } from "@alpvault/contracts/schemas/organizations";
import { backupFailureReasonSchema } from "@alpvault/contracts/schemas/backups";
import type { ResourceIntegrity } from "@alpvault/contracts/integrity";
import { resourceIntegritySchema } from "@alpvault/contracts/schemas/integrity";
import { storedKind, storedKindWithId } from "../lib/stored";

/** A resource document as stored (`resourceId`: its document id). */
export interface StoredResource {
  resourceId: string;
  type: ResourceType;
  name: string;
  /** Mailbox address; null for shared drives. */
  email: string | null;
  status: "active" | "suspended" | "deleted";
  policyId: string | null;
  policyName: string | null;
  protected: boolean;
  lastBackupAt: string | null;
  nextBackupAt: string | null;
  mailBackupBytes: number;
  driveBackupBytes: number;
  calendarBackupBytes: number;
  contactsBackupBytes: number;
  /** Current items backed up (the catalog's count at the last run's end). */
  mailItems: number;
  driveItems: number;
  calendarItems: number;
  contactsItems: number;
  /** The cursor the last run ended with: the next run starts from it. */
  backupCursor: string | null;
  /** The last ended run. */
  lastRun: { runId: string; state: string; failureReason: BackupFailureReason | null } | null;
  services: Partial<Record<BackedUpService, ServiceStatus>>;
  lastVerifiedAt: string | null;
  /** When verification first saw the resource with backups (its planner's age start). */
  verifyTrackedSince: string | null;
  integrity: ResourceIntegrity | null;
  /** When a directory sync first found it (null for resources written before syncs recorded it). */
  discoveredAt: string | null;
}

const text = z._default(z.nullable(z.string()), null);
const figure = z._default(z.number(), 0);
const failureReason = z.nullable(z.catch(backupFailureReasonSchema, "unknown-error"));
const counts = z._default(z.record(z.string(), z.number()), {});

/** A service's status after the last run that reached it (`at`: null when that run had no end time). */
const serviceStatusSchema: z.ZodMiniType<ServiceStatus> = z.object({
  state: z.enum(["succeeded", "failed", "unavailable"]),
  failureReason: z._default(failureReason, null),
  detail: text,
  skipped: counts,
  notes: counts,
  at: z.pipe(
    text,
    z.transform((at) => at ?? ""),
  ),
});

const resourceSchema: z.ZodMiniType<StoredResource> = z.object({
  resourceId: z.string(),
  type: z.enum(["email", "shared_drive"]),
  name: z.string(),
  email: text,
  status: z._default(z.catch(z.enum(["active", "suspended", "deleted"]), "active"), "active"),
  policyId: text,
  policyName: text,
  protected: z._default(z.boolean(), false),
  lastBackupAt: text,
  nextBackupAt: text,
  mailBackupBytes: figure,
  driveBackupBytes: figure,
  calendarBackupBytes: figure,
  contactsBackupBytes: figure,
  mailItems: figure,
  driveItems: figure,
  calendarItems: figure,
  contactsItems: figure,
  backupCursor: text,
  lastRun: z._default(
    z.nullable(
      z.object({ runId: z.string(), state: z.string(), failureReason: z._default(failureReason, null) }),
    ),
    null,
  ),
  services: z._default(z.partialRecord(z.enum(SERVICE_IDS), serviceStatusSchema), {}),
  lastVerifiedAt: text,
  verifyTrackedSince: text,
  integrity: z._default(z.nullable(resourceIntegritySchema), null),
  discoveredAt: text,
});

/** `resources/{resourceId}`. */
export const RESOURCE = storedKindWithId("resource", "resourceId", resourceSchema);

/** `alerts/{alertId}`: the answer's alert, as `addAlert` writes it. */
export const ALERT = storedKindWithId<Alert>("alert", "alertId", alertSchema);

/** The organisation's item totals (`backups/repo.ts` `recordRunEnd`); `lastCycleBytes` is not recorded yet. */
export interface StoredUsage {
  emails: number;
  files: number;
  lastCycleBytes: number;
}

/** `meta/usage`. */
export const USAGE = storedKind<StoredUsage>(
  "usage totals",
  z.object({ emails: figure, files: figure, lastCycleBytes: figure }),
);

/** `meta/sync`: when the directory was last synced. */
export const SYNC = storedKind<{ lastSyncAt: string }>(
  "directory sync state",
  z.object({ lastSyncAt: z.string() }),
);

/**
 * The resource document's field of each service's current item count (its backup size is in the answer's
 * field of `SERVICE_BACKUP_BYTES_FIELDS`).
 */
export const SERVICE_ITEMS_FIELDS = {
  gmail: "mailItems",
  drive: "driveItems",
  calendar: "calendarItems",
  contacts: "contactsItems",
} as const satisfies Record<ServiceId, keyof StoredResource>;
