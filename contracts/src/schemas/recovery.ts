import { z } from "zod/mini";
import {
  RECOVERY_SERVICES,
  type Recovery,
  type RecoveryList,
  type RecoveryProblem,
  type RecoveryProgress,
} from "../recovery";
import { count, nullableString } from "./common";
import { workPaceFields } from "./eta";

export const recoveryProblemSchema: z.ZodMiniType<RecoveryProblem> = z.object({
  itemKey: z.string(),
  name: z.string(),
  outcome: z.enum(["skipped", "failed"]),
  reason: z.string(),
});

export const recoveryProgressSchema: z.ZodMiniType<RecoveryProgress> = z.object({
  total: count,
  restored: count,
  skipped: count,
  failed: count,
  /** Absent from older answers: not counted. */
  bytes: z._default(count, 0),
  ...workPaceFields,
});

export const recoverySchema: z.ZodMiniType<Recovery> = z.object({
  recoveryId: z.string(),
  state: z.enum(["pending", "running", "succeeded", "failed"]),
  service: z.enum(RECOVERY_SERVICES),
  resourceId: z.string(),
  targetResourceId: z.string(),
  method: z.enum(["folder", "overwrite"]),
  folderName: nullableString,
  /** Absent from older answers: as backed up last. */
  asOf: z._default(nullableString, null),
  requestedAt: z.string(),
  finishedAt: nullableString,
  progress: recoveryProgressSchema,
  failureReason: nullableString,
  /** Absent from older answers: none named. */
  problems: z._default(z.array(recoveryProblemSchema), []),
});

export const recoveryListSchema: z.ZodMiniType<RecoveryList> = z.object({
  recoveries: z.array(recoverySchema),
});
