/**
 * Billing state in Firestore. Region database, under the organisation: `payments/{checkoutId}` (one per
 * checkout, its state), `paymentEvents/{eventId}` (every applied payment-provider event, so a replay
 * changes nothing), the account (organizations/repo.ts), audit entries and alerts, all changed in one
 * transaction. Global database: `paymentCheckouts/{checkoutId}`, the local sandbox provider's checkouts
 * (its page knows only the checkout id).
 */
import type { Transaction } from "firebase-admin/firestore";
import type { AuditOperation } from "@alpvault/contracts/audit";
import { isPaymentState, type Payment, type PaymentState } from "@alpvault/contracts/billing";
import { decodePurchase } from "@alpvault/contracts/schemas/billing";
import { regionDatabaseId, type RegionId } from "@alpvault/contracts/regions";
import { auditedTransaction, recordAudit } from "../audit/repo";
import { globalDb, regionDb } from "../lib/firebase";
import { organizationRef, type Scope } from "../lib/tenancy";
import { decodeAccount, readAccount, writeAccount, type Account } from "../organizations/repo";

export type { Scope };

/** A payment as stored: the answer of the payments route plus who started it. */
export interface PaymentRecord extends Payment {
  /** The admin who started the checkout: the actor of the changes its payment causes. */
  actor: string;
}

function payments(scope: Scope) {
  return organizationRef(scope).collection("payments");
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

/** An audit entry of a billing change (recorded in the same transaction as the change). */
export interface BillingAudit {
  operation: AuditOperation;
  object: string;
  failureReason?: string;
}

/** What one event or rule changes; everything in it is written in one transaction. */
export interface BillingChange {
  account?: Partial<Account>;
  paymentState?: PaymentState;
  audits: BillingAudit[];
  /** Alert messages for the resources screen (kind "billing"). */
  alerts: string[];
}

function writeChange(
  transaction: Transaction,
  scope: Scope,
  change: BillingChange,
  actor: string,
  at: Date,
): void {
  if (change.account && Object.keys(change.account).length > 0) {
    writeAccount(transaction, scope, change.account);
  }
  for (const audit of change.audits) {
    recordAudit(transaction, scope, { ...audit, actor, date: at });
  }
  for (const message of change.alerts) {
    transaction.create(organizationRef(scope).collection("alerts").doc(), {
      createdAt: at.toISOString(),
      kind: "billing",
      message,
      read: false,
    });
  }
}

/**
 * Applies one payment-provider event exactly once: the event id is recorded with the change, so a
 * replayed event finds it and changes nothing. `decide` sees the account and the checkout's payment
 * (when the event is about one) as read in the transaction.
 */
export async function applyPaymentEvent(
  scope: Scope,
  event: { eventId: string; type: string; checkoutId: string | null },
  at: Date,
  decide: (account: Account, payment: PaymentRecord | undefined) => BillingChange & { actor: string },
): Promise<"applied" | "duplicate"> {
  const eventRef = organizationRef(scope).collection("paymentEvents").doc(event.eventId);
  const paymentRef = event.checkoutId ? payments(scope).doc(event.checkoutId) : undefined;
  return auditedTransaction(scope, async (transaction) => {
    const seen = await transaction.get(eventRef);
    if (seen.exists) return "duplicate";
    const paymentSnapshot = paymentRef ? await transaction.get(paymentRef) : undefined;
    const payment =
      paymentSnapshot?.exists && event.checkoutId
        ? decodePayment(event.checkoutId, paymentSnapshot.data())
        : undefined;
    const account = await readAccount(scope, transaction);
    const change = decide(account, payment);
    transaction.create(eventRef, {
      type: event.type,
      checkoutId: event.checkoutId,
      receivedAt: at.toISOString(),
    });
    if (paymentRef && payment && change.paymentState && change.paymentState !== payment.state) {
      transaction.update(paymentRef, { state: change.paymentState, updatedAt: at.toISOString() });
    }
    writeChange(transaction, scope, change, change.actor, at);
    return "applied";
  });
}

/** Reads the account and applies `decide`'s change to it in one transaction (settings, graceful stop). */
export async function changeAccount<T>(
  scope: Scope,
  actor: string,
  at: Date,
  decide: (account: Account) => { change: BillingChange; result: T },
): Promise<T> {
  return auditedTransaction(scope, async (transaction) => {
    const account = await readAccount(scope, transaction);
    const { change, result } = decide(account);
    writeChange(transaction, scope, change, actor, at);
    return result;
  });
}

/** Organisations of a region whose graceful period runs (the scheduled stop looks at them). */
export async function organizationsInGracefulPeriod(
  regionId: RegionId,
): Promise<{ scope: Scope; account: Account }[]> {
  const snapshot = await regionDb(regionDatabaseId(regionId))
    .collection("organizations")
    .where("account.graceful.state", "==", "started")
    .get();
  return snapshot.docs.map((doc) => ({
    scope: { organizationId: doc.id, regionId },
    account: decodeAccount(doc.get("account")),
  }));
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
