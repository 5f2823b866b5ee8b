import type { BackupNowResponse } from "@alpvault/contracts/backups";
import { backupNowResponseSchema } from "@alpvault/contracts/schemas/backups";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { resourcesKeys } from "./list-resources";

/**
 * `POST /v1/organizations/{id}/resources/{resourceId}/backups` ("Backup now", docs/requirements.md#screens-and-navigation): a backup of the
 * resource starts, or the one already pending or running is returned (`created` false).
 */
export async function backupNow(organizationId: string, resourceId: string): Promise<BackupNowResponse> {
  return decodeAnswer(
    backupNowResponseSchema,
    await api.post<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/resources/${encodeURIComponent(resourceId)}/backups`,
    ),
  );
}

/** After a start, the resources (the list and a resource's page) are read again: they show its progress. */
export function useBackupNow() {
  return useApiMutation(backupNow, (organizationId) => [resourcesKeys.all(organizationId)]);
}
