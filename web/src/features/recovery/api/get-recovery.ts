import type { Recovery } from "@alpvault/contracts/recovery";
import { recoverySchema } from "@alpvault/contracts/schemas/recovery";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

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
  return decodeAnswer(recoverySchema, answer);
}
