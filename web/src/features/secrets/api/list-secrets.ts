import type { PlanId } from "@alpvault/contracts/plans";
import type { KeyCheck, KeyHealth, Secret, SecretsResponse } from "@alpvault/contracts/secrets";
import { asFields, isString, isNullableString, unexpectedAnswer } from "@/lib/decode";
import { api } from "@/lib/api-client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";

const PLAN_IDS: readonly PlanId[] = ["matterhorn", "geneva", "zurich"];
const HEALTHS: readonly KeyHealth[] = [
  "ok",
  "disabled",
  "destroyed",
  "not-found",
  "permission-denied",
  "unavailable",
];

function decodeCheck(value: unknown): KeyCheck | null | undefined {
  if (value === null) return null;
  const c = asFields(value);
  if (
    (HEALTHS as readonly unknown[]).includes(c.health) &&
    isNullableString(c.message) &&
    isString(c.checkedAt)
  ) {
    return { health: c.health as KeyHealth, message: c.message, checkedAt: c.checkedAt };
  }
  return undefined;
}

/** Decodes one secret of an answer (spec §3); anything else is an unexpected answer. */
export function decodeSecret(value: unknown): Secret {
  const s = asFields(value);
  const lastCheck = decodeCheck(s.lastCheck);
  if (
    isString(s.secretId) &&
    isString(s.description) &&
    (s.kind === "default" || s.kind === "cloud-kms") &&
    isNullableString(s.kmsResourceName) &&
    typeof s.isDefault === "boolean" &&
    lastCheck !== undefined &&
    isNullableString(s.createdAt) &&
    isNullableString(s.updatedAt)
  ) {
    return {
      secretId: s.secretId,
      description: s.description,
      kind: s.kind,
      kmsResourceName: s.kmsResourceName,
      isDefault: s.isDefault,
      lastCheck,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    };
  }
  return unexpectedAnswer();
}

export function decodeSecrets(value: unknown): SecretsResponse {
  const v = asFields(value);
  if (!Array.isArray(v.secrets) || !(PLAN_IDS as readonly unknown[]).includes(v.planId)) {
    return unexpectedAnswer();
  }
  return { secrets: v.secrets.map(decodeSecret), planId: v.planId as PlanId };
}

/** The secret of a `{secret}` answer (add, edit, check). */
export function decodeSecretAnswer(value: unknown): Secret {
  const v = asFields(value);
  return decodeSecret(v.secret);
}

export function secretsPath(organizationId: string, secretId?: string): string {
  const base = `/organizations/${encodeURIComponent(organizationId)}/secrets`;
  return secretId === undefined ? base : `${base}/${encodeURIComponent(secretId)}`;
}

/** `GET /v1/organizations/{id}/secrets`: the built-in key and the customer's Cloud KMS keys, default first. */
export async function listSecrets(organizationId: string, signal?: AbortSignal): Promise<SecretsResponse> {
  return decodeSecrets(await api.get<unknown>(secretsPath(organizationId), { signal }));
}

/** The query keys of the organisation's secrets (every change to a secret invalidates them). */
export const secretsKeys = {
  all: (organizationId: string | null) => ["secrets", organizationId] as const,
};

export function useSecrets(organizationId: string | null) {
  return useQuery({
    queryKey: secretsKeys.all(organizationId),
    queryFn: organizationId === null ? skipToken : ({ signal }) => listSecrets(organizationId, signal),
    placeholderData: keepPreviousData,
  });
}
