/**
 * Production payments: a Stripe Checkout Session per purchase, in subscription mode (seats and storage
 * packs are monthly prices); automatic additions raise a line of the plan's subscription (prorated). The session's and the subscription's metadata carry the organisation and the
 * purchase, so every webhook event (checkout and later invoices) names the organisation it is about.
 */
import Stripe from "stripe";
import type { CheckoutInput, PaymentProvider, SubscriptionCharge } from "./provider";

/** The subscription's metadata key naming the last charge applied (charges are sent one at a time, in order). */
export const LAST_CHARGE_KEY = "alpvaultLastCharge";

export function stripeProvider(secretKey: () => string): PaymentProvider {
  let client: Stripe | undefined;
  const stripe = () => (client ??= new Stripe(secretKey()));
  return {
    async createCheckout(input: CheckoutInput) {
      const session = await stripe().checkout.sessions.create({
        mode: "subscription",
        client_reference_id: input.organizationId,
        line_items: input.items.map((item) => ({
          quantity: item.quantity,
          price_data: {
            currency: "usd",
            unit_amount: Math.round(item.unitAmountUsd * 100),
            recurring: { interval: "month" },
            product_data: { name: item.name },
          },
        })),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: input.metadata,
        subscription_data: { metadata: input.metadata },
      });
      if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
      return { checkoutId: session.id, url: session.url };
    },

    /**
     * One subscription update carries both the new quantity and the charge's id in the metadata, so a
     * retry that finds the id there knows the charge is applied; the idempotency key makes a repeated
     * request within Stripe's 24 hours answer the first result.
     */
    async applyCharge(charge: SubscriptionCharge) {
      const subscription = await stripe().subscriptions.retrieve(charge.subscriptionId, {
        expand: ["items.data.price.product"],
      });
      if (subscription.metadata?.[LAST_CHARGE_KEY] === charge.chargeId) return;
      const cents = Math.round(charge.item.unitAmountUsd * 100);
      const line = subscription.items.data.find((item) => {
        const product = item.price.product;
        const name = typeof product === "object" && product && "name" in product ? product.name : undefined;
        return name === charge.item.name && item.price.unit_amount === cents;
      });
      const product = line
        ? undefined
        : await stripe().products.create(
            { name: charge.item.name },
            { idempotencyKey: `${charge.chargeId}-product` },
          );
      await stripe().subscriptions.update(
        charge.subscriptionId,
        {
          items: [
            line
              ? { id: line.id, quantity: (line.quantity ?? 0) + charge.item.quantity }
              : {
                  quantity: charge.item.quantity,
                  price_data: {
                    currency: "usd",
                    unit_amount: cents,
                    recurring: { interval: "month" },
                    product: product!.id,
                  },
                },
          ],
          metadata: { [LAST_CHARGE_KEY]: charge.chargeId },
          proration_behavior: "create_prorations",
        },
        { idempotencyKey: charge.chargeId },
      );
    },

    async cancelSubscription(subscriptionId: string) {
      try {
        const subscription = await stripe().subscriptions.retrieve(subscriptionId);
        if (subscription.status === "canceled" || subscription.status === "incomplete_expired") return;
        await stripe().subscriptions.cancel(
          subscriptionId,
          { prorate: true, invoice_now: true },
          { idempotencyKey: `cancel-${subscriptionId}` },
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeError && error.code === "resource_missing") return;
        throw error;
      }
    },
  };
}
