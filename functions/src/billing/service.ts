/**
 * Billing rules: the plan catalogue, purchases (an upgrade with seats, or storage packs), their checkout
 * through the payment provider, the provider's signed webhook events (success applies the purchase and
 * resets the graceful period, a failure starts it), the auto-add-storage setting and the scheduled stop
 * of backups when a graceful period ends. Every change is audited in the transaction that makes it.
 */
import type { RegionId } from "@alpvault/contracts/regions";
import Stripe from "stripe";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { decodePurchase } from "@alpvault/contracts/schemas/billing";
import {
  BILLING_MESSAGES,
  CHECKOUT_QUERY_PARAMETER,
  plansCatalogue,
  purchaseAmountUsd,
  SEAT_TEXTS,
  type AutoAddSeatsResponse,
  type AutoAddStorageResponse,
  type CheckoutResponse,
  type Payment,
  type PlansResponse,
  type Purchase,
  type SandboxOutcome,
} from "@alpvault/contracts/billing";
import { isPaidPlan, planRank } from "@alpvault/contracts/plans";
import { DomainError } from "../lib/errors";
import type { Caller } from "../lib/caller";
import type { Scope } from "../lib/tenancy";
import {
  getRouting,
  NO_SEAT_OVERAGE,
  seatsOf,
  withAccount,
  type Account,
  type Organization,
  type OrganizationService,
} from "../organizations/service";
import { applyPaymentEvent, changeAccount } from "./changes";
import { seatCharge, seatItem, sendCharges, storagePackItem } from "./charges";
import { GRACEFUL_TEXTS, stopGracefulPeriod } from "./graceful";
import { decidePaymentOutcome, readPaymentEvent, record } from "./payment-events";
import { CHECKOUT_ID_PLACEHOLDER, type CheckoutItem, type PaymentProvider } from "./provider";
import * as repo from "./repo";
import type { PaymentRecord } from "./repo";
import {
  outcomeAllowed,
  sandboxEvent,
  sandboxPage,
  sandboxSubscriptionId,
  signPayload,
} from "./sandbox-provider";

export interface BillingDeps {
  organizations: OrganizationService;
  /** The region whose organisations this API serves (null: the global API, which serves none). */
  servingRegion: RegionId | null;
  regionApiUrl(regionId: RegionId): string;
  provider: PaymentProvider;
  /** The secret webhook signatures are checked with (Stripe's endpoint secret; the local one locally). */
  webhookSecret(): string;
  gracefulPeriodDays: number;
  /** The local sandbox provider's page and choices exist only in emulator mode. */
  sandbox: boolean;
  now?: () => Date;
}

/** Checks a purchase against the organisation's plan (docs/requirements.md#states-and-flows, #who-may-do-what); throws the text to show. */
export function checkPurchase(account: Account, purchase: Purchase): void {
  if (purchase.kind === "storage") {
    if (!isPaidPlan(account.planId)) throw DomainError.forbidden(BILLING_MESSAGES.storageNeedsPaidPlan);
    return;
  }
  if (planRank(purchase.planId) < planRank(account.planId))
    throw DomainError.forbidden(BILLING_MESSAGES.downgrade);
  if (purchase.planId === "matterhorn") throw DomainError.invalid(BILLING_MESSAGES.freePlanNotSold);
  if (isPaidPlan(account.planId) && purchase.seats < account.seats) {
    throw DomainError.forbidden(BILLING_MESSAGES.fewerSeats);
  }
  if (purchase.planId === account.planId && purchase.seats === account.seats) {
    throw DomainError.invalid(BILLING_MESSAGES.alreadyOnPlan);
  }
}

function checkoutItems(purchase: Purchase): CheckoutItem[] {
  return [
    purchase.kind === "storage" ? storagePackItem(purchase.packs) : seatItem(purchase.planId, purchase.seats),
  ];
}

/** The return address with `?checkout=<placeholder>` (any previous checkout parameter dropped). */
function returnAddress(returnUrl: unknown): string {
  if (typeof returnUrl !== "string" || returnUrl.length > 2000) {
    throw DomainError.invalid(BILLING_MESSAGES.invalidReturnUrl);
  }
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    throw DomainError.invalid(BILLING_MESSAGES.invalidReturnUrl);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw DomainError.invalid(BILLING_MESSAGES.invalidReturnUrl);
  }
  url.searchParams.delete(CHECKOUT_QUERY_PARAMETER);
  url.hash = "";
  const separator = url.search ? "&" : "?";
  return `${url.href}${separator}${CHECKOUT_QUERY_PARAMETER}=${CHECKOUT_ID_PLACEHOLDER}`;
}

function publicPayment(payment: PaymentRecord): Payment {
  const { actor: _actor, ...rest } = payment;
  return rest;
}

/** The service's dependencies with the clock filled in. */
type BillingContext = BillingDeps & { now: () => Date };

