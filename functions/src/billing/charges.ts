/**
 * Automatic additions billed (docs/requirements.md "Automatic additions are billed"). Seats added by
 * auto-add seats and storage packs added by auto-add storage are each recorded as a charge in the same
 * transaction as the addition (`BillingChange.charges`), then sent to the payment provider, which raises
 * the line of the plan's subscription (prorated for the current period). Sending happens at every run of
 * the region's dispatcher, oldest charge first, one at a time: a charge the provider refused or did not
 * answer stays pending with its attempts and the error's type, and the next run tries it again (the
 * provider applies a charge id once, so a retry after a lost answer never bills twice). An organisation
 * without a subscription (its plan was not bought through a checkout) keeps its charges until it has one.
 */
import { PLANS, STORAGE_PACK_PRICE_USD, type PlanId } from "@alpvault/contracts/plans";
import type { Scope } from "../lib/tenancy";
import type { Account } from "../organizations/service";
import type { CheckoutItem, PaymentProvider } from "./provider";
import * as repo from "./repo";
import type { ChargeRecord } from "./repo";

/** A charge as a change records it. */
export type ChargeDraft = Pick<ChargeRecord, "kind" | "item">;

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
  /** Charges left pending after a refusal. */
  pending: number;
  failed: boolean;
}

/** Sends the organisation's pending charges to its subscription, in order, stopping at the first refusal. */
export async function sendCharges(
  organization: Scope & Pick<Account, "billingSubscriptionId">,
  provider: Pick<PaymentProvider, "applyCharge">,
  now: Date,
): Promise<ChargesSent> {
  const subscriptionId = organization.billingSubscriptionId;
  // Without a subscription there is nowhere to send them (nor any reason to read them at every run).
  if (!subscriptionId) return { sent: 0, pending: 0, failed: false };
  const pending = await repo.pendingCharges(organization);
  let sent = 0;
  for (const charge of pending) {
    try {
      await provider.applyCharge({ subscriptionId, chargeId: charge.chargeId, item: charge.item });
    } catch (error) {
      await repo.markChargeFailed(organization, charge.chargeId, errorType(error), now);
      return { sent, pending: pending.length - sent, failed: true };
    }
    await repo.markChargeSent(organization, charge.chargeId, subscriptionId, now);
    sent += 1;
  }
  return { sent, pending: 0, failed: false };
}
