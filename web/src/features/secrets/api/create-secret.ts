import type { CreateSecretRequest, Secret } from "@alpvault/contracts/secrets";
import { secretResponseSchema } from "@alpvault/contracts/schemas/secrets";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { secretsKeys, secretsPath } from "./list-secrets";

/** `POST /v1/organizations/{id}/secrets`: adds a Cloud KMS key; the answer carries its first check. */
export async function createSecret(organizationId: string, input: CreateSecretRequest): Promise<Secret> {
  const answer = await api.post<unknown>(secretsPath(organizationId), input);
  return decodeAnswer(secretResponseSchema, answer).secret;
}

export function useCreateSecret() {
  return useApiMutation(createSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
