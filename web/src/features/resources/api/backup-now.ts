import type { BackupNowResponse } from "@alpvault/contracts/backups";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";
import { resourcesKeys } from "./list-resources";

export function decodeBackupNow(value: unknown): BackupNowResponse {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (
    typeof v.runId === "string" &&
    (v.state === "pending" || v.state === "running") &&
    typeof v.created === "boolean"
  ) {
    return { runId: v.runId, state: v.state, created: v.created };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/**
 * `POST /v1/organizations/{id}/resources/{resourceId}/backups` ("Backup now", spec §2): a backup of the
 * resource starts, or the one already pending or running is returned (`created` false).
 */
export async function backupNow(organizationId: string, resourceId: string): Promise<BackupNowResponse> {
  return decodeBackupNow(
    await api.post<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/resources/${encodeURIComponent(resourceId)}/backups`,
    ),
  );
}

export function useBackupNow() {
  return useApiMutation(backupNow, (organizationId) => [resourcesKeys.lists(organizationId)]);
}
