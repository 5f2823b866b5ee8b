/**
 * The payment provider: opens a hosted checkout for a purchase and, later, reports its outcome as signed
 * webhook events (Stripe's event format for both implementations); later adds what the product added
 * automatically (seats, storage packs) to the subscription bought there. Production: Stripe Checkout and
 * Subscriptions (stripe-provider.ts). Local stack: the sandbox provider (sandbox-provider.ts), whose page lets the
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

/**
 * Units added to a subscription after the fact (seats or storage packs the product added automatically),
 * billed from the subscription's next invoice with a prorated share for the current period.
 */
export interface SubscriptionCharge {
  /** The provider's subscription (`sub_…`) the plan was bought with. */
  subscriptionId: string;
  /** Our id of the charge: applying it again changes nothing. */
  chargeId: string;
  /** The line it adds to: found by name and unit price, else added as a new line. */
  item: CheckoutItem;
}

export interface PaymentProvider {
  createCheckout(input: CheckoutInput): Promise<{ checkoutId: string; url: string }>;
  /**
   * Raises the subscription's line by the charge's units, once per charge id (a retry after a lost answer
   * finds the charge applied and changes nothing). Rejects when the provider refuses it (the subscription
   * is gone or cancelled) or does not answer; the caller keeps the charge and tries again later.
   */
  applyCharge(charge: SubscriptionCharge): Promise<void>;
  /**
   * Ends a subscription now, crediting the unused part of its period (a plan replaced by a new plan's
   * checkout). A subscription already cancelled or unknown is done: resolves.
   */
  cancelSubscription(subscriptionId: string): Promise<void>;
}

/** The placeholder both providers replace in the return addresses. */
export const CHECKOUT_ID_PLACEHOLDER = "{CHECKOUT_SESSION_ID}";
