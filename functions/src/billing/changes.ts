/**
 * Billing changes, each one transaction of the organisation's region database (`auditedChange`): the
 * applied event and the payment's state (this module's repo), the account (the organisations service),
 * the audit entries, the alerts and the charges of automatic additions.
 */
import type { AuditOperation } from "@alpvault/contracts/audit";
import type { PaymentState } from "@alpvault/contracts/billing";
import type { Scope, Transaction } from "../lib/tenancy";
import { auditedChange, type RecordAudit } from "../audit/service";
import { readAccountIn, writeAccountIn, type Account } from "../organizations/service";
import { raiseAlertIn } from "../resources/in-transaction";
import * as repo from "./repo";
import type { ChargeRecord, PaymentRecord } from "./repo";

/** A charge as a change records it (sent later by `charges.ts`). */
export type ChargeDraft = Pick<ChargeRecord, "kind" | "item">;

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
  /** Units added automatically that the payment provider's subscription must follow (`charges.ts`). */
  charges?: ChargeDraft[];
}

function writeChange(
  transaction: Transaction,
  scope: Scope,
  audit: RecordAudit,
  change: BillingChange,
  actor: string,
  at: Date,
): void {
  if (change.account && Object.keys(change.account).length > 0) {
    writeAccountIn(transaction, scope, change.account);
  }
  for (const entry of change.audits) audit({ ...entry, actor, date: at });
  for (const charge of change.charges ?? []) repo.createChargeIn(transaction, scope, charge, at);
  for (const message of change.alerts) {
    raiseAlertIn(transaction, scope, { createdAt: at.toISOString(), kind: "billing", message, read: false });
  }
}

/**
 * Applies one payment-provider event exactly once: the event id is recorded with the change, so a
 * replayed event finds it and changes nothing. `decide` sees the account and the checkout's payment
 * (when the event is about one) as read in the transaction.
 */
export function applyPaymentEvent(
  scope: Scope,
  event: { eventId: string; type: string; checkoutId: string | null },
  at: Date,
  decide: (account: Account, payment: PaymentRecord | undefined) => BillingChange & { actor: string },
): Promise<"applied" | "duplicate"> {
  return auditedChange(scope, async (transaction, audit) => {
    if (await repo.paymentEventSeen(transaction, scope, event.eventId)) return "duplicate";
    const payment = await repo.readPaymentIn(transaction, scope, event.checkoutId);
    const account = await readAccountIn(transaction, scope);
    const change = decide(account, payment);
    repo.recordPaymentEvent(transaction, scope, event, at);
    if (payment && change.paymentState && change.paymentState !== payment.state) {
      repo.updatePaymentState(transaction, scope, payment.checkoutId, change.paymentState, at);
    }
    writeChange(transaction, scope, audit, change, change.actor, at);
    return "applied";
  });
}

/** Reads the account and applies `decide`'s change to it in one transaction (settings, graceful stop). */
export function changeAccount<T>(
  scope: Scope,
  actor: string,
  at: Date,
  decide: (account: Account) => { change: BillingChange; result: T },
): Promise<T> {
  return auditedChange(scope, async (transaction, audit) => {
    const account = await readAccountIn(transaction, scope);
    const { change, result } = decide(account);
    writeChange(transaction, scope, audit, change, actor, at);
    return result;
  });
}
