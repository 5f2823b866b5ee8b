/**
 * Secrets (docs/requirements.md#data-the-console-shows Secret, #validation, #who-may-do-what, #errors-and-messages): the built-in default key and customers' own Cloud KMS keys that
 * protect their backups. Types, request checks and texts shared by the web and the API. No key material
 * ever appears here: a secret names a key, it never holds one.
 */
import type { PlanId } from "./plans";

/** `default`: the built-in AES key (always there, id `default`); `cloud-kms`: a customer's Cloud KMS key. */
export type SecretKind = "default" | "cloud-kms";

export const DEFAULT_SECRET_ID = "default";

/**
 * What the last check of a key found: `ok` (enabled, a test encrypt/decrypt round trip worked), the key
 * version `disabled` or `destroyed`, the key `not-found`, our service not allowed to use it
 * (`permission-denied`), or Cloud KMS not answering (`unavailable`).
 */
export type KeyHealth = "ok" | "disabled" | "destroyed" | "not-found" | "permission-denied" | "unavailable";

export interface KeyCheck {
  health: KeyHealth;
  /** Why the key cannot be used; null when it is ok. */
  message: string | null;
  /** ISO date-time of the check. */
  checkedAt: string;
}

/** docs/requirements.md#data-the-console-shows Secret. */
export interface Secret {
  secretId: string;
  description: string;
  kind: SecretKind;
  /** `projects/{project}/locations/{location}/keyRings/{ring}/cryptoKeys/{key}`; null for the built-in key. */
  kmsResourceName: string | null;
  /** Exactly one secret is the default (the built-in key when no customer key is). */
  isDefault: boolean;
  /** The last check of a Cloud KMS key; null for the built-in key. */
  lastCheck: KeyCheck | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** GET /v1/organizations/{id}/secrets (and POST …/{secretId}/default): the default key first. */
export interface SecretsResponse {
  secrets: Secret[];
  /** The organisation's plan: the free plan cannot add keys (docs/requirements.md#who-may-do-what). */
  planId: PlanId;
}

/** POST /v1/organizations/{id}/secrets. */
export interface CreateSecretRequest {
  description: string;
  kmsResourceName: string;
  /** Make it the default at once (default false). */
  isDefault?: boolean;
}

/** PATCH /v1/organizations/{id}/secrets/{secretId}: any of the fields. */
export interface UpdateSecretRequest {
  description?: string;
  kmsResourceName?: string;
}

/** POST …/secrets (201), PATCH …/secrets/{id} and POST …/secrets/{id}:check answer the secret as it now is. */
export interface SecretResponse {
  secret: Secret;
}

export const DESCRIPTION_MAX_LENGTH = 200;

/** `projects/{project}/locations/{location}/keyRings/{ring}/cryptoKeys/{key}` (Cloud KMS's id rules). */
export const KMS_RESOURCE_NAME =
  /^projects\/[a-z][a-z0-9-]{4,28}[a-z0-9]\/locations\/[a-z0-9-]{1,63}\/keyRings\/[a-zA-Z0-9_-]{1,63}\/cryptoKeys\/[a-zA-Z0-9_-]{1,63}$/;

export const SECRET_MESSAGES = {
  /** docs/requirements.md#validation. */
  descriptionRequired: "Please provide a description for the key",
  descriptionTooLong: `The description can be at most ${DESCRIPTION_MAX_LENGTH} characters`,
  kmsResourceNameRequired: "Please provide the Cloud KMS key's resource name",
  kmsResourceNameInvalid:
    "The key's resource name must look like projects/PROJECT/locations/LOCATION/keyRings/RING/cryptoKeys/KEY",
  /** docs/requirements.md#who-may-do-what. */
  freePlan: "Secrets need a paid plan. Please upgrade your plan to add your own encryption keys.",
  /** docs/requirements.md#errors-and-messages (409; read {product} as "backup"). */
  deleteConflict: "This secret cannot be deleted as it has backup linked.",
  defaultKeyReadOnly: "The built-in default key cannot be changed or deleted.",
  secretNotFound: "Secret not found",
  alreadyAdded: "This Cloud KMS key is already added.",
  notUsableAsDefault: "This key cannot be made the default until its check succeeds.",
  /** docs/requirements.md#errors-and-messages success messages. */
  added: "Secret added successfully",
  updated: "Secret updated successfully",
  deleted: "Secret deleted successfully",
} as const;

/** Why a key cannot be used, by health (shown on the secret and in the audit log). */
export const KEY_HEALTH_MESSAGES: Record<Exclude<KeyHealth, "ok">, string> = {
  disabled: "The Cloud KMS key is disabled. Enable its primary version in Google Cloud.",
  destroyed: "The Cloud KMS key is destroyed. Backups cannot be encrypted with it.",
  "not-found": "The Cloud KMS key was not found. Check its resource name.",
  "permission-denied":
    "Alpvault is not allowed to use this Cloud KMS key. Grant our service account the Cloud KMS CryptoKey Encrypter/Decrypter role.",
  unavailable: "Cloud KMS did not answer. Please try the check again later.",
};

/** The first failing rule's text for a description, or undefined. */
export function descriptionError(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return SECRET_MESSAGES.descriptionRequired;
  if (value.trim().length > DESCRIPTION_MAX_LENGTH) return SECRET_MESSAGES.descriptionTooLong;
  return undefined;
}

/** The first failing rule's text for a Cloud KMS resource name, or undefined. */
export function kmsResourceNameError(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return SECRET_MESSAGES.kmsResourceNameRequired;
  if (!KMS_RESOURCE_NAME.test(value.trim())) return SECRET_MESSAGES.kmsResourceNameInvalid;
  return undefined;
}
