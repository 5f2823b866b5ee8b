import { z } from "zod/mini";
import type {
  DailyVerification,
  DamagedItem,
  IntegrityReport,
  ResourceIntegrity,
  ResourceIntegrityView,
  VerifyRun,
} from "../integrity";
import { count, nullableString } from "./common";

export const damagedItemSchema: z.ZodMiniType<DamagedItem> = z.object({
  itemKey: z.string(),
  kind: z.enum(["gmail-message", "drive-file"]),
  name: z.string(),
  refetch: z.enum(["pending", "refetched", "gone"]),
});

export const resourceIntegritySchema: z.ZodMiniType<ResourceIntegrity> = z.object({
  state: z.enum(["ok", "damaged"]),
  checkedItems: count,
  damagedItems: count,
  verifiedAt: z.string(),
  damaged: z.array(damagedItemSchema),
});

export const verifyRunSchema: z.ZodMiniType<VerifyRun> = z.object({
  runId: z.string(),
  trigger: z.enum(["schedule", "manual"]),
  state: z.enum(["pending", "running", "succeeded", "failed"]),
  requestedAt: z.string(),
  startedAt: nullableString,
  finishedAt: nullableString,
  resourceIds: z.array(z.string()),
  progress: z.object({
    resourcesDone: count,
    checkedItems: count,
    damagedItems: count,
    objectsRead: count,
    bytesRead: count,
  }),
  failureReason: nullableString,
});

const resourceIntegrityViewSchema: z.ZodMiniType<ResourceIntegrityView> = z.object({
  resourceId: z.string(),
  name: z.string(),
  email: nullableString,
  lastVerifiedAt: nullableString,
  integrity: z.nullable(resourceIntegritySchema),
});

const dailyVerificationSchema: z.ZodMiniType<DailyVerification> = z.object({
  nextAt: z.string(),
  lastAt: nullableString,
});

export const integrityReportSchema: z.ZodMiniType<IntegrityReport> = z.object({
  resources: z.array(resourceIntegrityViewSchema),
  runs: z.array(verifyRunSchema),
  dailyVerification: dailyVerificationSchema,
});
