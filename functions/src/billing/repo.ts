/**
 * Billing state in Firestore. Region database, under the organisation: `payments/{checkoutId}` (one per
 * checkout, its state), `paymentEvents/{eventId}` (every applied payment-provider event, so a replay
 * changes nothing), changed in the transaction `changes.ts` opens with the account (through the
 * organisations service), the audit entries (through the audit service) and the billing alerts (through
 * the resources module); `billingCharges/{chargeId}`, the units added automatically that the payment
 * provider's subscription must follow (written with the addition, sent by `charges.ts`). Global database:
 * `paymentCheckouts/{checkoutId}` and `paymentSubscriptions/{subscriptionId}`, the local sandbox
 * provider's checkouts (its page knows only the checkout id) and the subscriptions they started.
 */
import { FieldValue, type Transaction } from "firebase-admin/firestore";
import type { CheckoutItem } from "./provider";
import type { PaymentState } from "@alpvault/contracts/billing";
import { globalDb } from "../lib/firebase";
import { organizationRef, type Scope } from "../lib/tenancy";
import { decodeDocument, readableDocuments } from "../lib/stored";
import {
  BILLING_CHARGE,
  PAYMENT,
  SANDBOX_CHECKOUT,
  SANDBOX_SUBSCRIPTION,
  type ChargeRecord,
  type PaymentRecord,
  type SandboxCheckout,
  type SandboxSubscription,
} from "./documents";

export type { ChargeRecord, PaymentRecord, SandboxCheckout, SandboxSubscription, Scope };

function payments(scope: Scope) {
  return organizationRef(scope).collection("payments");
}

function paymentEvents(scope: Scope) {
  return organizationRef(scope).collection("paymentEvents");
}

export async function createPayment(scope: Scope, payment: PaymentRecord): Promise<void> {
  const { checkoutId, ...data } = payment;
  await payments(scope).doc(checkoutId).create(data);
}

export async function readPayment(scope: Scope, checkoutId: string): Promise<PaymentRecord | undefined> {
  return decodeDocument(PAYMENT, await payments(scope).doc(checkoutId).get());
}

/** Whether the payment-provider event was applied already (read in `transaction`). */
export async function paymentEventSeen(
  transaction: Transaction,
  scope: Scope,
  eventId: string,
): Promise<boolean> {
  return (await transaction.get(paymentEvents(scope).doc(eventId))).exists;
}

/** The checkout's payment as read in `transaction` (none without a checkout). */
export async function readPaymentIn(
  transaction: Transaction,
  scope: Scope,
  checkoutId: string | null,
): Promise<PaymentRecord | undefined> {
  if (!checkoutId) return undefined;
  return decodeDocument(PAYMENT, await transaction.get(payments(scope).doc(checkoutId)));
}

/** Records the event as applied, so a replay finds it and changes nothing. */
export function recordPaymentEvent(
  transaction: Transaction,
  scope: Scope,
  event: { eventId: string; type: string; checkoutId: string | null },
  at: Date,
): void {
  transaction.create(paymentEvents(scope).doc(event.eventId), {
    type: event.type,
    checkoutId: event.checkoutId,
    receivedAt: at.toISOString(),
  });
}

export function updatePaymentState(
  transaction: Transaction,
  scope: Scope,
  checkoutId: string,
  state: PaymentState,
  at: Date,
): void {
  transaction.update(payments(scope).doc(checkoutId), { state, updatedAt: at.toISOString() });
}

function sandboxCheckouts() {
  return globalDb().collection("paymentCheckouts");
}

export async function saveSandboxCheckout(checkout: SandboxCheckout): Promise<void> {
  const { checkoutId, ...data } = checkout;
  await sandboxCheckouts().doc(checkoutId).create(data);
}

export async function readSandboxCheckout(checkoutId: string): Promise<SandboxCheckout | undefined> {
  return decodeDocument(SANDBOX_CHECKOUT, await sandboxCheckouts().doc(checkoutId).get());
}

/**
 * Records the tester's choice, once per final outcome: resolves false when the checkout already has a
 * final outcome (only a pending one may still change).
 */
export async function recordSandboxOutcome(checkoutId: string, outcome: string): Promise<boolean> {
  const ref = sandboxCheckouts().doc(checkoutId);
  return globalDb().runTransaction(async (transaction) => {
    const checkout = decodeDocument(SANDBOX_CHECKOUT, await transaction.get(ref));
    if (!checkout || (checkout.outcome !== null && checkout.outcome !== "pending")) return false;
    transaction.update(ref, { outcome, outcomeAt: new Date().toISOString() });
    return true;
  });
}

function sandboxSubscriptions() {
  return globalDb().collection("paymentSubscriptions");
}

