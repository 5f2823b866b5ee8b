/**
 * Billing rules: the plan catalogue, purchases (an upgrade with seats, or storage packs), their checkout
 * through the payment provider, the provider's signed webhook events (success applies the purchase and
 * resets the graceful period, a failure starts it), the auto-add-storage setting and the scheduled stop
 * of backups when a graceful period ends. Every change is audited in the transaction that makes it.
 */
import { REGION_IDS, type RegionId } from "@alpvault/contracts/regions";
import Stripe from "stripe";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { decodePurchase } from "@alpvault/contracts/schemas/billing";
import {
  BILLING_MESSAGES,
  CHECKOUT_QUERY_PARAMETER,
  plansCatalogue,
  purchaseAmountUsd,
  type AutoAddStorageResponse,
  type CheckoutResponse,
  type Payment,
  type PlansResponse,
  type Purchase,
  type SandboxOutcome,
} from "@alpvault/contracts/billing";
import { PLANS, STORAGE_PACK_PRICE_USD, planRank } from "@alpvault/contracts/plans";
import { DomainError } from "../lib/errors";
import type { Caller } from "../lib/caller";
import { getRouting, withAccount, type Account, type OrganizationService } from "../organizations/service";
import { GRACEFUL_TEXTS, resetGracefulPeriod, startGracefulPeriod, stopGracefulPeriod } from "./graceful";
import { CHECKOUT_ID_PLACEHOLDER, type CheckoutItem, type PaymentProvider } from "./provider";
import * as repo from "./repo";
import type { BillingAudit, BillingChange, PaymentRecord } from "./repo";
import { outcomeAllowed, sandboxEvent, sandboxPage, signPayload } from "./sandbox-provider";

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

/** What a provider event means for us. */
export type PaymentOutcome = "paid" | "pending" | "failed" | "cancelled";

export interface PaymentEffect {
  organizationId: string;
  checkoutId: string | null;
  outcome: PaymentOutcome;
}

const CHECKOUT_OUTCOMES: Record<string, PaymentOutcome> = {
  "checkout.session.async_payment_succeeded": "paid",
  "checkout.session.async_payment_failed": "failed",
  "checkout.session.expired": "cancelled",
};

function record(value: unknown): Record<string, unknown> {
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
    return { organizationId, checkoutId, outcome };
  }
  if (event.type === "invoice.payment_failed" || event.type === "invoice.paid") {
    const metadata = {
      ...record(object.metadata),
      ...record(record(object.subscription_details).metadata),
      ...record(record(record(object.parent).subscription_details).metadata),
    };
    const organizationId = text(metadata.organizationId);
    if (!organizationId) return undefined;
    return { organizationId, checkoutId: null, outcome: event.type === "invoice.paid" ? "paid" : "failed" };
  }
  return undefined;
}

/** The account changes a bought purchase makes, with their audit entries. */
export function applyPurchase(
  account: Account,
  purchase: Purchase,
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
  return { account: changes, audits };
}

/**
 * What one payment outcome changes: the checkout's state; on success the purchase and the end of a
 * graceful period; on failure the start of one. A checkout already paid keeps everything as it is.
 */
