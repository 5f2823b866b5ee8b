import { z } from "zod";
import { type KeyCheck, type Secret, type SecretsResponse } from "../secrets";
import { nullableString } from "./common";
import { planIdSchema } from "./plans";

export const keyCheckSchema: z.ZodType<KeyCheck> = z.object({
  health: z.enum(["ok", "disabled", "destroyed", "not-found", "permission-denied", "unavailable"]),
  message: nullableString,
  checkedAt: z.string(),
});

export const secretSchema: z.ZodType<Secret> = z.object({
  secretId: z.string(),
  description: z.string(),
  kind: z.enum(["default", "cloud-kms"]),
  kmsResourceName: nullableString,
  isDefault: z.boolean(),
  lastCheck: keyCheckSchema.nullable(),
  createdAt: nullableString,
  updatedAt: nullableString,
});

export const secretsResponseSchema: z.ZodType<SecretsResponse> = z.object({
  secrets: z.array(secretSchema),
  planId: planIdSchema,
});

/** A `{secret}` answer (add, edit, check). */
export const secretResponseSchema = z.object({ secret: secretSchema });