/** Starts the subscription of a completed sandbox checkout (once: a later event keeps it as it is). */
export async function startSandboxSubscription(
  subscription: Omit<SandboxSubscription, "appliedCharges">,
  at: Date,
): Promise<void> {
  const { subscriptionId, ...data } = subscription;
  const ref = sandboxSubscriptions().doc(subscriptionId);
  await globalDb().runTransaction(async (transaction) => {
    if ((await transaction.get(ref)).exists) return;
    transaction.create(ref, { ...data, status: "active", appliedCharges: [], createdAt: at.toISOString() });
  });
}

/** What a sandbox subscription's `applyCharge` meets: the subscription is unknown. */
export class SandboxSubscriptionMissing extends Error {
  constructor(subscriptionId: string) {
    super(`No such subscription: '${subscriptionId}'`);
    this.name = "SandboxSubscriptionMissing";
  }
}

/** What Stripe answers to a change of a canceled subscription. */
export class SandboxSubscriptionCanceled extends Error {
  constructor(subscriptionId: string) {
    super(
      `A canceled subscription can only update its cancellation_details and metadata ('${subscriptionId}')`,
    );
    this.name = "SandboxSubscriptionCanceled";
  }
}

/** Cancels a sandbox subscription (an unknown or canceled one is left as it is). */
export async function cancelSandboxSubscription(subscriptionId: string, at: Date): Promise<void> {
  const ref = sandboxSubscriptions().doc(subscriptionId);
  await globalDb().runTransaction(async (transaction) => {
    const subscription = decodeDocument(SANDBOX_SUBSCRIPTION, await transaction.get(ref));
    if (!subscription || subscription.status === "canceled") return;
    transaction.update(ref, { status: "canceled", canceledAt: at.toISOString() });
  });
}

/**
 * Adds the charge's units to the line of the same name and unit price (or a new line), once per charge id,
 * in one transaction.
 */
export async function applySandboxCharge(
  subscriptionId: string,
  chargeId: string,
  item: CheckoutItem,
): Promise<void> {
  const ref = sandboxSubscriptions().doc(subscriptionId);
  await globalDb().runTransaction(async (transaction) => {
    const subscription = decodeDocument(SANDBOX_SUBSCRIPTION, await transaction.get(ref));
    if (!subscription) throw new SandboxSubscriptionMissing(subscriptionId);
    if (subscription.status === "canceled") throw new SandboxSubscriptionCanceled(subscriptionId);
    const applied = subscription.appliedCharges;
    if (applied.includes(chargeId)) return;
    const items = subscription.items;
    const line = items.find(
      (candidate) => candidate.name === item.name && candidate.unitAmountUsd === item.unitAmountUsd,
    );
    if (line) line.quantity += item.quantity;
    else items.push({ ...item });
    transaction.update(ref, { items, appliedCharges: [...applied, chargeId] });
  });
}

function billingCharges(scope: Scope) {
  return organizationRef(scope).collection("billingCharges");
}

/** Records a charge with the change that adds its units (same transaction). */
export function createChargeIn(
  transaction: Transaction,
  scope: Scope,
  charge: Pick<ChargeRecord, "kind" | "item">,
  at: Date,
): void {
  transaction.create(billingCharges(scope).doc(), {
    ...charge,
    state: "pending",
    createdAt: at.toISOString(),
    attempts: 0,
    lastError: null,
  });
}

/**
 * The charges not sent yet, oldest first (one equality filter: no composite index); one that does not
 * decode is left out (logged) and stays pending.
 */
export async function pendingCharges(scope: Scope): Promise<ChargeRecord[]> {
  const snapshot = await billingCharges(scope).where("state", "==", "pending").get();
  return readableDocuments(BILLING_CHARGE, snapshot.docs).sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.chargeId.localeCompare(b.chargeId),
  );
}

/** The charges sent to a subscription (equality on one field: no composite index). */
export async function sentCharges(scope: Scope, subscriptionId: string): Promise<ChargeRecord[]> {
  const snapshot = await billingCharges(scope).where("subscriptionId", "==", subscriptionId).get();
  return readableDocuments(BILLING_CHARGE, snapshot.docs).filter((charge) => charge.state === "sent");
}

export async function markChargeSuperseded(scope: Scope, chargeId: string, at: Date): Promise<void> {
  await billingCharges(scope).doc(chargeId).update({ state: "superseded", supersededAt: at.toISOString() });
}

export async function markChargeSent(
  scope: Scope,
  chargeId: string,
  subscriptionId: string,
  at: Date,
): Promise<void> {
  await billingCharges(scope)
    .doc(chargeId)
    .update({ state: "sent", subscriptionId, sentAt: at.toISOString(), lastError: null });
}

export async function markChargeFailed(
  scope: Scope,
  chargeId: string,
  reason: string,
  at: Date,
): Promise<void> {
  await billingCharges(scope)
    .doc(chargeId)
    .update({ attempts: FieldValue.increment(1), lastError: reason, lastAttemptAt: at.toISOString() });
}
