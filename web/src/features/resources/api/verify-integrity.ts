import type { VerifyRun } from "@alpvault/contracts/integrity";
import { verifyRunSchema } from "@alpvault/contracts/schemas/integrity";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";
import { integrityKeys } from "./get-integrity";

/**
 * `POST /v1/organizations/{id}/integrity/verify` ("Check now"): a verification of the resource's backups
 * starts at once (202 with the run); 409 when one of the organisation is already under way.
 */
export async function verifyIntegrity(organizationId: string, resourceId: string): Promise<VerifyRun> {
  return decodeAnswer(
    verifyRunSchema,
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/integrity/verify`, {
      resourceId,
    }),
  );
}

/** After a start, the report is read again: it follows the run. */
export function useVerifyIntegrity() {
  return useApiMutation(verifyIntegrity, (organizationId) => [integrityKeys.all(organizationId)]);
}
