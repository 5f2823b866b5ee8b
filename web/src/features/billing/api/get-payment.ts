import { isPaymentState, type Payment } from "@alpvault/contracts/billing";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { api, ApiError } from "@/lib/api-client";

export function decodePayment(value: unknown): Payment {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const purchase = v.purchase as Payment["purchase"] | undefined;
  if (
    typeof v.checkoutId === "string" &&
    isPaymentState(v.state) &&
    (purchase?.kind === "upgrade" || purchase?.kind === "storage") &&
    typeof v.amountUsd === "number"
  ) {
    return {
      checkoutId: v.checkoutId,
      state: v.state,
      purchase,
      amountUsd: v.amountUsd,
      createdAt: String(v.createdAt),
      updatedAt: String(v.updatedAt),
    };
  }
  throw new ApiError(UNEXPECTED_ERROR);
}

/** `GET /v1/organizations/{id}/payments/{checkoutId}`: the checkout's state, for the payment modal. */
export async function getPayment(
  organizationId: string,
  checkoutId: string,
  signal?: AbortSignal,
): Promise<Payment> {
  return decodePayment(
    await api.get<unknown>(
      `/organizations/${encodeURIComponent(organizationId)}/payments/${encodeURIComponent(checkoutId)}`,
      { signal },
    ),
  );
}
