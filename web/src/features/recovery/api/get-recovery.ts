import { RECOVERY_SERVICES, type Recovery } from "@alpvault/contracts/recovery";
import { asFields, isString, isNullableString, isCount, unexpectedAnswer } from "@/lib/decode";
import { api } from "@/lib/api-client";

const STATES = ["pending", "running", "succeeded", "failed"] as const;

/** Decodes a recovery as the API answers it (anything else is an unexpected answer). */
export function decodeRecovery(value: unknown): Recovery {
  const v = asFields(value);
  const progress = asFields(v.progress);
  if (
    isString(v.recoveryId) &&
    (STATES as readonly unknown[]).includes(v.state) &&
    (RECOVERY_SERVICES as readonly unknown[]).includes(v.service) &&
    isString(v.resourceId) &&
    isString(v.targetResourceId) &&
    (v.method === "folder" || v.method === "overwrite") &&
    isNullableString(v.folderName) &&
    isNullableString(v.asOf ?? null) &&
    isString(v.requestedAt) &&
    isNullableString(v.finishedAt) &&
    isCount(progress.total) &&
    isCount(progress.restored) &&
    isCount(progress.skipped) &&
    isCount(progress.failed) &&
    isNullableString(v.failureReason)
  ) {
    return {
      recoveryId: v.recoveryId,
      state: v.state as Recovery["state"],
      service: v.service as Recovery["service"],
      resourceId: v.resourceId,
      targetResourceId: v.targetResourceId,
      method: v.method,
      folderName: v.folderName,
      asOf: (v.asOf as string | null | undefined) ?? null,
      requestedAt: v.requestedAt,
      finishedAt: v.finishedAt,
      progress: {
        total: progress.total,
        restored: progress.restored,
        skipped: progress.skipped,
        failed: progress.failed,
      },
      failureReason: v.failureReason,
    };
  }
  return unexpectedAnswer();
}

/** `GET /v1/organizations/{id}/recoveries/{recoveryId}`: a recovery's state and progress. */
export async function getRecovery(
  organizationId: string,
  recoveryId: string,
  signal?: AbortSignal,
): Promise<Recovery> {
  const answer = await api.get<unknown>(
    `/organizations/${encodeURIComponent(organizationId)}/recoveries/${encodeURIComponent(recoveryId)}`,
    { signal },
  );
  return decodeRecovery(answer);
}
