/**
 * The policies module's stored document (lib/stored.ts): `policies/{policyId}`, as `repo.ts` writes it
 * (the request's settings, when and by whom it was created and last changed). A policy written before
 * `days` or `archiving` existed reads as none and off.
 */
import { z } from "zod/mini";
import { DATA_TYPES, FREQUENCIES, SCHEDULES, WEEKDAYS, type PolicyInput } from "@alpvault/contracts/policies";
import { storedKindWithId } from "../lib/stored";

/** A policy as stored (the answer's derived fields are computed on read). */
export interface StoredPolicy extends PolicyInput {
  policyId: string;
  createdAt: string;
  updatedAt: string;
}

/** `policies/{policyId}`. */
export const POLICY = storedKindWithId<StoredPolicy>(
  "policy",
  "policyId",
  z.object({
    policyId: z.string(),
    name: z.string(),
    dataTypes: z.array(z.enum(DATA_TYPES)),
    frequency: z.literal(FREQUENCIES),
    schedule: z.enum(SCHEDULES),
    days: z._default(z.array(z.enum(WEEKDAYS)), []),
    retentionDays: z.number(),
    archiving: z._default(z.boolean(), false),
    createdAt: z._default(z.string(), ""),
    updatedAt: z._default(z.string(), ""),
  }),
);
