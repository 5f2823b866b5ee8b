import { z } from "zod/mini";
import { ETA_LIMIT_KINDS, type EtaLimit, type RecoveryEstimate } from "../eta";
import { count } from "./common";

/** A rate or a number of seconds: zero or more, not necessarily whole. */
export const nullableRate = z.nullable(z.number().check(z.minimum(0)));

export const etaLimitSchema: z.ZodMiniType<EtaLimit> = z.object({
  kind: z.enum(ETA_LIMIT_KINDS),
  text: z.string(),
});

export const recoveryEstimateSchema: z.ZodMiniType<RecoveryEstimate> = z.object({
  items: count,
  bytes: count,
  seconds: z.nullable(count),
  limit: etaLimitSchema,
});

/** The fields of a WorkPace, for a progress schema to spread in; absent from older answers: not counted. */
export const workPaceFields = {
  totalBytes: z._default(count, 0),
  itemsPerMinute: z._default(nullableRate, null),
  etaSeconds: z._default(z.nullable(count), null),
  limit: z._default(z.nullable(etaLimitSchema), null),
};
