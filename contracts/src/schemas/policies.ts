import { z } from "zod/mini";
import {
  DATA_TYPES,
  DATA_TYPE_SERVICES,
  FREQUENCIES,
  SCHEDULES,
  WEEKDAYS,
  type AssignPolicyResponse,
  type BackupService,
  type PoliciesResponse,
  type Policy,
} from "../policies";
import { count } from "./common";
import { planIdSchema } from "./plans";

export const policySchema: z.ZodMiniType<Policy> = z.object({
  policyId: z.string(),
  name: z.string(),
  dataTypes: z.array(z.enum(DATA_TYPES)),
  frequency: z.literal(FREQUENCIES),
  schedule: z.enum(SCHEDULES),
  days: z.array(z.enum(WEEKDAYS)),
  retentionDays: count,
  archiving: z.boolean(),
  isDefault: z.boolean(),
  services: z.array(z.enum(Object.values(DATA_TYPE_SERVICES) as [BackupService, ...BackupService[]])),
  plan: planIdSchema,
  resourceCount: count,
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const policiesResponseSchema: z.ZodMiniType<PoliciesResponse> = z.object({
  policies: z.array(policySchema),
  planId: planIdSchema,
});

export const assignPolicyResponseSchema: z.ZodMiniType<AssignPolicyResponse> = z.object({
  policyId: z.string(),
  assigned: z.number(),
  backupsQueued: z.number(),
});
