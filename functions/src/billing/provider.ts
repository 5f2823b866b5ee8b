/**
 * The payment provider: opens a hosted checkout for a purchase and, later, reports its outcome as signed
 * webhook events (Stripe's event format for both implementations). Production: Stripe Checkout
 * (stripe-provider.ts). Local stack: the sandbox provider (sandbox-provider.ts), whose page lets the
 * tester choose the outcome.
 */

/** One line of a checkout: a monthly price per unit. */
export interface CheckoutItem {
  name: string;
  quantity: number;
  unitAmountUsd: number;
}

export interface CheckoutInput {
  organizationId: string;
  items: CheckoutItem[];
  /** Both contain `{CHECKOUT_SESSION_ID}`, which the provider replaces with the checkout id. */
  successUrl: string;
  cancelUrl: string;
  /** Carried with the checkout and echoed in its webhook events (organisation, purchase, actor). */
  metadata: Record<string, string>;
  /** The API of the organisation's region, which handles the checkout's events (and hosts the sandbox page). */
  regionApiUrl: string;
}

export interface PaymentProvider {
  createCheckout(input: CheckoutInput): Promise<{ checkoutId: string; url: string }>;
}

/** The placeholder both providers replace in the return addresses. */
export const CHECKOUT_ID_PLACEHOLDER = "{CHECKOUT_SESSION_ID}";
