/**
 * The local stack's payment provider (emulator mode only). `createCheckout` stores the checkout and
 * answers the address of our own checkout page (`GET /v1/payments/sandbox/{checkoutId}`), where the
 * tester chooses the outcome. The choice becomes the event Stripe would send for it, signed with the
 * local webhook secret by Stripe's own helper, and is delivered to the same webhook handler that checks
 * Stripe's signatures. A checkout that completes starts its subscription (`paymentSubscriptions`), whose
 * lines `applyCharge` raises as Stripe raises a subscription item's quantity, until `cancelSubscription`
 * cancels it (a canceled subscription refuses changes, as Stripe's does).
 */
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { SANDBOX_OUTCOMES, type SandboxOutcome } from "@alpvault/contracts/billing";
import {
  applySandboxCharge,
  cancelSandboxSubscription,
  saveSandboxCheckout,
  type SandboxCheckout,
} from "./repo";
import {
  CHECKOUT_ID_PLACEHOLDER,
  type CheckoutInput,
  type PaymentProvider,
  type SubscriptionCharge,
} from "./provider";

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

/** The checkout page lives on the organisation's regional API host, whose API handles its events. */
export function sandboxPageUrl(checkoutId: string, regionApiUrl: string): string {
  return `${regionApiUrl.replace(/\/+$/, "")}/payments/sandbox/${encodeURIComponent(checkoutId)}`;
}

export function sandboxProvider(now: () => Date = () => new Date()): PaymentProvider {
  return {
    async createCheckout(input: CheckoutInput) {
      const checkoutId = newId("cs_sandbox");
      await saveSandboxCheckout({
        checkoutId,
        organizationId: input.organizationId,
        items: input.items,
        metadata: input.metadata,
        successUrl: input.successUrl.replace(CHECKOUT_ID_PLACEHOLDER, checkoutId),
        cancelUrl: input.cancelUrl.replace(CHECKOUT_ID_PLACEHOLDER, checkoutId),
        createdAt: now().toISOString(),
        outcome: null,
      });
      return { checkoutId, url: sandboxPageUrl(checkoutId, input.regionApiUrl) };
    },
    applyCharge: (charge: SubscriptionCharge) =>
      applySandboxCharge(charge.subscriptionId, charge.chargeId, charge.item),
    cancelSubscription: (subscriptionId: string) => cancelSandboxSubscription(subscriptionId, now()),
  };
}

/** The subscription a sandbox checkout starts when it completes (one per checkout, as with Stripe). */
export function sandboxSubscriptionId(checkoutId: string): string {
  return `sub_sandbox_${checkoutId.replace(/^cs_sandbox_/, "")}`;
}

export function isSandboxOutcome(value: unknown): value is SandboxOutcome {
  return typeof value === "string" && (SANDBOX_OUTCOMES as readonly string[]).includes(value);
}

/** Which outcomes the checkout still accepts: any while open, success or failure while pending. */
export function outcomeAllowed(checkout: SandboxCheckout, outcome: SandboxOutcome): boolean {
  if (checkout.outcome === null) return true;
  return checkout.outcome === "pending" && (outcome === "success" || outcome === "failed");
}

/** The Stripe event for the tester's choice (the same types and fields Stripe Checkout sends). */
export function sandboxEvent(checkout: SandboxCheckout, outcome: SandboxOutcome, at: Date): object {
  const wasPending = checkout.outcome === "pending";
  const type = {
    success: wasPending ? "checkout.session.async_payment_succeeded" : "checkout.session.completed",
    failed: "checkout.session.async_payment_failed",
    pending: "checkout.session.completed",
    cancelled: "checkout.session.expired",
  }[outcome];
  const amountTotal = checkout.items.reduce(
    (sum, item) => sum + Math.round(item.unitAmountUsd * 100) * item.quantity,
    0,
  );
  return {
    id: newId("evt_sandbox"),
    object: "event",
    type,
    created: Math.floor(at.getTime() / 1000),
    livemode: false,
    data: {
      object: {
        id: checkout.checkoutId,
        object: "checkout.session",
        mode: "subscription",
        client_reference_id: checkout.organizationId,
        metadata: checkout.metadata,
        subscription: outcome === "cancelled" ? null : sandboxSubscriptionId(checkout.checkoutId),
        amount_total: amountTotal,
        currency: "usd",
        status: outcome === "cancelled" ? "expired" : "complete",
        payment_status: outcome === "success" ? "paid" : "unpaid",
        success_url: checkout.successUrl,
        cancel_url: checkout.cancelUrl,
      },
    },
  };
}

/** Signs a payload as Stripe signs webhook deliveries (`Stripe-Signature` header). */
export function signPayload(payload: string, secret: string, at: Date): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: Math.floor(at.getTime() / 1000),
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The checkout page: what is bought, and the four outcomes (docs/requirements.md#states-and-flows) as buttons. */
export function sandboxPage(checkout: SandboxCheckout, notice?: string): string {
  const total = checkout.items.reduce((sum, item) => sum + item.unitAmountUsd * item.quantity, 0);
  const lines = checkout.items
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.name)}</td><td>${item.quantity} × $${item.unitAmountUsd}</td><td>$${item.unitAmountUsd * item.quantity}</td></tr>`,
    )
    .join("");
  const closed = checkout.outcome !== null && checkout.outcome !== "pending";
  const button = (outcome: SandboxOutcome, label: string) =>
    outcomeAllowed(checkout, outcome)
      ? `<button type="submit" name="outcome" value="${outcome}">${label}</button>`
      : "";
  const action = `/v1/payments/sandbox/${encodeURIComponent(checkout.checkoutId)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · Alpvault</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #1b2330; }
  table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
  td { padding: .5rem 0; border-bottom: 1px solid #d8dde6; }
  td:last-child { text-align: right; }
  .total { font-weight: 600; }
  .buttons { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .6rem 1rem; border-radius: .4rem; border: 1px solid #9aa6b8; background: #fff; cursor: pointer; }
  button[value=success] { background: #0b6e4f; color: #fff; border-color: #0b6e4f; }
  .notice { padding: .75rem 1rem; background: #fff4e5; border-radius: .4rem; }
</style>
</head>
<body>
<h1>Sandbox checkout</h1>
<p>Local payment provider of the Alpvault test stack: no money moves. Choose how this payment ends.</p>
${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ""}
<table>
${lines}
<tr class="total"><td>Total per month</td><td></td><td>$${total}</td></tr>
</table>
${
  closed
    ? `<p role="status">This checkout is closed (${escapeHtml(checkout.outcome ?? "")}).</p>`
    : `<form method="post" action="${action}">
<div class="buttons">
${button("success", "Pay")}
${button("failed", "Fail")}
${button("pending", "Leave pending")}
${button("cancelled", "Cancel")}
</div>
</form>`
}
</body>
</html>`;
}
