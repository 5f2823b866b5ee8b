import type { Payment, PaymentState } from "@alpvault/contracts/billing";
import { CHECKOUT_QUERY_PARAMETER } from "@alpvault/contracts/billing";
import { skipToken, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import { useSearchParams } from "react-router-dom";
import { getPayment, paymentKeys } from "../api/get-payment";

const POLL_MS = 1000;
/** After this many answers of a checkout still open, the modal shows it as pending. */
const MAX_POLLS = 30;

export interface CheckoutReturn {
  checkoutId: string | null;
  /** Null while the payment provider has not reported yet. */
  outcome: Exclude<PaymentState, "open"> | null;
  payment: Payment | null;
  close(): void;
}

/**
 * The return from the payment page (`?checkout=<id>`): polls the payment until the provider has reported
 * one of the required outcomes (success, failed, pending, cancelled); `close` drops the parameter.
 */
export function useCheckoutReturn(organizationId: string | null): CheckoutReturn {
  const [searchParams, setSearchParams] = useSearchParams();
  const checkoutId = searchParams.get(CHECKOUT_QUERY_PARAMETER);
  const polled = useQuery({
    queryKey: paymentKeys.one(organizationId, checkoutId),
    queryFn:
      checkoutId && organizationId
        ? ({ signal }) => getPayment(organizationId, checkoutId, signal)
        : skipToken,
    // Until the provider has reported, at most MAX_POLLS answers; a failed read ends it.
    refetchInterval: ({ state }) =>
      state.status === "success" && state.data?.state === "open" && state.dataUpdateCount < MAX_POLLS
        ? POLL_MS
        : false,
    refetchIntervalInBackground: true,
  });
  const { error } = polled;
  useEffect(() => {
    if (error) console.warn("The payment state could not be read", error);
  }, [error]);
  const payment = polled.data ?? null;
  const answers =
    useQueryClient().getQueryState(paymentKeys.one(organizationId, checkoutId))?.dataUpdateCount ?? 0;
  const outcome: CheckoutReturn["outcome"] = polled.isError
    ? "failed"
    : !payment
      ? null
      : payment.state !== "open"
        ? payment.state
        : answers >= MAX_POLLS
          ? "pending"
          : null;

  const close = useCallback(() => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CHECKOUT_QUERY_PARAMETER);
        return next;
      },
      { replace: true },
    );
  }, [setSearchParams]);

  return { checkoutId, outcome, payment, close };
}
