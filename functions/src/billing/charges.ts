/**
 * Automatic additions billed (docs/requirements.md "Automatic additions are billed"). Seats added by
 * auto-add seats and storage packs added by auto-add storage are each recorded as a charge in the same
 * transaction as the addition (`BillingChange.charges`), then sent to the payment provider, which raises
 * the line of the plan's subscription (prorated for the current period). Sending happens at every run of
 * the region's dispatcher, oldest charge first, one at a time: a charge the provider refused or did not
 * answer stays pending with its attempts and the error's type, and the next run tries it again (the
 * provider applies a charge id once, so a retry after a lost answer never bills twice). An organisation
 * without a subscription (its plan was not bought through a checkout) keeps its charges until it has one.
 *
 * A new plan bought at a checkout starts a new subscription: the previous plan's is cancelled first (with
 * the provider's credit for the unused period), the storage packs added automatically there move to the new
 * one, and seat charges still pending from before the purchase are superseded (the purchase set the seats).
 */
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { PLANS, STORAGE_PACK_PRICE_USD, type PlanId } from "@alpvault/contracts/plans";
import type { Scope } from "../lib/tenancy";
import type { Account } from "../organizations/service";
import { changeAccount, type ChargeDraft } from "./changes";
import type { CheckoutItem, PaymentProvider } from "./provider";
import * as repo from "./repo";

/** The line of a plan's seats (the checkout's and the automatic additions'). */
export function seatItem(planId: PlanId, quantity: number): CheckoutItem {
  const plan = PLANS[planId];
  return { name: `${plan.name} seat`, quantity, unitAmountUsd: plan.pricePerUserMonthlyUsd };
}

/** The line of 100 GB storage packs. */
export function storagePackItem(quantity: number): CheckoutItem {
  return { name: "Storage pack (100 GB)", quantity, unitAmountUsd: STORAGE_PACK_PRICE_USD };
}

export function seatCharge(planId: PlanId, quantity: number): ChargeDraft {
  return { kind: "seats", item: seatItem(planId, quantity) };
}

export function storageCharge(packs: number): ChargeDraft {
  return { kind: "storage", item: storagePackItem(packs) };
}

/** What a provider error says without its message (which may quote the request). */
function errorType(error: unknown): string {
  const value = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  const type = [value.type, value.code, value.name].find(
    (part): part is string => typeof part === "string" && part !== "",
  );
  return (type ?? "Error").slice(0, 100);
}

export interface ChargesSent {
  sent: number;
  /** Charges (or replaced subscriptions) left for the next run after a refusal. */
  pending: number;
  failed: boolean;
}

type BillingAccount = Pick<
  Account,
  "billingSubscriptionId" | "billingSubscriptionSince" | "replacedSubscriptions"
>;

/**
 * After the provider cancelled a replaced plan's subscription: forgets it, and moves the storage packs
 * added automatically there to the current subscription (a new pending charge), once: both in one
 * transaction that finds the subscription still listed.
 */
async function forgetReplaced(scope: Scope, subscriptionId: string, now: Date): Promise<void> {
  const packs = (await repo.sentCharges(scope, subscriptionId))
    .filter((charge) => charge.kind === "storage")
    .reduce((sum, charge) => sum + charge.item.quantity, 0);
  await changeAccount(scope, SYSTEM_ACTOR, now, (account) => {
    if (!account.replacedSubscriptions.includes(subscriptionId)) {
      return { change: { audits: [], alerts: [] }, result: undefined };
    }
    return {
      result: undefined,
      change: {
        account: {
          replacedSubscriptions: account.replacedSubscriptions.filter((id) => id !== subscriptionId),
        },
        audits: [],
        alerts: [],
        charges: packs > 0 ? [storageCharge(packs)] : [],
      },
    };
  });
}

/**
 * Sends what the organisation owes its provider: first the cancellation of replaced plans'
 * subscriptions, then the pending charges to the current subscription, in order, stopping at the first
 * refusal. Seat charges recorded before the current subscription's plan was paid are superseded: that
 * purchase set the seats (at least those in use when it started; a later sync adds and charges any more).
 */
export async function sendCharges(
  organization: Scope & BillingAccount,
  provider: Pick<PaymentProvider, "applyCharge" | "cancelSubscription">,
  now: Date,
): Promise<ChargesSent> {
  const replaced = organization.replacedSubscriptions;
  for (const [index, replacedId] of replaced.entries()) {
    try {
      await provider.cancelSubscription(replacedId);
    } catch {
      return { sent: 0, pending: replaced.length - index, failed: true };
    }
    await forgetReplaced(organization, replacedId, now);
  }
  const subscriptionId = organization.billingSubscriptionId;
  // Without a subscription there is nowhere to send them (nor any reason to read them at every run).
  if (!subscriptionId) return { sent: 0, pending: 0, failed: false };
  const pending = await repo.pendingCharges(organization);
  const since = organization.billingSubscriptionSince ?? "";
  let sent = 0;
  for (const [index, charge] of pending.entries()) {
    if (charge.kind === "seats" && charge.createdAt < since) {
      await repo.markChargeSuperseded(organization, charge.chargeId, now);
      continue;
    }
    try {
      await provider.applyCharge({ subscriptionId, chargeId: charge.chargeId, item: charge.item });
    } catch (error) {
      await repo.markChargeFailed(organization, charge.chargeId, errorType(error), now);
      return { sent, pending: pending.length - index, failed: true };
    }
    await repo.markChargeSent(organization, charge.chargeId, subscriptionId, now);
    sent += 1;
  }
  return { sent, pending: 0, failed: false };
}
