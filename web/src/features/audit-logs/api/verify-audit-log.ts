import {
  isAuditOperation,
  type AuditChainBreak,
  type AuditChainBreakReason,
  type AuditChainVerification,
} from "@alpvault/contracts/audit";
import { api } from "@/lib/api-client";
import { asFields, isCount, isNullableString, isString, unexpectedAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";

const REASONS: readonly AuditChainBreakReason[] = [
  "content-changed",
  "link-broken",
  "entry-missing",
  "not-sealed",
];

const isReason = (value: unknown): value is AuditChainBreakReason =>
  REASONS.includes(value as AuditChainBreakReason);
const isNullableCount = (value: unknown): value is number | null => value === null || isCount(value);

function decodeBreak(value: unknown): AuditChainBreak {
  const v = asFields(value);
  if (
    isReason(v.reason) &&
    isString(v.message) &&
    isNullableString(v.entryId) &&
    isNullableCount(v.seq) &&
    isNullableString(v.date) &&
    (v.operation === null || isAuditOperation(v.operation))
  ) {
    return {
      reason: v.reason,
      message: v.message,
      entryId: v.entryId,
      seq: v.seq,
      date: v.date,
      operation: v.operation,
    };
  }
  return unexpectedAnswer();
}

export function decodeAuditChainVerification(value: unknown): AuditChainVerification {
  const v = asFields(value);
  const head = v.head === null ? null : asFields(v.head);
  if (
    typeof v.intact === "boolean" &&
    isCount(v.entries) &&
    isString(v.verifiedAt) &&
    (head === null || (isCount(head.seq) && isString(head.hash)))
  ) {
    return {
      intact: v.intact,
      entries: v.entries,
      head: head && { seq: head.seq as number, hash: head.hash as string },
      verifiedAt: v.verifiedAt,
      firstBroken: v.firstBroken === null ? null : decodeBreak(v.firstBroken),
    };
  }
  return unexpectedAnswer();
}

/** `GET /v1/organizations/{id}/audit-logs/verify`: whether the log's hash chain is intact. */
export async function verifyAuditLog(organizationId: string): Promise<AuditChainVerification> {
  return decodeAuditChainVerification(
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/audit-logs/verify`),
  );
}

export function useVerifyAuditLog() {
  return useApiMutation(verifyAuditLog);
}
