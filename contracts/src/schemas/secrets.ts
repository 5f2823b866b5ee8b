import { z } from "zod/mini";
import { type KeyCheck, type Secret, type SecretsResponse } from "../secrets";
import { nullableString } from "./common";
import { planIdSchema } from "./plans";

export const keyCheckSchema: z.ZodMiniType<KeyCheck> = z.object({
  health: z.enum(["ok", "disabled", "destroyed", "not-found", "permission-denied", "unavailable"]),
  message: nullableString,
  checkedAt: z.string(),
});

export const secretSchema: z.ZodMiniType<Secret> = z.object({
  secretId: z.string(),
  description: z.string(),
  kind: z.enum(["default", "cloud-kms"]),
  kmsResourceName: nullableString,
  isDefault: z.boolean(),
  lastCheck: z.nullable(keyCheckSchema),
  createdAt: nullableString,
  updatedAt: nullableString,
});

export const secretsResponseSchema: z.ZodMiniType<SecretsResponse> = z.object({
  secrets: z.array(secretSchema),
  planId: planIdSchema,
});

/** A `{secret}` answer (add, edit, check). */
export const secretResponseSchema = z.object({ secret: secretSchema });
