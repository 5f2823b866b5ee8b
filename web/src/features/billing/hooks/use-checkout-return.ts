import type { Payment, PaymentState } from "@alpvault/contracts/billing";
import { CHECKOUT_QUERY_PARAMETER } from "@alpvault/contracts/billing";
import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { getPayment } from "../api/get-payment";

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
 * one of the spec's outcomes (success, failed, pending, cancelled); `close` drops the parameter.
 */
export function useCheckoutReturn(organizationId: string | null): CheckoutReturn {
  const [searchParams, setSearchParams] = useSearchParams();
  const checkoutId = searchParams.get(CHECKOUT_QUERY_PARAMETER);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [outcome, setOutcome] = useState<CheckoutReturn["outcome"]>(null);

  useEffect(() => {
    setPayment(null);
    setOutcome(null);
    if (!checkoutId || !organizationId) return;
    const controller = new AbortController();
    let polls = 0;
    let timer: number | undefined;
    const poll = () => {
      polls += 1;
      getPayment(organizationId, checkoutId, controller.signal).then(
        (answer) => {
          if (controller.signal.aborted) return;
          setPayment(answer);
          if (answer.state !== "open") setOutcome(answer.state);
          else if (polls >= MAX_POLLS) setOutcome("pending");
          else timer = window.setTimeout(poll, POLL_MS);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          console.warn("The payment state could not be read", error);
          setOutcome("failed");
        },
      );
    };
    poll();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [checkoutId, organizationId]);

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
