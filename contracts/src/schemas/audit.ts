import { z } from "zod";
import {
  AUDIT_OPERATIONS,
  type AuditChainBreak,
  type AuditChainVerification,
  type AuditEntry,
  type AuditPage,
} from "../audit";
import { count, keysOf, nullableString } from "./common";

export const auditOperationSchema = keysOf(AUDIT_OPERATIONS);

export const auditEntrySchema: z.ZodType<AuditEntry> = z.object({
  entryId: z.string(),
  date: z.string(),
  actor: z.string(),
  operation: auditOperationSchema,
  object: z.string(),
  failureReason: nullableString,
});

export const auditPageSchema: z.ZodType<AuditPage> = z.object({
  entries: z.array(auditEntrySchema),
  page: z.number(),
  pageSize: z.number(),
  totalEntries: z.number(),
  totalPages: z.number(),
});

export const auditChainBreakSchema: z.ZodType<AuditChainBreak> = z.object({
  reason: z.enum(["content-changed", "link-broken", "entry-missing", "not-sealed"]),
  message: z.string(),
  entryId: nullableString,
  seq: count.nullable(),
  date: nullableString,
  operation: auditOperationSchema.nullable(),
});

export const auditChainVerificationSchema: z.ZodType<AuditChainVerification> = z.object({
  intact: z.boolean(),
  entries: count,
  head: z.object({ seq: count, hash: z.string() }).nullable(),
  verifiedAt: z.string(),
  firstBroken: auditChainBreakSchema.nullable(),
});
