/**
 * What a payment-provider event means: which organisation, checkout and outcome (read from a verified
 * Stripe event), and what that outcome changes (the purchase, the graceful period), as pure rules over
 * the account; `changes.ts` applies them in one transaction.
 */
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import type { Purchase } from "@alpvault/contracts/billing";
import { PLANS, planRank } from "@alpvault/contracts/plans";
import { NO_SEAT_OVERAGE, type Account } from "../organizations/service";
import type { BillingAudit, BillingChange } from "./changes";
import { GRACEFUL_TEXTS, resetGracefulPeriod, startGracefulPeriod } from "./graceful";
import type { PaymentRecord } from "./repo";

/** What a provider event means for us. */
export type PaymentOutcome = "paid" | "pending" | "failed" | "cancelled";

export interface PaymentEffect {
  organizationId: string;
  checkoutId: string | null;
  outcome: PaymentOutcome;
  /** The provider's subscription the checkout started (checkout events in subscription mode). */
  subscriptionId: string | null;
}

const CHECKOUT_OUTCOMES: Record<string, PaymentOutcome> = {
  "checkout.session.async_payment_succeeded": "paid",
  "checkout.session.async_payment_failed": "failed",
  "checkout.session.expired": "cancelled",
};

/** The value as an object's fields (none for anything else). */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Reads a verified Stripe event: which organisation, which checkout and what outcome. Checkout Session
 * events carry our metadata; invoice events (renewals) carry it on the subscription. Other events, or
 * events without our metadata, mean nothing to us (undefined).
 */
export function readPaymentEvent(event: {
  type: string;
  data: { object: unknown };
}): PaymentEffect | undefined {
  const object = record(event.data.object);
  if (event.type.startsWith("checkout.session.")) {
    const outcome =
      event.type === "checkout.session.completed"
        ? object.payment_status === "unpaid"
          ? "pending"
          : "paid"
        : CHECKOUT_OUTCOMES[event.type];
    const organizationId = text(record(object.metadata).organizationId) ?? text(object.client_reference_id);
    const checkoutId = text(object.id);
    if (!outcome || !organizationId || !checkoutId) return undefined;
    const subscriptionId = text(object.subscription) ?? text(record(object.subscription).id) ?? null;
    return { organizationId, checkoutId, outcome, subscriptionId };
  }
  if (event.type === "invoice.payment_failed" || event.type === "invoice.paid") {
    const metadata = {
      ...record(object.metadata),
      ...record(record(object.subscription_details).metadata),
      ...record(record(record(object.parent).subscription_details).metadata),
    };
    const organizationId = text(metadata.organizationId);
    if (!organizationId) return undefined;
    return {
      organizationId,
      checkoutId: null,
      outcome: event.type === "invoice.paid" ? "paid" : "failed",
      subscriptionId: null,
    };
  }
  return undefined;
}

/**
 * The account changes a bought purchase makes, with their audit entries. A plan bought through a checkout
 * brings its provider subscription: automatic additions are billed there from now on, and the previous
 * plan's subscription is to be cancelled.
 */
export function applyPurchase(
  account: Account,
  purchase: Purchase,
  subscriptionId: string | null = null,
  now: Date = new Date(),
): { account: Partial<Account>; audits: BillingAudit[] } {
  const changes: Partial<Account> = {};
  const audits: BillingAudit[] = [];
  if (purchase.kind === "storage") {
    const packs = account.storagePacks + purchase.packs;
    changes.storagePacks = packs;
    audits.push({
      operation: "storage-packs.updated",
      object: `${account.storagePacks} → ${packs} storage packs (${packs * 100} GB)`,
    });
    return { account: changes, audits };
  }
  // Zürich is the maximum and plans never go down through a payment (a downgrade is done by support).
  if (planRank(purchase.planId) > planRank(account.planId)) {
    changes.planId = purchase.planId;
    audits.push({
      operation: "pricing-tier.updated",
      object: `${PLANS[account.planId].name} → ${PLANS[purchase.planId].name}`,
    });
  }
  if (purchase.seats !== account.seats) {
    changes.seats = purchase.seats;
    audits.push({ operation: "licenses.updated", object: `${account.seats} → ${purchase.seats} seats` });
  }
  // Seats or a plan bought: the next sync looks at the mailboxes afresh (a new overage gets its own grace).
  if (account.seatOverage.since) changes.seatOverage = NO_SEAT_OVERAGE;
  if (subscriptionId && subscriptionId !== account.billingSubscriptionId) {
    changes.billingSubscriptionId = subscriptionId;
    changes.billingSubscriptionSince = now.toISOString();
    // The plan bought before has its own subscription: it must stop billing (`charges.ts` cancels it).
    if (account.billingSubscriptionId) {
      changes.replacedSubscriptions = [...account.replacedSubscriptions, account.billingSubscriptionId];
    }
  }
  return { account: changes, audits };
}

/**
 * What one payment outcome changes: the checkout's state; on success the purchase and the end of a
 * graceful period; a failed renewal (no checkout) starts one, a declined checkout only says so. A checkout
 * already paid keeps everything as it is. `subscriptionId`: the provider subscription the checkout started.
 */
export function decidePaymentOutcome(
  account: Account,
  payment: PaymentRecord | undefined,
  outcome: PaymentOutcome,
  now: Date,
  gracefulPeriodDays: number,
  subscriptionId: string | null = null,
): BillingChange & { actor: string } {
  const actor = payment?.actor || SYSTEM_ACTOR;
  const change: BillingChange & { actor: string } = { actor, audits: [], alerts: [] };
  if (payment?.state === "paid") return change;
  // A failed or cancelled checkout may still be paid (an async payment arriving late); nothing else.
  if ((payment?.state === "cancelled" || payment?.state === "failed") && outcome !== "paid") return change;
  if (payment) change.paymentState = outcome;
  if (outcome === "paid") {
    if (payment) {
      const bought = applyPurchase(account, payment.purchase, subscriptionId, now);
      change.account = bought.account;
      change.audits.push(...bought.audits);
    }
    const reset = resetGracefulPeriod(account.graceful);
    if (reset) {
      change.account = { ...change.account, graceful: reset };
      change.audits.push({ operation: "graceful-period.reset", object: GRACEFUL_TEXTS.resetObject });
      change.alerts.push(GRACEFUL_TEXTS.resetAlert);
    }
  }
  if (outcome === "failed" && payment) {
    // A declined extra (an upgrade, storage packs) is just declined: what the customer has stays paid
    // for, so backups are not put at risk. Only a failed renewal starts the graceful period.
    change.alerts.push(GRACEFUL_TEXTS.declinedAlert);
  } else if (outcome === "failed") {
    const started = startGracefulPeriod(account.graceful, now, gracefulPeriodDays);
    if (started) {
      change.account = { graceful: started };
      change.audits.push({
        operation: "graceful-period.started",
        object: GRACEFUL_TEXTS.startedObject(started.stopsAt),
        failureReason: "Payment failed",
      });
      change.alerts.push(GRACEFUL_TEXTS.startedAlert(started.stopsAt));
    }
  }
  if (outcome === "pending" && payment && payment.state !== "open") delete change.paymentState;
  return change;
}
