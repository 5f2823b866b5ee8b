import { z } from "zod";
import {
  BACKUP_FAILURE_REASONS,
  type ActiveBackup,
  type BackupNowResponse,
  type ServiceStatus,
} from "../backups";
import { count, keysOf, nullableString } from "./common";

export const backupFailureReasonSchema = keysOf(BACKUP_FAILURE_REASONS);

export const activeBackupSchema: z.ZodType<ActiveBackup> = z.object({
  runId: z.string(),
  state: z.enum(["pending", "running"]),
  items: count,
  bytes: count,
  startedAt: nullableString,
});

export const backupNowResponseSchema: z.ZodType<BackupNowResponse> = z.object({
  runId: z.string(),
  state: z.enum(["pending", "running"]),
  created: z.boolean(),
});

export const serviceStatusSchema: z.ZodType<ServiceStatus> = z.object({
  state: z.enum(["succeeded", "failed", "unavailable"]),
  failureReason: backupFailureReasonSchema.nullable(),
  detail: nullableString,
  skipped: z.record(z.string(), count).default({}),
  /** Absent from answers about backups that took no notes. */
  notes: z.record(z.string(), count).default({}),
  at: z.string(),
});
