import type { Secret } from "@alpvault/contracts/secrets";
import { secretResponseSchema } from "@alpvault/contracts/schemas/secrets";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { secretsKeys, secretsPath } from "./list-secrets";

/** `POST /v1/organizations/{id}/secrets/{secretId}:check`: asks Cloud KMS about the key now. */
export async function checkSecret(organizationId: string, secretId: string): Promise<Secret> {
  const answer = await api.post<unknown>(`${secretsPath(organizationId, secretId)}:check`);
  return decodeAnswer(secretResponseSchema, answer).secret;
}

export function useCheckSecret() {
  return useApiMutation(checkSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
