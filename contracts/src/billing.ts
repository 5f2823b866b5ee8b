/**
 * Plans catalogue, purchases (upgrade, storage add-on), payments and the auto-add-storage setting (docs/requirements.md#screens-and-navigation
 * plans and profile screens, docs/requirements.md#states-and-flows payment outcomes and graceful period, #errors-and-messages texts): request and response
 * shapes shared by web and functions, and the texts both show.
 */
import { dayText } from "./dates";
import {
  PLANS,
  PLAN_ORDER,
  STORAGE_PACK_BYTES,
  STORAGE_PACK_PRICE_USD,
  isPremium,
  seatsSubtotalUsd,
  storagePacksSubtotalUsd,
  type Plan,
  type PlanId,
} from "./plans";
/** Seats and packs one purchase may hold. */
export const MAX_SEATS = 10_000;
export const MAX_STORAGE_PACKS = 1_000;

/**
 * A payment's states: `open` until the payment provider reports; then the required outcomes (docs/requirements.md#states-and-flows): `paid`
 * (success), `failed`, `pending` (the provider waits for the money), `cancelled`.
 */
export const PAYMENT_STATES = ["open", "pending", "paid", "failed", "cancelled"] as const;

/** What a checkout buys: a plan with a number of seats, or storage packs added to the current plan. */
export type Purchase =
  { kind: "upgrade"; planId: PlanId; seats: number } | { kind: "storage"; packs: number };

/** A payment's state (`PAYMENT_STATES`). */
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** GET /v1/plans. */
export interface PlanOffer extends Plan {
  premium: boolean;
}

export interface PlansResponse {
  plans: PlanOffer[];
  storagePack: { bytes: number; priceMonthlyUsd: number };
  currency: "USD";
}

/** POST /v1/organizations/{id}/checkout. */
export interface CheckoutRequest {
  purchase: Purchase;
  /** Where the payment page sends the admin back to, with `?checkout=<checkoutId>` added. */
  returnUrl: string;
}

export interface CheckoutResponse {
  checkoutId: string;
  /** The payment page to open. */
  url: string;
}

/** GET /v1/organizations/{id}/payments/{checkoutId}. */
export interface Payment {
  checkoutId: string;
  state: PaymentState;
  purchase: Purchase;
  /** Monthly amount in USD. */
  amountUsd: number;
  createdAt: string;
  updatedAt: string;
}

/** PUT /v1/organizations/{id}/settings/auto-add-storage. */
export interface AutoAddStorageRequest {
  enabled: boolean;
}

export interface AutoAddStorageResponse {
  autoAddStorage: boolean;
}

/** PUT /v1/organizations/{id}/settings/auto-add-seats (paid plans). */
export interface AutoAddSeatsResponse {
  autoAddSeats: boolean;
}

/** The query parameter the payment page returns with. */
export const CHECKOUT_QUERY_PARAMETER = "checkout";

/**
 * The signing secret of webhook events in the local stack (the sandbox payment provider signs with it,
 * the webhook route checks with it). Not a secret: production uses Stripe's endpoint secret.
 */
export const LOCAL_WEBHOOK_SECRET = "whsec_alpvault_local_sandbox_not_a_secret";

export const BILLING_MESSAGES = {
  paymentSuccessful: "Payment successful",
  storagePurchased: "Storage purchased",
  paymentFailed: "Oops! Your payment failed. Please try again or contact support.",
  storagePurchaseFailed: "The storage could not be purchased. Please try again or contact support.",
  paymentPending: "Your payment is pending. Your subscription changes as soon as the payment is confirmed.",
  paymentCancelled: "Payment cancelled. Nothing was charged.",
  autoAddStorageFailed: "An error occured, setting not updated.",
  autoAddStorageUpdated: "Setting updated",
  downgrade: "Downgrading is done by our support team. Please contact support to downgrade your plan.",
  fewerSeats: "Removing seats is done by our support team. Please contact support to reduce your seats.",
  alreadyOnPlan: "You are already on this plan. Choose more seats to add licenses.",
  freePlanNotSold: "The Matterhorn plan is free: there is nothing to pay.",
  storageNeedsPaidPlan:
    "Adding storage is not available on the free Matterhorn plan. Upgrade to Geneva or Zürich to add storage.",
  invalidPurchase: `A purchase is {kind: "upgrade", planId, seats} (1 to ${MAX_SEATS} seats) or {kind: "storage", packs} (1 to ${MAX_STORAGE_PACKS} packs).`,
  invalidReturnUrl: "returnUrl must be an http or https address.",
  invalidSetting: "enabled must be true or false.",
  seatsNeedPaidPlan:
    "Adding seats automatically is not available on the free Matterhorn plan. Upgrade to Geneva or Zürich to add seats.",
  paymentNotFound: "Payment not found",
  checkoutNotFound: "This checkout does not exist.",
  checkoutClosed: "This checkout is closed: its payment already has its final outcome.",
  invalidOutcome: "outcome must be one of: success, failed, pending, cancelled.",
  invalidSignature: "The webhook signature is invalid.",
  invalidEvent: "The webhook event could not be read.",
} as const;

/** The outcomes the local sandbox payment page offers (docs/requirements.md#states-and-flows payment outcomes). */
export const SANDBOX_OUTCOMES = ["success", "failed", "pending", "cancelled"] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** The plan catalogue with prices. */
export function plansCatalogue(): PlansResponse {
  return {
    plans: PLAN_ORDER.map((id) => ({ ...PLANS[id], premium: isPremium(id) })),
    storagePack: { bytes: STORAGE_PACK_BYTES, priceMonthlyUsd: STORAGE_PACK_PRICE_USD },
    currency: "USD",
  };
}

/** Monthly amount of a purchase in USD. */
export function purchaseAmountUsd(purchase: Purchase): number {
  return purchase.kind === "upgrade"
    ? seatsSubtotalUsd(PLANS[purchase.planId], purchase.seats)
    : storagePacksSubtotalUsd(purchase.packs);
}

export function isPaymentState(value: unknown): value is PaymentState {
  return typeof value === "string" && (PAYMENT_STATES as readonly string[]).includes(value);
}

/** What the console and the alerts say when the active mailboxes outnumber the seats. */
export const SEAT_TEXTS = {
  /** The audit entry's object when the count is first exceeded. */
  exceededObject: (used: number, seats: number) =>
    `${used} active mailboxes for ${seats} seat${seats === 1 ? "" : "s"}`,
  /** The stop date (an instant) is written as the console writes a day (`dayText`). */
  exceededAlert: (over: number, stopsAt: string | Date) =>
    `${over} mailbox${over === 1 ? " is" : "es are"} beyond your seats. They are backed up until ${dayText(stopsAt)}; add seats to keep them protected after that.`,
  addedObject: (from: number, to: number) => `Seats added automatically: ${from} to ${to}`,
  addedAlert: (added: number, to: number) =>
    `${added} seat${added === 1 ? " was" : "s were"} added automatically for new mailboxes (now ${to}).`,
  settingObject: (enabled: boolean) => `Auto-add seats ${enabled ? "enabled" : "disabled"}`,
} as const;

/** Texts of storage packs added automatically (auto-add storage, paid plans). */
export const STORAGE_TEXTS = {
  /** The audit entry's object. */
  addedObject: (from: number, to: number) => `Storage packs added automatically: ${from} to ${to}`,
  addedAlert: (added: number, to: number) =>
    `Your backups reached your storage maximum, so ${added} storage pack${added === 1 ? " of 100 GB was" : "s of 100 GB were"} added automatically (now ${to} storage pack${to === 1 ? "" : "s"}).`,
} as const;
