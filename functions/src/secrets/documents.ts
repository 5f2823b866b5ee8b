/**
 * The secrets module's stored document (lib/stored.ts): `secrets/{secretId}`, a customer key as `repo.ts`
 * writes it (kind `cloud-kms`, its Cloud KMS key, whether it is the default, its last check and who
 * created and changed it). A secret written before its last check, default flag or dates were recorded
 * reads as unchecked, not default, with empty dates.
 */
import { z } from "zod/mini";
import type { KeyCheck } from "@alpvault/contracts/secrets";
import { storedKindWithId } from "../lib/stored";

/** A stored customer key (kind `cloud-kms`). */
export interface StoredSecret {
  secretId: string;
  description: string;
  kmsResourceName: string;
  isDefault: boolean;
  lastCheck: KeyCheck | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

const keyCheckSchema: z.ZodMiniType<KeyCheck> = z.object({
  health: z.enum(["ok", "disabled", "destroyed", "not-found", "permission-denied", "unavailable"]),
  message: z._default(z.nullable(z.string()), null),
  checkedAt: z.string(),
});

const text = z._default(z.string(), "");

/** `secrets/{secretId}`. */
export const SECRET = storedKindWithId<StoredSecret>(
  "secret",
  "secretId",
  z.object({
    secretId: z.string(),
    description: z.string(),
    kmsResourceName: z.string(),
    isDefault: z._default(z.boolean(), false),
    lastCheck: z._default(z.nullable(keyCheckSchema), null),
    createdAt: text,
    createdBy: text,
    updatedAt: text,
  }),
);
