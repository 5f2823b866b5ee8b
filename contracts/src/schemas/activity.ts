import { z } from "zod/mini";
import type {
  ActivityResponse,
  BackupRunSummary,
  BackupRunsPage,
  DailyActivity,
  RunItemProblem,
  RunServiceSummary,
} from "../activity";
import { BACKED_UP_SERVICES } from "../backups";
import { backupFailureReasonSchema } from "./backups";
import { count, nullableString } from "./common";

const runServiceSummarySchema: z.ZodMiniType<RunServiceSummary> = z.object({
  state: z.enum(["succeeded", "failed", "unavailable", "running"]),
  failureReason: z.nullable(backupFailureReasonSchema),
  detail: nullableString,
  skipped: z.record(z.string(), count),
});

const runItemProblemSchema: z.ZodMiniType<RunItemProblem> = z.object({
  itemKey: z.string(),
  service: z.nullable(z.enum(BACKED_UP_SERVICES)),
  reason: z.string(),
});

export const backupRunSummarySchema: z.ZodMiniType<BackupRunSummary> = z.object({
  runId: z.string(),
  trigger: z.nullable(z.enum(["schedule", "backup-now", "policy-assigned"])),
  outcome: z.enum(["ok", "partial", "failed", "running"]),
  requestedAt: nullableString,
  startedAt: nullableString,
  finishedAt: nullableString,
  items: count,
  bytes: count,
  storedBytes: count,
  failureReason: z.nullable(backupFailureReasonSchema),
  services: z.object({
    gmail: z.optional(runServiceSummarySchema),
    drive: z.optional(runServiceSummarySchema),
  }),
  skippedItems: count,
  problems: z.array(runItemProblemSchema),
});

export const backupRunsPageSchema: z.ZodMiniType<BackupRunsPage> = z.object({
  runs: z.array(backupRunSummarySchema),
  nextPageToken: nullableString,
});

const dailyActivitySchema: z.ZodMiniType<DailyActivity> = z.object({
  date: z.string(),
  runs: z.object({ ok: count, partial: count, failed: count }),
  items: count,
  bytes: count,
  storage: z.nullable(z.object({ gmail: count, drive: count, calendar: count, contacts: count })),
});

export const activityResponseSchema: z.ZodMiniType<ActivityResponse> = z.object({
  days: z.array(dailyActivitySchema),
});