/** Verifies the signature (400 otherwise, nothing changed) and applies the event once. */
async function handleWebhook(
  deps: BillingContext,
  rawBody: Buffer | string | undefined,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean; ignored: boolean }> {
  if (!rawBody || !signature) throw DomainError.invalid(BILLING_MESSAGES.invalidSignature);
  let event: { id: string; type: string; data: { object: unknown } };
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, deps.webhookSecret());
  } catch (cause) {
    throw DomainError.invalid(BILLING_MESSAGES.invalidSignature, cause);
  }
  const effect = readPaymentEvent(event);
  // Each region's API has its own webhook endpoint and handles its own organisations' events.
  const routing = effect ? await getRouting(effect.organizationId) : undefined;
  if (!effect || !routing || routing.regionId !== deps.servingRegion) {
    return { received: true, duplicate: false, ignored: true };
  }
  const organization = await withAccount(routing);
  const at = deps.now();
  const result = await applyPaymentEvent(
    organization,
    { eventId: event.id, type: event.type, checkoutId: effect.checkoutId },
    at,
    (account, payment) =>
      decidePaymentOutcome(
        account,
        payment,
        effect.outcome,
        at,
        deps.gracefulPeriodDays,
        effect.subscriptionId,
      ),
  );
  return { received: true, duplicate: result === "duplicate", ignored: false };
}

async function checkout(
  deps: BillingContext,
  caller: Caller,
  organizationId: string,
  body: unknown,
): Promise<CheckoutResponse> {
  const request = record(body);
  const purchase = decodePurchase(request.purchase);
  if (!purchase) throw DomainError.invalid(BILLING_MESSAGES.invalidPurchase);
  const returnUrl = returnAddress(request.returnUrl);
  const organization = await deps.organizations.requireAdmin(caller, organizationId);
  checkPurchase(organization, purchase);
  const actor = caller.email;
  const { checkoutId, url } = await deps.provider.createCheckout({
    organizationId,
    items: checkoutItems(purchase),
    successUrl: returnUrl,
    cancelUrl: returnUrl,
    metadata: {
      organizationId,
      regionId: organization.regionId,
      purchase: JSON.stringify(purchase),
      actor,
    },
    regionApiUrl: deps.regionApiUrl(organization.regionId),
  });
  const at = deps.now().toISOString();
  await repo.createPayment(organization, {
    checkoutId,
    state: "open",
    purchase,
    amountUsd: purchaseAmountUsd(purchase),
    createdAt: at,
    updatedAt: at,
    actor,
  });
  return { checkoutId, url };
}

async function payment(
  deps: BillingContext,
  caller: Caller,
  organizationId: string,
  checkoutId: string,
): Promise<Payment> {
  const organization = await deps.organizations.requireAdmin(caller, organizationId);
  const stored = await repo.readPayment(organization, checkoutId);
  if (!stored) throw DomainError.notFound(BILLING_MESSAGES.paymentNotFound);
  return publicPayment(stored);
}

async function setAutoAddStorage(
  deps: BillingContext,
  caller: Caller,
  organizationId: string,
  body: unknown,
): Promise<AutoAddStorageResponse> {
  const enabled = record(body).enabled;
  if (typeof enabled !== "boolean") throw DomainError.invalid(BILLING_MESSAGES.invalidSetting);
  const organization = await deps.organizations.requireAdmin(caller, organizationId);
  const actor = caller.email;
  return changeAccount(organization, actor, deps.now(), (account) => ({
    result: { autoAddStorage: enabled },
    change:
      account.autoAddStorage === enabled
        ? { audits: [], alerts: [] }
        : {
            account: { autoAddStorage: enabled },
            audits: [
              {
                operation: "storage-settings.updated",
                object: `Auto-add storage ${enabled ? "enabled" : "disabled"}`,
              },
            ],
            alerts: [],
          },
  }));
}

/**
 * The auto-add-seats setting (paid plans). Turned on while mailboxes are beyond the seats, it adds their
 * seats at once, in the same transaction; the next syncs add seats for new mailboxes.
 */
async function setAutoAddSeats(
  deps: BillingContext,
  caller: Caller,
  organizationId: string,
  body: unknown,
): Promise<AutoAddSeatsResponse> {
  // The caller's rights first: another organisation's id learns nothing from the body's check.
  const organization = await deps.organizations.requireAdmin(caller, organizationId);
  const enabled = record(body).enabled;
  if (typeof enabled !== "boolean") throw DomainError.invalid(BILLING_MESSAGES.invalidSetting);
  return changeAccount(organization, caller.email, deps.now(), (account) => {
    if (enabled && !isPaidPlan(account.planId)) {
      throw DomainError.forbidden(BILLING_MESSAGES.seatsNeedPaidPlan);
    }
    if (account.autoAddSeats === enabled) {
      return { result: { autoAddSeats: enabled }, change: { audits: [], alerts: [] } };
    }
    const setting = {
      operation: "seat-settings.updated" as const,
      object: SEAT_TEXTS.settingObject(enabled),
    };
    const missing = enabled ? account.seatOverage.unseated.length : 0;
    const seats = seatsOf(account);
    return {
      result: { autoAddSeats: enabled },
      change:
        missing > 0
          ? {
              account: { autoAddSeats: enabled, seats: seats + missing, seatOverage: NO_SEAT_OVERAGE },
              audits: [
                setting,
                { operation: "seats.added", object: SEAT_TEXTS.addedObject(seats, seats + missing) },
              ],
              alerts: [SEAT_TEXTS.addedAlert(missing, seats + missing)],
              charges: [seatCharge(account.planId, missing)],
            }
          : { account: { autoAddSeats: enabled }, audits: [setting], alerts: [] },
    };
  });
}

