import { RECOVERY_SERVICES, type Recovery, type RecoveryProblem } from "@alpvault/contracts/recovery";
import { asFields, isString, isNullableString, isCount, unexpectedAnswer } from "@/lib/decode";
import { api } from "@/lib/api-client";

const STATES = ["pending", "running", "succeeded", "failed"] as const;

/** The items a recovery names as skipped or failed (absent from older answers: none). */
function decodeProblems(value: unknown): RecoveryProblem[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const problems: RecoveryProblem[] = [];
  for (const entry of value) {
    const p = asFields(entry);
    if (
      !isString(p.itemKey) ||
      !isString(p.name) ||
      (p.outcome !== "skipped" && p.outcome !== "failed") ||
      !isString(p.reason)
    ) {
      return undefined;
    }
    problems.push({ itemKey: p.itemKey, name: p.name, outcome: p.outcome, reason: p.reason });
  }
  return problems;
}

/** Decodes a recovery as the API answers it (anything else is an unexpected answer). */
export function decodeRecovery(value: unknown): Recovery {
  const v = asFields(value);
  const progress = asFields(v.progress);
  const problems = decodeProblems(v.problems);
  if (
    problems &&
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
      problems,
    };
  }
  return unexpectedAnswer();
}

/** Where a recovery's report (every item's outcome, CSV) is downloaded. */
export function recoveryReportPath(organizationId: string, recoveryId: string): string {
  return `/organizations/${encodeURIComponent(organizationId)}/recoveries/${encodeURIComponent(recoveryId)}/report`;
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
