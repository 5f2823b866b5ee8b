import { api } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { secretsKeys, secretsPath } from "./list-secrets";

/** `DELETE /v1/organizations/{id}/secrets/{secretId}`: refused (409) while backups depend on the key. */
export async function deleteSecret(organizationId: string, secretId: string): Promise<void> {
  await api.delete<unknown>(secretsPath(organizationId, secretId));
}

export function useDeleteSecret() {
  return useApiMutation(deleteSecret, (organizationId) => [secretsKeys.all(organizationId)]);
}
