import type { CheckoutResponse, Purchase } from "@alpvault/contracts/billing";
import { checkoutResponseSchema } from "@alpvault/contracts/schemas/billing";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";
import { useApiMutation } from "@/lib/query";

/**
 * `POST /v1/organizations/{id}/checkout`: opens a payment for the purchase; the payment page sends the
 * admin back to `returnUrl` with `?checkout=<checkoutId>`.
 */
export async function createCheckout(
  organizationId: string,
  purchase: Purchase,
  returnUrl: string,
): Promise<CheckoutResponse> {
  return decodeAnswer(
    checkoutResponseSchema,
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/checkout`, {
      purchase,
      returnUrl,
    }),
  );
}

export function useCreateCheckout() {
  return useApiMutation(createCheckout);
}
