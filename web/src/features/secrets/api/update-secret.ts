import type { Secret, UpdateSecretRequest } from "@alpvault/contracts/secrets";
import { secretResponseSchema } from "@alpvault/contracts/schemas/secrets";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { secretsKeys, secretsPath } from "./list-secrets";

/** `PATCH /v1/organizations/{id}/secrets/{secretId}`: a new description and/or key (a new key is checked). */
export async function updateSecret(
  organizationId: string,
  secretId: string,
  change: UpdateSecretRequest,
): Promise<Secret> {
  const answer = await api.patch<unknown>(secretsPath(organizationId, secretId), change);
  return decodeAnswer(secretResponseSchema, answer).secret;
}

export function useUpdateSecret() {
  return useApiMutation(updateSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
