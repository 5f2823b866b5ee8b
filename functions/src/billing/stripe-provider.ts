/**
 * Production payments: a Stripe Checkout Session per purchase, in subscription mode (seats and storage
 * packs are monthly prices). The session's and the subscription's metadata carry the organisation and the
 * purchase, so every webhook event (checkout and later invoices) names the organisation it is about.
 */
import Stripe from "stripe";
import type { CheckoutInput, PaymentProvider } from "./provider";

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
  };
}
