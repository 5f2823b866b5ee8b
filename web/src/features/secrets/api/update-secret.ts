import type { Secret, UpdateSecretRequest } from "@alpvault/contracts/secrets";
import { api } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { decodeSecretAnswer, secretsKeys, secretsPath } from "./list-secrets";

/** `PATCH /v1/organizations/{id}/secrets/{secretId}`: a new description and/or key (a new key is checked). */
export async function updateSecret(
  organizationId: string,
  secretId: string,
  change: UpdateSecretRequest,
): Promise<Secret> {
  return decodeSecretAnswer(await api.patch<unknown>(secretsPath(organizationId, secretId), change));
}

export function useUpdateSecret() {
  return useApiMutation(updateSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