export function decidePaymentOutcome(
  account: Account,
  payment: PaymentRecord | undefined,
  outcome: PaymentOutcome,
  now: Date,
  gracefulPeriodDays: number,
): BillingChange & { actor: string } {
  const actor = payment?.actor || SYSTEM_ACTOR;
  const change: BillingChange & { actor: string } = { actor, audits: [], alerts: [] };
  if (payment?.state === "paid") return change;
  // A failed or cancelled checkout may still be paid (an async payment arriving late); nothing else.
  if ((payment?.state === "cancelled" || payment?.state === "failed") && outcome !== "paid") return change;
  if (payment) change.paymentState = outcome;
  if (outcome === "paid") {
    if (payment) {
      const bought = applyPurchase(account, payment.purchase);
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
  if (outcome === "failed") {
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

/** Checks a purchase against the organisation's plan (docs/requirements.md#states-and-flows, #who-may-do-what); throws the text to show. */
export function checkPurchase(account: Account, purchase: Purchase): void {
  if (purchase.kind === "storage") {
    if (account.planId === "matterhorn") throw DomainError.forbidden(BILLING_MESSAGES.storageNeedsPaidPlan);
    return;
  }
  if (planRank(purchase.planId) < planRank(account.planId))
    throw DomainError.forbidden(BILLING_MESSAGES.downgrade);
  if (purchase.planId === "matterhorn") throw DomainError.invalid(BILLING_MESSAGES.freePlanNotSold);
  if (account.planId !== "matterhorn" && purchase.seats < account.seats) {
    throw DomainError.forbidden(BILLING_MESSAGES.fewerSeats);
  }
  if (purchase.planId === account.planId && purchase.seats === account.seats) {
    throw DomainError.invalid(BILLING_MESSAGES.alreadyOnPlan);
  }
}

function checkoutItems(purchase: Purchase): CheckoutItem[] {
  if (purchase.kind === "storage") {
    return [
      { name: "Storage pack (100 GB)", quantity: purchase.packs, unitAmountUsd: STORAGE_PACK_PRICE_USD },
    ];
  }
  const plan = PLANS[purchase.planId];
  return [
    { name: `${plan.name} seat`, quantity: purchase.seats, unitAmountUsd: plan.pricePerUserMonthlyUsd },
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

export function billingService(deps: BillingDeps) {
  const now = deps.now ?? (() => new Date());

  /** Verifies the signature (400 otherwise, nothing changed) and applies the event once. */
  async function handleWebhook(
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
    const at = now();
    const result = await repo.applyPaymentEvent(
      organization,
      { eventId: event.id, type: event.type, checkoutId: effect.checkoutId },
      at,
      (account, payment) =>
        decidePaymentOutcome(account, payment, effect.outcome, at, deps.gracefulPeriodDays),
    );
    return { received: true, duplicate: result === "duplicate", ignored: false };
  }

  return {
    handleWebhook,

    plans(): PlansResponse {
      return plansCatalogue();
    },

    async checkout(caller: Caller, organizationId: string, body: unknown): Promise<CheckoutResponse> {
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
      const at = now().toISOString();
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
    },

    async payment(caller: Caller, organizationId: string, checkoutId: string): Promise<Payment> {
      const organization = await deps.organizations.requireAdmin(caller, organizationId);
      const payment = await repo.readPayment(organization, checkoutId);
      if (!payment) throw DomainError.notFound(BILLING_MESSAGES.paymentNotFound);
      return publicPayment(payment);
    },

    async setAutoAddStorage(
      caller: Caller,
      organizationId: string,
      body: unknown,
    ): Promise<AutoAddStorageResponse> {
      const enabled = record(body).enabled;
      if (typeof enabled !== "boolean") throw DomainError.invalid(BILLING_MESSAGES.invalidSetting);
      const organization = await deps.organizations.requireAdmin(caller, organizationId);
      const actor = caller.email;
      return repo.changeAccount(organization, actor, now(), (account) => ({
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
    },

    /** The sandbox provider's checkout page (local stack only). */
    async sandboxPage(checkoutId: string): Promise<string> {
      if (!deps.sandbox) throw DomainError.notFound(BILLING_MESSAGES.checkoutNotFound);
      const checkout = await repo.readSandboxCheckout(checkoutId);
      if (!checkout) throw DomainError.notFound(BILLING_MESSAGES.checkoutNotFound);
      return sandboxPage(checkout);
    },

    /**
     * The tester's choice on the sandbox page: the event Stripe would send for it, signed with the webhook
     * secret and handled by the webhook handler. Answers the address to send the browser back to.
     */
    async sandboxChoose(checkoutId: string, outcome: SandboxOutcome): Promise<string> {
      if (!deps.sandbox) throw DomainError.notFound(BILLING_MESSAGES.checkoutNotFound);
      const checkout = await repo.readSandboxCheckout(checkoutId);
      if (!checkout) throw DomainError.notFound(BILLING_MESSAGES.checkoutNotFound);
      if (!outcomeAllowed(checkout, outcome)) throw DomainError.conflict(BILLING_MESSAGES.checkoutClosed);
      if (!(await repo.recordSandboxOutcome(checkoutId, outcome))) {
        throw DomainError.conflict(BILLING_MESSAGES.checkoutClosed);
      }
      const at = now();
      const payload = JSON.stringify(sandboxEvent(checkout, outcome, at));
      await handleWebhook(payload, signPayload(payload, deps.webhookSecret(), at));
      return outcome === "cancelled" ? checkout.cancelUrl : checkout.successUrl;
    },
  };
}

export type BillingService = ReturnType<typeof billingService>;

/**
 * Moves every graceful period whose end has passed to "backups stopped" (audited, with an alert). Called
 * by the scheduled dispatcher; `now` may be any time (tests pass one in the future).
 */
export async function advanceGracefulPeriods(
  now: Date,
  onError: (organizationId: string, error: unknown) => void = () => undefined,
  regionIds: readonly RegionId[] = REGION_IDS,
): Promise<{ stopped: number; failed: number }> {
  let stopped = 0;
  let failed = 0;
  for (const regionId of regionIds) {
    for (const { scope, account } of await repo.organizationsInGracefulPeriod(regionId)) {
      if (!stopGracefulPeriod(account.graceful, now)) continue;
      try {
        const changed = await repo.changeAccount(scope, SYSTEM_ACTOR, now, (current) => {
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
        if (changed) stopped += 1;
      } catch (error) {
        failed += 1;
        onError(scope.organizationId, error);
      }
    }
  }
  return { stopped, failed };
}
