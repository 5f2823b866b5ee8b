import { z } from "zod/mini";
import {
  BACKUP_FAILURE_REASONS,
  type ActiveBackup,
  type BackupNowResponse,
  type ServiceStatus,
} from "../backups";
import { count, keysOf, nullableString } from "./common";
import { etaLimitSchema, nullableRate } from "./eta";

export const backupFailureReasonSchema = keysOf(BACKUP_FAILURE_REASONS);

export const activeBackupSchema: z.ZodMiniType<ActiveBackup> = z.object({
  runId: z.string(),
  state: z.enum(["pending", "running"]),
  items: count,
  bytes: count,
  startedAt: nullableString,
  /** Absent from older answers: not known. */
  totalItems: z._default(z.nullable(count), null),
  totalBytes: z._default(z.nullable(count), null),
  itemsPerMinute: z._default(nullableRate, null),
  etaSeconds: z._default(z.nullable(count), null),
  limit: z._default(z.nullable(etaLimitSchema), null),
});

export const backupNowResponseSchema: z.ZodMiniType<BackupNowResponse> = z.object({
  runId: z.string(),
  state: z.enum(["pending", "running"]),
  created: z.boolean(),
});

export const serviceStatusSchema: z.ZodMiniType<ServiceStatus> = z.object({
  state: z.enum(["succeeded", "failed", "unavailable"]),
  failureReason: z.nullable(backupFailureReasonSchema),
  detail: nullableString,
  skipped: z._default(z.record(z.string(), count), {}),
  /** Absent from answers about backups that took no notes. */
  notes: z._default(z.record(z.string(), count), {}),
  at: z.string(),
});
