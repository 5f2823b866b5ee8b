import type { Secret } from "@alpvault/contracts/secrets";
import { api } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { decodeSecretAnswer, secretsKeys, secretsPath } from "./list-secrets";

/** `POST /v1/organizations/{id}/secrets/{secretId}:check`: asks Cloud KMS about the key now. */
export async function checkSecret(organizationId: string, secretId: string): Promise<Secret> {
  return decodeSecretAnswer(await api.post<unknown>(`${secretsPath(organizationId, secretId)}:check`));
}

export function useCheckSecret() {
  return useApiMutation(checkSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