/** The sandbox provider's checkout page (local stack only). */
async function sandboxCheckoutPage(deps: BillingContext, checkoutId: string): Promise<string> {
  if (!deps.sandbox) throw DomainError.notFound(BILLING_MESSAGES.checkoutNotFound);
  const checkout = await repo.readSandboxCheckout(checkoutId);
  if (!checkout) throw DomainError.notFound(BILLING_MESSAGES.checkoutNotFound);
  return sandboxPage(checkout);
}

/**
 * The tester's choice on the sandbox page: the event Stripe would send for it, signed with the webhook
 * secret and handled by the webhook handler. Answers the address to send the browser back to.
 */
async function sandboxChoose(
  deps: BillingContext,
  checkoutId: string,
  outcome: SandboxOutcome,
): Promise<string> {
  if (!deps.sandbox) throw DomainError.notFound(BILLING_MESSAGES.checkoutNotFound);
  const checkout = await repo.readSandboxCheckout(checkoutId);
  if (!checkout) throw DomainError.notFound(BILLING_MESSAGES.checkoutNotFound);
  if (!outcomeAllowed(checkout, outcome)) throw DomainError.conflict(BILLING_MESSAGES.checkoutClosed);
  if (!(await repo.recordSandboxOutcome(checkoutId, outcome))) {
    throw DomainError.conflict(BILLING_MESSAGES.checkoutClosed);
  }
  const at = deps.now();
  // A completed checkout (paid, or paid later) starts its subscription, as Stripe's does.
  if (outcome === "success" || outcome === "pending") {
    await repo.startSandboxSubscription(
      {
        subscriptionId: sandboxSubscriptionId(checkoutId),
        organizationId: checkout.organizationId,
        items: checkout.items,
      },
      at,
    );
  }
  const payload = JSON.stringify(sandboxEvent(checkout, outcome, at));
  await handleWebhook(deps, payload, signPayload(payload, deps.webhookSecret(), at));
  return outcome === "cancelled" ? checkout.cancelUrl : checkout.successUrl;
}

export function billingService(deps: BillingDeps) {
  const context: BillingContext = { ...deps, now: deps.now ?? (() => new Date()) };
  return {
    handleWebhook: (rawBody: Buffer | string | undefined, signature: string | undefined) =>
      handleWebhook(context, rawBody, signature),
    plans: (): PlansResponse => plansCatalogue(),
    checkout: (caller: Caller, organizationId: string, body: unknown) =>
      checkout(context, caller, organizationId, body),
    payment: (caller: Caller, organizationId: string, checkoutId: string) =>
      payment(context, caller, organizationId, checkoutId),
    setAutoAddStorage: (caller: Caller, organizationId: string, body: unknown) =>
      setAutoAddStorage(context, caller, organizationId, body),
    setAutoAddSeats: (caller: Caller, organizationId: string, body: unknown) =>
      setAutoAddSeats(context, caller, organizationId, body),
    /** Sends the organisation's automatic additions to its subscription (the dispatcher's billing job). */
    sendCharges: (organization: Organization) => sendCharges(organization, context.provider, context.now()),
    sandboxPage: (checkoutId: string) => sandboxCheckoutPage(context, checkoutId),
    sandboxChoose: (checkoutId: string, outcome: SandboxOutcome) =>
      sandboxChoose(context, checkoutId, outcome),
  };
}

export type BillingService = ReturnType<typeof billingService>;

/**
 * Stops the organisation's backups when its graceful period is over (audited, with an alert): true when it
 * stopped them now. The dispatcher calls it for each organisation of its region.
 */
export async function endGracefulPeriodIfOver(
  scope: Scope,
  account: Pick<Account, "graceful">,
  now: Date,
): Promise<boolean> {
  if (!stopGracefulPeriod(account.graceful, now)) return false;
  return changeAccount(scope, SYSTEM_ACTOR, now, (current) => {
    const next = stopGracefulPeriod(current.graceful, now);
    return next
      ? {
          result: true,
          change: {
            account: { graceful: next },
            audits: [{ operation: "backups.stopped", object: GRACEFUL_TEXTS.stoppedObject }],
            alerts: [GRACEFUL_TEXTS.stoppedAlert],
          },
        }
      : { result: false, change: { audits: [], alerts: [] } };
  });
}
