import Stripe from "stripe";
import { BILLING_MESSAGES, LOCAL_WEBHOOK_SECRET, plansCatalogue } from "@alpvault/contracts/billing";
import { GB, PLANS, maximumStorageBytes } from "@alpvault/contracts/plans";
import { DomainError, type ErrorKind } from "../lib/errors";
import { INITIAL_ACCOUNT, type Account } from "../organizations/repo";
import { GRACEFUL_TEXTS, backupsAllowed } from "./graceful";
import type { PaymentRecord } from "./repo";
import { sandboxEvent, signPayload } from "./sandbox-provider";
import { decidePaymentOutcome, readPaymentEvent } from "./payment-events";
import { checkPurchase } from "./service";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const DAY_MS = 86_400_000;

function account(changes: Partial<Account> = {}): Account {
  return { ...INITIAL_ACCOUNT, ...changes };
}

function payment(changes: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    checkoutId: "cs_1",
    state: "open",
    purchase: { kind: "upgrade", planId: "zurich", seats: 5 },
    amountUsd: 15,
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    actor: "ada@example.ch",
    ...changes,
  };
}

function refusal(run: () => void): { kind: ErrorKind; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? { kind: error.kind, message: error.message } : undefined;
  }
}

describe("plans", () => {
  test("when the maximum storage is computed, then bought storage packs add 100 GB each", () => {
    expect(maximumStorageBytes(PLANS.geneva, 3)).toBe(150 * GB);
    expect(maximumStorageBytes(PLANS.geneva, 3, 2)).toBe(350 * GB);
  });

  test("when the catalogue is read, then prices are seats × 3 and packs × 3 USD", () => {
    const catalogue = plansCatalogue();
    expect(catalogue.plans.map((plan) => plan.pricePerUserMonthlyUsd)).toEqual([0, 3, 3]);
    expect(catalogue.storagePack.priceMonthlyUsd).toBe(3);
  });
});

describe("purchase rules", () => {
  test("when a lower plan, fewer seats or storage on the free plan is asked for, then it is refused with the support or upgrade text", () => {
    const zurich = account({ planId: "zurich", seats: 5 });
    expect(refusal(() => checkPurchase(zurich, { kind: "upgrade", planId: "geneva", seats: 9 }))).toEqual({
      kind: "forbidden",
      message: BILLING_MESSAGES.downgrade,
    });
    expect(refusal(() => checkPurchase(zurich, { kind: "upgrade", planId: "zurich", seats: 4 }))).toEqual({
      kind: "forbidden",
      message: BILLING_MESSAGES.fewerSeats,
    });
    expect(refusal(() => checkPurchase(account(), { kind: "storage", packs: 1 }))).toEqual({
      kind: "forbidden",
      message: BILLING_MESSAGES.storageNeedsPaidPlan,
    });
    expect(
      refusal(() => checkPurchase(account(), { kind: "upgrade", planId: "geneva", seats: 1 })),
    ).toBeUndefined();
    expect(
      refusal(() => checkPurchase(zurich, { kind: "upgrade", planId: "zurich", seats: 8 })),
    ).toBeUndefined();
  });
});

