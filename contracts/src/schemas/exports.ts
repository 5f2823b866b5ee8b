import { z } from "zod/mini";
import type { ExportDownload, ExportJob, ExportList, ExportProblem, ExportProgress } from "../exports";
import { count, nullableString } from "./common";
import { etaLimitSchema, nullableRate } from "./eta";

export const exportProblemSchema: z.ZodMiniType<ExportProblem> = z.object({
  itemKey: z.string(),
  name: z.string(),
  reason: z.string(),
});

export const exportProgressSchema: z.ZodMiniType<ExportProgress> = z.object({
  total: count,
  exported: count,
  failed: count,
  bytes: count,
  /** Absent from older answers: not counted. */
  totalBytes: z._default(count, 0),
  itemsPerMinute: z._default(nullableRate, null),
  etaSeconds: z._default(z.nullable(count), null),
  limit: z._default(z.nullable(etaLimitSchema), null),
});

export const exportJobSchema: z.ZodMiniType<ExportJob> = z.object({
  exportId: z.string(),
  state: z.enum(["pending", "running", "succeeded", "failed", "expired"]),
  service: z.enum(["gmail", "drive"]),
  format: z.enum(["mbox", "eml", "zip"]),
  resourceId: z.string(),
  resourceName: z.string(),
  fileName: z.string(),
  asOf: nullableString,
  requestedAt: z.string(),
  requestedBy: z.string(),
  finishedAt: nullableString,
  expiresAt: nullableString,
  progress: exportProgressSchema,
  failureReason: nullableString,
  problems: z.array(exportProblemSchema),
  downloads: count,
  lastDownloadedAt: nullableString,
});

export const exportListSchema: z.ZodMiniType<ExportList> = z.object({ exports: z.array(exportJobSchema) });

export const exportDownloadSchema: z.ZodMiniType<ExportDownload> = z.object({
  url: z.string(),
  expiresAt: z.string(),
});
