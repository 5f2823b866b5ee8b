import type { SecretsResponse } from "@alpvault/contracts/secrets";
import { api } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { decodeSecrets, secretsKeys, secretsPath } from "./list-secrets";

/** `POST /v1/organizations/{id}/secrets/{secretId}/default`: the list as it now is. */
export async function setDefaultSecret(organizationId: string, secretId: string): Promise<SecretsResponse> {
  return decodeSecrets(await api.post<unknown>(`${secretsPath(organizationId, secretId)}/default`));
}

export function useSetDefaultSecret() {
  return useApiMutation(setDefaultSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
