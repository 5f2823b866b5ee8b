import type { CheckoutResponse, Purchase } from "@alpvault/contracts/billing";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";
import { useApiMutation } from "@/lib/query";

export function decodeCheckout(value: unknown): CheckoutResponse {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof v.checkoutId === "string" && typeof v.url === "string") {
    return { checkoutId: v.checkoutId, url: v.url };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/**
 * `POST /v1/organizations/{id}/checkout`: opens a payment for the purchase; the payment page sends the
 * admin back to `returnUrl` with `?checkout=<checkoutId>`.
 */
export async function createCheckout(
  organizationId: string,
  purchase: Purchase,
  returnUrl: string,
): Promise<CheckoutResponse> {
  return decodeCheckout(
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/checkout`, {
      purchase,
      returnUrl,
    }),
  );
}

export function useCreateCheckout() {
  return useApiMutation(createCheckout);
}
