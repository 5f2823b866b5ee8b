import type { SecretsResponse } from "@alpvault/contracts/secrets";
import { secretsResponseSchema } from "@alpvault/contracts/schemas/secrets";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

export function secretsPath(organizationId: string, secretId?: string): string {
  const base = `/organizations/${encodeURIComponent(organizationId)}/secrets`;
  return secretId === undefined ? base : `${base}/${encodeURIComponent(secretId)}`;
}

/** `GET /v1/organizations/{id}/secrets`: the built-in key and the customer's Cloud KMS keys, default first. */
export async function listSecrets(organizationId: string, signal?: AbortSignal): Promise<SecretsResponse> {
  return decodeAnswer(secretsResponseSchema, await api.get<unknown>(secretsPath(organizationId), { signal }));
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
