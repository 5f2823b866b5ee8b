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
import { isPaymentState, type Payment, type PaymentState } from "@alpvault/contracts/billing";
import { decodePurchase } from "@alpvault/contracts/schemas/billing";
import { globalDb } from "../lib/firebase";
import { organizationRef, type Scope } from "../lib/tenancy";

export type { Scope };

/** A payment as stored: the answer of the payments route plus who started it. */
export interface PaymentRecord extends Payment {
  /** The admin who started the checkout: the actor of the changes its payment causes. */
  actor: string;
}

function payments(scope: Scope) {
  return organizationRef(scope).collection("payments");
}

function paymentEvents(scope: Scope) {
  return organizationRef(scope).collection("paymentEvents");
}

function decodePayment(id: string, data: unknown): PaymentRecord | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const value = data as Record<string, unknown>;
  const purchase = decodePurchase(value.purchase);
  if (
    !purchase ||
    !isPaymentState(value.state) ||
    typeof value.createdAt !== "string" ||
    typeof value.updatedAt !== "string"
  ) {
    return undefined;
  }
  return {
    checkoutId: id,
    state: value.state,
    purchase,
    amountUsd: typeof value.amountUsd === "number" ? value.amountUsd : 0,
    createdAt: value.createdAt,
    updatedAt: value.updatedAt,
    actor: typeof value.actor === "string" ? value.actor : "",
  };
}

export async function createPayment(scope: Scope, payment: PaymentRecord): Promise<void> {
  const { checkoutId, ...data } = payment;
  await payments(scope).doc(checkoutId).create(data);
}

export async function readPayment(scope: Scope, checkoutId: string): Promise<PaymentRecord | undefined> {
  const snapshot = await payments(scope).doc(checkoutId).get();
  return snapshot.exists ? decodePayment(checkoutId, snapshot.data()) : undefined;
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
  const snapshot = await transaction.get(payments(scope).doc(checkoutId));
  return snapshot.exists ? decodePayment(checkoutId, snapshot.data()) : undefined;
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

/** A checkout of the local sandbox payment provider (global database; its page knows only the id). */
export interface SandboxCheckout {
  checkoutId: string;
  organizationId: string;
  items: { name: string; quantity: number; unitAmountUsd: number }[];
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  createdAt: string;
  /** The last outcome the tester chose; null while the checkout is open. */
  outcome: string | null;
}

function sandboxCheckouts() {
  return globalDb().collection("paymentCheckouts");
}

export async function saveSandboxCheckout(checkout: SandboxCheckout): Promise<void> {
  const { checkoutId, ...data } = checkout;
  await sandboxCheckouts().doc(checkoutId).create(data);
}

export async function readSandboxCheckout(checkoutId: string): Promise<SandboxCheckout | undefined> {
  const snapshot = await sandboxCheckouts().doc(checkoutId).get();
  if (!snapshot.exists) return undefined;
  const data = snapshot.data() as Record<string, unknown>;
  if (typeof data.organizationId !== "string" || typeof data.successUrl !== "string") return undefined;
  return {
    checkoutId,
    organizationId: data.organizationId,
    items: Array.isArray(data.items) ? (data.items as SandboxCheckout["items"]) : [],
    metadata: (data.metadata ?? {}) as Record<string, string>,
    successUrl: data.successUrl,
    cancelUrl: typeof data.cancelUrl === "string" ? data.cancelUrl : data.successUrl,
    createdAt: typeof data.createdAt === "string" ? data.createdAt : "",
    outcome: typeof data.outcome === "string" ? data.outcome : null,
  };
}

/**
 * Records the tester's choice, once per final outcome: resolves false when the checkout already has a
 * final outcome (only a pending one may still change).
 */
export async function recordSandboxOutcome(checkoutId: string, outcome: string): Promise<boolean> {
  const ref = sandboxCheckouts().doc(checkoutId);
  return globalDb().runTransaction(async (transaction) => {
    const snapshot = await transaction.get(ref);
    const previous: unknown = snapshot.get("outcome");
    if (!snapshot.exists || (typeof previous === "string" && previous !== "pending")) return false;
    transaction.update(ref, { outcome, outcomeAt: new Date().toISOString() });
    return true;
  });
}

/** A sandbox subscription: the checkout's lines, raised by the charges applied to it (each id once). */
export interface SandboxSubscription {
  subscriptionId: string;
  organizationId: string;
  items: CheckoutItem[];
  appliedCharges: string[];
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
    const snapshot = await transaction.get(ref);
    if (!snapshot.exists || snapshot.get("status") === "canceled") return;
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
    const snapshot = await transaction.get(ref);
    if (!snapshot.exists) throw new SandboxSubscriptionMissing(subscriptionId);
    if (snapshot.get("status") === "canceled") throw new SandboxSubscriptionCanceled(subscriptionId);
    const applied = (snapshot.get("appliedCharges") ?? []) as string[];
    if (applied.includes(chargeId)) return;
    const items = ((snapshot.get("items") ?? []) as CheckoutItem[]).map((line) => ({ ...line }));
    const line = items.find(
      (candidate) => candidate.name === item.name && candidate.unitAmountUsd === item.unitAmountUsd,
    );
    if (line) line.quantity += item.quantity;
    else items.push({ ...item });
    transaction.update(ref, { items, appliedCharges: [...applied, chargeId] });
  });
}

/** Units added automatically, waiting for (or sent to) the payment provider's subscription. */
export interface ChargeRecord {
  chargeId: string;
  kind: "seats" | "storage";
  item: CheckoutItem;
  /** Superseded: a seat charge of a plan replaced before it was sent (the new plan covers the seats). */
  state: "pending" | "sent" | "superseded";
  createdAt: string;
  /** Tries that failed so far, and why the last one did (the provider's error type, no customer data). */
  attempts: number;
  lastError: string | null;
}

function billingCharges(scope: Scope) {
  return organizationRef(scope).collection("billingCharges");
}

function decodeCharge(id: string, data: Record<string, unknown>): ChargeRecord | undefined {
  const item = (data.item ?? {}) as Record<string, unknown>;
  if (
    (data.kind !== "seats" && data.kind !== "storage") ||
    (data.state !== "pending" && data.state !== "sent" && data.state !== "superseded") ||
    typeof data.createdAt !== "string" ||
    typeof item.name !== "string" ||
    typeof item.quantity !== "number" ||
    typeof item.unitAmountUsd !== "number"
  ) {
    return undefined;
  }
  return {
    chargeId: id,
    kind: data.kind,
    item: { name: item.name, quantity: item.quantity, unitAmountUsd: item.unitAmountUsd },
    state: data.state,
    createdAt: data.createdAt,
    attempts: typeof data.attempts === "number" ? data.attempts : 0,
    lastError: typeof data.lastError === "string" ? data.lastError : null,
  };
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

/** The charges not sent yet, oldest first (one equality filter: no composite index). */
export async function pendingCharges(scope: Scope): Promise<ChargeRecord[]> {
  const snapshot = await billingCharges(scope).where("state", "==", "pending").get();
  return snapshot.docs
    .flatMap((doc) => decodeCharge(doc.id, doc.data()) ?? [])
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.chargeId.localeCompare(b.chargeId));
}

/** The charges sent to a subscription (equality on one field: no composite index). */
export async function sentCharges(scope: Scope, subscriptionId: string): Promise<ChargeRecord[]> {
  const snapshot = await billingCharges(scope).where("subscriptionId", "==", subscriptionId).get();
  return snapshot.docs
    .flatMap((doc) => decodeCharge(doc.id, doc.data()) ?? [])
    .filter((charge) => charge.state === "sent");
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
