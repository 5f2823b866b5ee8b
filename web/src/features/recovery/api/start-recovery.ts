import type { Recovery } from "@alpvault/contracts/recovery";
import type { RecoveryRequest } from "@alpvault/contracts/recovery-request";
import { recoverySchema } from "@alpvault/contracts/schemas/recovery";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";

/**
 * `POST /v1/organizations/{id}/recoveries` (the recovery modal, docs/requirements.md#screens-and-navigation): the recovery starts (202) and is
 * followed with `getRecovery`. 400, 404 and 409 reject with the API's text.
 */
export async function startRecovery(organizationId: string, request: RecoveryRequest): Promise<Recovery> {
  return decodeAnswer(
    recoverySchema,
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/recoveries`, request),
  );
}

export function useStartRecovery() {
  return useApiMutation(startRecovery);
}
