import type { CreateSecretRequest, Secret } from "@alpvault/contracts/secrets";
import { api } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { decodeSecretAnswer, secretsKeys, secretsPath } from "./list-secrets";

/** `POST /v1/organizations/{id}/secrets`: adds a Cloud KMS key; the answer carries its first check. */
export async function createSecret(organizationId: string, input: CreateSecretRequest): Promise<Secret> {
  return decodeSecretAnswer(await api.post<unknown>(secretsPath(organizationId), input));
}

export function useCreateSecret() {
  return useApiMutation(createSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
