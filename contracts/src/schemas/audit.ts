import { z } from "zod/mini";
import {
  AUDIT_OPERATIONS,
  type AuditChainBreak,
  type AuditChainVerification,
  type AuditEntry,
  type AuditPage,
} from "../audit";
import { count, keysOf, nullableString } from "./common";

export const auditOperationSchema = keysOf(AUDIT_OPERATIONS);

export const auditEntrySchema: z.ZodMiniType<AuditEntry> = z.object({
  entryId: z.string(),
  date: z.string(),
  actor: z.string(),
  operation: auditOperationSchema,
  object: z.string(),
  failureReason: nullableString,
});

export const auditPageSchema: z.ZodMiniType<AuditPage> = z.object({
  entries: z.array(auditEntrySchema),
  page: z.number(),
  pageSize: z.number(),
  totalEntries: z.number(),
  totalPages: z.number(),
});

export const auditChainBreakSchema: z.ZodMiniType<AuditChainBreak> = z.object({
  reason: z.enum(["content-changed", "link-broken", "entry-missing", "not-sealed"]),
  message: z.string(),
  entryId: nullableString,
  seq: z.nullable(count),
  date: nullableString,
  operation: z.nullable(auditOperationSchema),
});

export const auditChainVerificationSchema: z.ZodMiniType<AuditChainVerification> = z.object({
  intact: z.boolean(),
  entries: count,
  head: z.nullable(z.object({ seq: count, hash: z.string() })),
  verifiedAt: z.string(),
  firstBroken: z.nullable(auditChainBreakSchema),
});
