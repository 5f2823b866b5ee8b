import type { AuditChainVerification } from "@alpvault/contracts/audit";
import { auditChainVerificationSchema } from "@alpvault/contracts/schemas/audit";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";

/** `GET /v1/organizations/{id}/audit-logs/verify`: whether the log's hash chain is intact. */
export async function verifyAuditLog(organizationId: string): Promise<AuditChainVerification> {
  return decodeAnswer(
    auditChainVerificationSchema,
    await api.get<unknown>(`/organizations/${encodeURIComponent(organizationId)}/audit-logs/verify`),
  );
}

export function useVerifyAuditLog() {
  return useApiMutation(verifyAuditLog);
}
