/**
 * Billing state in Firestore. Region database, under the organisation: `payments/{checkoutId}` (one per
 * checkout, its state), `paymentEvents/{eventId}` (every applied payment-provider event, so a replay
 * changes nothing), changed in the transaction `changes.ts` opens with the account (through the
 * organisations service), the audit entries (through the audit service) and the billing alerts (through
 * the resources module). Global database: `paymentCheckouts/{checkoutId}`, the local sandbox provider's
 * checkouts (its page knows only the checkout id).
 */
import type { Transaction } from "firebase-admin/firestore";
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
