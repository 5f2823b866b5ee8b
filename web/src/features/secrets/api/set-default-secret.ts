import type { SecretsResponse } from "@alpvault/contracts/secrets";
import { secretsResponseSchema } from "@alpvault/contracts/schemas/secrets";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { secretsKeys, secretsPath } from "./list-secrets";

/** `POST /v1/organizations/{id}/secrets/{secretId}/default`: the list as it now is. */
export async function setDefaultSecret(organizationId: string, secretId: string): Promise<SecretsResponse> {
  const answer = await api.post<unknown>(`${secretsPath(organizationId, secretId)}/default`);
  return decodeAnswer(secretsResponseSchema, answer);
}

export function useSetDefaultSecret() {
  return useApiMutation(setDefaultSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