describe("payment outcomes", () => {
  test("when a checkout is paid, then plan and seats change with their audit entries and a running graceful period is reset", () => {
    const graceful = { state: "started" as const, startedAt: NOW.toISOString(), stopsAt: NOW.toISOString() };
    const change = decidePaymentOutcome(account({ graceful }), payment(), "paid", NOW, 14);
    expect(change.paymentState).toBe("paid");
    expect(change.actor).toBe("ada@example.ch");
    expect(change.account).toEqual({
      planId: "zurich",
      seats: 5,
      graceful: { state: "none", startedAt: null, stopsAt: null },
    });
    expect(change.audits.map((audit) => audit.operation)).toEqual([
      "pricing-tier.updated",
      "licenses.updated",
      "graceful-period.reset",
    ]);
  });

  test("when a plan's checkout is paid, then its provider subscription is kept for automatic additions; a storage checkout's is not", () => {
    const upgraded = decidePaymentOutcome(account(), payment(), "paid", NOW, 14, "sub_1");
    expect(upgraded.account).toMatchObject({ planId: "zurich", billingSubscriptionId: "sub_1" });
    const geneva = account({ planId: "geneva", seats: 3, billingSubscriptionId: "sub_1" });
    const packs = payment({ purchase: { kind: "storage", packs: 2 } });
    const stored = decidePaymentOutcome(geneva, packs, "paid", NOW, 14, "sub_2");
    expect(stored.account).toEqual({ storagePacks: 2 });
    expect(decidePaymentOutcome(account(), payment(), "failed", NOW, 14, "sub_1").account).toBeUndefined();
  });

  test("when a checkout (an upgrade or storage packs) is declined, then the account is unchanged, no graceful period starts, and an alert says so", () => {
    const change = decidePaymentOutcome(account(), payment(), "failed", NOW, 14);
    expect(change.account).toBeUndefined();
    expect(change.audits).toEqual([]);
    expect(change.alerts).toEqual([GRACEFUL_TEXTS.declinedAlert]);
    expect(change.paymentState).toBe("failed");
  });

  test("when a renewal fails, then the graceful period starts for the configured days; a second failure does not extend it", () => {
    const change = decidePaymentOutcome(account(), undefined, "failed", NOW, 14);
    expect(change.account?.graceful).toEqual({
      state: "started",
      startedAt: NOW.toISOString(),
      stopsAt: new Date(NOW.getTime() + 14 * DAY_MS).toISOString(),
    });
    expect(change.audits.map((audit) => audit.operation)).toEqual(["graceful-period.started"]);
    const again = decidePaymentOutcome(
      account({ graceful: change.account?.graceful }),
      undefined,
      "failed",
      new Date(NOW.getTime() + DAY_MS),
      14,
    );
    expect(again).toMatchObject({ audits: [], alerts: [] });
    expect(again.account).toBeUndefined();
  });

  test("when a checkout is pending or cancelled, or already paid, then no account change is made", () => {
    expect(decidePaymentOutcome(account(), payment(), "pending", NOW, 14)).toEqual({
      actor: "ada@example.ch",
      paymentState: "pending",
      audits: [],
      alerts: [],
    });
    expect(decidePaymentOutcome(account(), payment(), "cancelled", NOW, 14).account).toBeUndefined();
    expect(decidePaymentOutcome(account(), payment({ state: "paid" }), "paid", NOW, 14)).toEqual({
      actor: "ada@example.ch",
      audits: [],
      alerts: [],
    });
  });

  test("when the graceful period's end has passed or backups were stopped, then backups are not allowed", () => {
    const started = { state: "started" as const, startedAt: NOW.toISOString(), stopsAt: NOW.toISOString() };
    expect(backupsAllowed(account(), NOW)).toBe(true);
    expect(backupsAllowed(account({ graceful: started }), new Date(NOW.getTime() - 1))).toBe(true);
    expect(backupsAllowed(account({ graceful: started }), NOW)).toBe(false);
    expect(backupsAllowed(account({ graceful: { ...started, state: "stopped" } }), NOW)).toBe(false);
  });
});

describe("sandbox events", () => {
  test("when the sandbox signs an event, then Stripe's own verification accepts it and it reads as the chosen outcome", () => {
    const checkout = {
      checkoutId: "cs_sandbox_1",
      organizationId: "org-1",
      items: [{ name: "Zürich seat", quantity: 5, unitAmountUsd: 3 }],
      metadata: { organizationId: "org-1" },
      successUrl: "http://127.0.0.1:5000/plans?checkout=cs_sandbox_1",
      cancelUrl: "http://127.0.0.1:5000/plans?checkout=cs_sandbox_1",
      createdAt: NOW.toISOString(),
      outcome: null,
    };
    const expected = {
      success: "paid",
      failed: "failed",
      pending: "pending",
      cancelled: "cancelled",
    } as const;
    for (const outcome of ["success", "failed", "pending", "cancelled"] as const) {
      const payload = JSON.stringify(sandboxEvent(checkout, outcome, new Date()));
      const event = Stripe.webhooks.constructEvent(
        payload,
        signPayload(payload, LOCAL_WEBHOOK_SECRET, new Date()),
        LOCAL_WEBHOOK_SECRET,
      );
      expect(readPaymentEvent(event)).toEqual({
        organizationId: "org-1",
        checkoutId: "cs_sandbox_1",
        outcome: expected[outcome],
        // The checkout's subscription, as Stripe names it in the session (none once it expired).
        subscriptionId: outcome === "cancelled" ? null : "sub_sandbox_1",
      });
    }
    const payload = JSON.stringify(sandboxEvent(checkout, "success", new Date()));
    expect(() =>
      Stripe.webhooks.constructEvent(
        payload,
        signPayload(payload, "whsec_other", new Date()),
        LOCAL_WEBHOOK_SECRET,
      ),
    ).toThrow();
  });
});
