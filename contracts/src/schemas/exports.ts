import { z } from "zod/mini";
import {
  EXPORT_FORMAT_NAMES,
  EXPORT_SERVICES,
  type ExportDownload,
  type ExportFormat,
  type ExportJob,
  type ExportList,
  type ExportProblem,
  type ExportProgress,
  type ExportService,
} from "../exports";
import { count, nullableString } from "./common";
import { workPaceFields } from "./eta";

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
  ...workPaceFields,
});

export const exportJobSchema: z.ZodMiniType<ExportJob> = z.object({
  exportId: z.string(),
  state: z.enum(["pending", "running", "succeeded", "failed", "expired"]),
  service: z.enum(EXPORT_SERVICES as [ExportService, ...ExportService[]]),
  format: z.enum(EXPORT_FORMAT_NAMES as [ExportFormat, ...ExportFormat[]]),
  resourceId: z.string(),
  resourceName: z.string(),
  fileName: z.string(),
  asOf: nullableString,
  within: nullableString,
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
