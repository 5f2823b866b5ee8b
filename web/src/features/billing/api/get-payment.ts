import type { Payment } from "@alpvault/contracts/billing";
import { paymentSchema } from "@alpvault/contracts/schemas/billing";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** `GET /v1/organizations/{id}/payments/{checkoutId}`: the checkout's state, for the payment modal. */
export async function getPayment(
  organizationId: string,
  checkoutId: string,
  signal?: AbortSignal,
): Promise<Payment> {
  return decodeAnswer(
    paymentSchema,
    await api.get<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/payments/${encodeURIComponent(checkoutId)}`,
      { signal },
    ),
  );
}

export const paymentKeys = {
  one: (organizationId: string | null, checkoutId: string | null) =>
    ["payments", organizationId, checkoutId] as const,
};
