import { z } from "zod/mini";
import {
  DRILL_SCHEDULES,
  type DrillCounts,
  type DrillItem,
  type DrillRun,
  type DrillRunDetail,
  type DrillRunsPage,
  type DrillSettings,
} from "../drills";
import { count, nullableString } from "./common";

export const drillSettingsSchema: z.ZodMiniType<DrillSettings> = z.object({
  enabled: z.boolean(),
  sandboxResourceId: nullableString,
  sandboxEmail: nullableString,
  sampleSize: z.number(),
  schedule: z.enum(DRILL_SCHEDULES),
  nextDrillAt: nullableString,
  updatedAt: nullableString,
  updatedBy: nullableString,
});

const drillCounts = {
  sample: count,
  matched: count,
  mismatched: count,
  failed: count,
  skipped: count,
};

export const drillCountsSchema: z.ZodMiniType<DrillCounts> = z.object(drillCounts);

export const drillItemSchema: z.ZodMiniType<DrillItem> = z.object({
  itemKey: z.string(),
  resourceId: z.string(),
  resourceName: z.string(),
  service: z.enum(["gmail", "drive"]),
  name: z.string(),
  outcome: z.nullable(z.enum(["matched", "mismatched", "failed", "skipped"])),
  reason: nullableString,
});

const drillRunFields = {
  drillRunId: z.string(),
  state: z.enum(["pending", "running", "passed", "failed"]),
  /** Anything but a scheduled drill was started by hand. */
  trigger: z.catch(z.enum(["manual", "schedule"]), "manual"),
  requestedBy: z.string(),
  requestedAt: z.string(),
  startedAt: nullableString,
  finishedAt: nullableString,
  durationMs: z.nullable(count),
  sandboxResourceId: z.string(),
  sandboxEmail: z.string(),
  sampleSize: count,
  counts: drillCountsSchema,
  resources: z.array(z.object({ ...drillCounts, resourceId: z.string(), name: z.string() })),
  problems: z.array(drillItemSchema),
  failureReason: nullableString,
};

export const drillRunSchema: z.ZodMiniType<DrillRun> = z.object(drillRunFields);

/** A run with every drawn item (GET …/drills/runs/{drillRunId}). */
export const drillRunDetailSchema: z.ZodMiniType<DrillRunDetail> = z.object({
  ...drillRunFields,
  items: z.array(drillItemSchema),
});

export const drillRunsPageSchema: z.ZodMiniType<DrillRunsPage> = z.object({
  runs: z.array(drillRunSchema),
  page: count,
  pageSize: count,
  total: count,
});
