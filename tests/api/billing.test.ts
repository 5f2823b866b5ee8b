/**
 * Plans, checkout and payments through the API (docs/requirements.md#states-and-flows, #who-may-do-what, #constants-and-limits): the catalogue; a checkout paid, failed,
 * left pending or cancelled on the local sandbox payment page, which delivers Stripe-signed events to the
 * public webhook; bad signatures and replays; plan rules; the auto-add-storage setting; the graceful period
 * from a failed payment to stopped backups, and its reset by a payment.
 */
import Stripe from "stripe";
import type {
  AlertsResponse,
  OrganizationDetails,
  SubscriptionDetails,
} from "@alpvault/contracts/organizations";
import type { AuditEntry, AuditPage } from "@alpvault/contracts/audit";
import {
  BILLING_MESSAGES,
  LOCAL_WEBHOOK_SECRET,
  type Payment,
  type PlansResponse,
  type Purchase,
} from "@alpvault/contracts/billing";
import { ORGANIZATION_MESSAGES, type OrganizationSummary } from "@alpvault/contracts/organizations";
import { apiOrigin, namedOrigin, servedUrl, type ApiHost } from "../support/regions";
import { dispatch } from "../support/background";
import { onboarded, setAccount, withRegionDb, type ApiCaller } from "../support/organizations";
import {
  RETURN_URL,
  choose,
  sandboxSubscription,
  sandboxSubscriptionOf,
  startCheckout,
} from "../support/billing";

jest.setTimeout(60_000);

const GB = 1024 ** 3;
const DAY_MS = 86_400_000;

interface StoredAccount {
  planId: string;
  seats: number;
  storagePacks: number;
  autoAddStorage: boolean;
  graceful?: { state: string; startedAt: string | null; stopsAt: string | null };
  billingSubscriptionId?: string | null;
  replacedSubscriptions?: string[];
}

async function storedAccount(organization: OrganizationSummary): Promise<StoredAccount> {
  const regionId = organization.subscriptions[0]?.region.id ?? "ch";
  return withRegionDb(`region-${regionId}`, async (db) => {
    const snapshot = await db.collection("organizations").doc(organization.organizationId).get();
    return snapshot.get("account") as StoredAccount;
  });
}

async function paymentOf(call: ApiCaller, organizationId: string, checkoutId: string): Promise<Payment> {
  const answer = await call(`/organizations/${organizationId}/payments/${checkoutId}`);
  expect(answer.status).toBe(200);
  return answer.body as Payment;
}

async function auditEntries(call: ApiCaller, organizationId: string): Promise<AuditEntry[]> {
  const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
  const answer = await call(
    `/organizations/${organizationId}/audit-logs?start=${day(-1)}&end=${day(1)}&pageSize=100`,
  );
  expect(answer.status).toBe(200);
  return (answer.body as AuditPage).entries;
}

async function billingAlerts(call: ApiCaller, organizationId: string) {
  const answer = await call(`/organizations/${organizationId}/alerts`);
  return (answer.body as AlertsResponse).alerts.filter((alert) => alert.kind === "billing");
}

/** Posts a webhook event as Stripe does: the raw JSON and its `Stripe-Signature` header. */
/** The payment provider's event, delivered to a region's webhook endpoint (Switzerland's, as onboarded()'s). */
async function deliver(event: object, secret = LOCAL_WEBHOOK_SECRET, host: ApiHost = "ch") {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  const response = await fetch(`${apiOrigin(host)}/v1/payments/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

function completedEvent(eventId: string, organizationId: string, checkoutId: string) {
  return {
    id: eventId,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: checkoutId,
        object: "checkout.session",
        client_reference_id: organizationId,
        metadata: { organizationId },
        payment_status: "paid",
        status: "complete",
      },
    },
  };
}

/** A renewal's invoice event as Stripe sends it, for the organisation `organizationId`. */
function renewalInvoice(organizationId: string, type: string, eventId: string) {
  return {
    id: eventId,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `in_${eventId}`,
        object: "invoice",
        parent: { subscription_details: { metadata: { organizationId } } },
      },
    },
  };
}

test("when the plans are asked for, then the three plans come with their limits and prices, and the 100 GB storage pack", async () => {
  const { call } = await onboarded();
  const answer = await call("/plans");
  expect(answer.status).toBe(200);
  const catalogue = answer.body as PlansResponse;
  expect(catalogue.plans.map((plan) => [plan.id, plan.name, plan.premium])).toEqual([
    ["matterhorn", "Matterhorn", false],
    ["geneva", "Geneva", true],
    ["zurich", "Zürich", true],
  ]);
  expect(catalogue.plans[0]).toMatchObject({
    maxUsers: 2,
    storagePerUserBytes: 15 * GB,
    backupsPerDay: 1,
    services: ["gmail", "drive"],
    pricePerUserMonthlyUsd: 0,
  });
  expect(catalogue.plans[1]).toMatchObject({
    storagePerUserBytes: 50 * GB,
    backupsPerDay: 3,
    pricePerUserMonthlyUsd: 3,
  });
  expect(catalogue.plans[2]).toMatchObject({
    storagePerUserBytes: 100 * GB,
    backupsPerDay: 24,
    pricePerUserMonthlyUsd: 3,
    services: ["gmail", "drive", "chat", "calendars", "contacts", "directory"],
  });
  expect(catalogue.storagePack).toEqual({ bytes: 100 * GB, priceMonthlyUsd: 3 });
});

test("when the admin upgrades to Zürich and pays on the sandbox page, then plan and seats change, the maximum storage follows, and both are audited", async () => {
  const { workspace, call, organization } = await onboarded();
  const id = organization.organizationId;
  const { checkoutId, url } = await startCheckout(call, id, { kind: "upgrade", planId: "zurich", seats: 5 });
  // The checkout page is on the organisation's regional API host, whose API handles its events.
  expect(url).toBe(`${namedOrigin("ch")}/v1/payments/sandbox/${checkoutId}`);
  expect(await paymentOf(call, id, checkoutId)).toMatchObject({ state: "open", amountUsd: 15 });

  const page = await fetch(servedUrl(url));
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  const html = await page.text();
  for (const button of ["Pay", "Fail", "Leave pending", "Cancel"])
    expect(html).toContain(`>${button}</button>`);
  expect(html).toContain("Zürich seat");

  expect(await choose(url, "success")).toEqual({
    status: 303,
    location: `${RETURN_URL}?checkout=${checkoutId}`,
  });
  expect(await paymentOf(call, id, checkoutId)).toMatchObject({ state: "paid" });
  expect(await call(`/organizations/${id}`)).toMatchObject({
    body: { plan: { name: "Zürich" }, maximumStorage: 5 * 100 * GB } satisfies Partial<OrganizationDetails>,
  });
  const entries = await auditEntries(call, id);
  expect(entries).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        operation: "pricing-tier.updated",
        actor: workspace.admin,
        object: "Matterhorn → Zürich",
      }),
      expect.objectContaining({
        operation: "licenses.updated",
        actor: workspace.admin,
        object: "2 → 5 seats",
      }),
    ]),
  );
  // The checkout is closed: another choice is refused and changes nothing.
  expect((await choose(url, "failed")).status).toBe(409);
  expect((await storedAccount(organization)).graceful?.state ?? "none").toBe("none");
});

test("when a paid plan buys storage packs, then the packs add 100 GB each to the maximum and are audited", async () => {
  const { workspace, call, organization } = await onboarded();
  const id = organization.organizationId;
  await setAccount(organization, { planId: "geneva", seats: 3 });
  const { checkoutId, url } = await startCheckout(call, id, { kind: "storage", packs: 2 });
  expect(await paymentOf(call, id, checkoutId)).toMatchObject({
    amountUsd: 6,
    purchase: { kind: "storage", packs: 2 },
  });
  expect((await choose(url, "success")).status).toBe(303);
  expect(await storedAccount(organization)).toMatchObject({ planId: "geneva", seats: 3, storagePacks: 2 });
  const { subscriptionId } = organization.subscriptions[0] as { subscriptionId: string };
  const subscription = (await call(`/organizations/${id}/subscriptions/${subscriptionId}`))
    .body as SubscriptionDetails;
  expect(subscription.storage.maximum).toBe(3 * 50 * GB + 2 * 100 * GB);
  expect(await auditEntries(call, id)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        operation: "storage-packs.updated",
        actor: workspace.admin,
        object: "0 → 2 storage packs (200 GB)",
      }),
    ]),
  );
});

test("when a new plan is bought over a plan bought at a checkout, then the dispatcher cancels the old plan's subscription and the new one bills from then on", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  const geneva = await startCheckout(call, id, { kind: "upgrade", planId: "geneva", seats: 2 });
  await choose(geneva.url, "success");
  const zurich = await startCheckout(call, id, { kind: "upgrade", planId: "zurich", seats: 3 });
  await choose(zurich.url, "success");
  expect(await storedAccount(organization)).toMatchObject({
    planId: "zurich",
    seats: 3,
    billingSubscriptionId: sandboxSubscriptionOf(zurich.checkoutId),
  });

  await dispatch(id);
  expect((await storedAccount(organization)).replacedSubscriptions).toEqual([]);
  expect(await sandboxSubscription(sandboxSubscriptionOf(geneva.checkoutId))).toEqual({
    status: "canceled",
    items: [{ name: "Geneva seat", quantity: 2, unitAmountUsd: 3 }],
  });
  expect(await sandboxSubscription(sandboxSubscriptionOf(zurich.checkoutId))).toEqual({
    status: "active",
    items: [{ name: "Zürich seat", quantity: 3, unitAmountUsd: 3 }],
  });
});

test("when a checkout is declined, then the plan stays, no graceful period starts, and an alert says nothing was bought", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  const failed = await startCheckout(call, id, { kind: "upgrade", planId: "geneva", seats: 4 });
  expect((await choose(failed.url, "failed")).location).toBe(`${RETURN_URL}?checkout=${failed.checkoutId}`);
  expect(await paymentOf(call, id, failed.checkoutId)).toMatchObject({ state: "failed" });
  const account = await storedAccount(organization);
  expect(account).toMatchObject({ planId: "matterhorn", seats: 2 });
  expect(account.graceful?.state ?? "none").toBe("none");
  expect(
    (await auditEntries(call, id)).filter((entry) => entry.operation === "graceful-period.started"),
  ).toEqual([]);
  expect((await billingAlerts(call, id)).map((alert) => alert.message)).toEqual([
    "A payment was declined: nothing was bought, your subscription and backups are unchanged. Try again or use another payment method.",
  ]);

  const paid = await startCheckout(call, id, { kind: "upgrade", planId: "geneva", seats: 4 });
  await choose(paid.url, "success");
  expect(await storedAccount(organization)).toMatchObject({ planId: "geneva", seats: 4 });
  expect((await auditEntries(call, id)).map((entry) => entry.operation)).toContain("pricing-tier.updated");
});

test("when the payment is left pending or cancelled, then no plan changes; a pending payment that succeeds later applies the upgrade", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  const pending = await startCheckout(call, id, { kind: "upgrade", planId: "zurich", seats: 3 });
  expect((await choose(pending.url, "pending")).status).toBe(303);
  expect(await paymentOf(call, id, pending.checkoutId)).toMatchObject({ state: "pending" });
  const cancelled = await startCheckout(call, id, { kind: "upgrade", planId: "geneva", seats: 3 });
  expect((await choose(cancelled.url, "cancelled")).location).toBe(
    `${RETURN_URL}?checkout=${cancelled.checkoutId}`,
  );
  expect(await paymentOf(call, id, cancelled.checkoutId)).toMatchObject({ state: "cancelled" });
  expect(await storedAccount(organization)).toMatchObject({
    planId: "matterhorn",
    seats: 2,
    graceful: { state: "none" },
  });
  expect((await auditEntries(call, id)).map((entry) => entry.operation)).not.toContain(
    "pricing-tier.updated",
  );
  expect((await choose(cancelled.url, "success")).status).toBe(409);

  // The money arrives: the pending checkout's page still offers Pay.
  expect(await (await fetch(servedUrl(pending.url))).text()).toContain(">Pay</button>");
  await choose(pending.url, "success");
  expect(await paymentOf(call, id, pending.checkoutId)).toMatchObject({ state: "paid" });
  expect(await storedAccount(organization)).toMatchObject({ planId: "zurich", seats: 3 });
});

test("when a webhook's signature is wrong or missing, then it is a 400 {code, message} and nothing changes", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  await setAccount(organization, { planId: "zurich", seats: 2 });
  const { checkoutId } = await startCheckout(call, id, { kind: "storage", packs: 5 });
  const event = completedEvent(`evt_forged_${checkoutId}`, id, checkoutId);
  expect(await deliver(event, "whsec_someone_else")).toEqual({
    status: 400,
    body: { code: 400, message: BILLING_MESSAGES.invalidSignature },
  });
  const unsigned = await fetch(`${apiOrigin("ch")}/v1/payments/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(event),
  });
  expect(unsigned.status).toBe(400);
  expect(await unsigned.json()).toEqual({ code: 400, message: BILLING_MESSAGES.invalidSignature });
  expect(await paymentOf(call, id, checkoutId)).toMatchObject({ state: "open" });
  expect(await storedAccount(organization)).toMatchObject({ storagePacks: 0 });
});

test("when the same webhook event arrives twice, then the second delivery changes nothing", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  await setAccount(organization, { planId: "geneva", seats: 2 });
  const { checkoutId } = await startCheckout(call, id, { kind: "storage", packs: 1 });
  const event = completedEvent(`evt_replay_${checkoutId}`, id, checkoutId);
  expect(await deliver(event)).toEqual({
    status: 200,
    body: { received: true, duplicate: false, ignored: false },
  });
  expect(await storedAccount(organization)).toMatchObject({ storagePacks: 1 });
  const entries = (await auditEntries(call, id)).length;
  expect(await deliver(event)).toEqual({
    status: 200,
    body: { received: true, duplicate: true, ignored: false },
  });
  expect(await storedAccount(organization)).toMatchObject({ storagePacks: 1 });
  expect((await auditEntries(call, id)).length).toBe(entries);
});

test("when a Swiss organisation's event reaches another region's webhook endpoint or the global one, then it is acknowledged and ignored, and nothing changes", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  await setAccount(organization, { planId: "geneva", seats: 2 });
  const { checkoutId } = await startCheckout(call, id, { kind: "storage", packs: 1 });
  const event = completedEvent(`evt_elsewhere_${checkoutId}`, id, checkoutId);
  for (const host of ["eu", "us", "global"] as const) {
    expect(await deliver(event, LOCAL_WEBHOOK_SECRET, host)).toEqual({
      status: 200,
      body: { received: true, duplicate: false, ignored: true },
    });
  }
  expect(await storedAccount(organization)).toMatchObject({ storagePacks: 0 });
  expect(await paymentOf(call, id, checkoutId)).toMatchObject({ state: "open" });
  // Its own region's endpoint applies it.
  expect((await deliver(event)).body).toEqual({ received: true, duplicate: false, ignored: false });
  expect(await storedAccount(organization)).toMatchObject({ storagePacks: 1 });
});

test("when a renewal invoice fails, then the graceful period starts for the configured 14 days with an audit entry and an alert; when the invoice is paid, it is reset", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  await setAccount(organization, { planId: "geneva", seats: 2 });
  expect((await deliver(renewalInvoice(id, "invoice.payment_failed", `evt_inv_failed_${id}`))).status).toBe(
    200,
  );
  const account = await storedAccount(organization);
  expect(account).toMatchObject({ planId: "geneva", graceful: { state: "started" } });
  const { startedAt, stopsAt } = account.graceful as { startedAt: string; stopsAt: string };
  expect(Date.parse(stopsAt) - Date.parse(startedAt)).toBe(14 * DAY_MS);
  expect(
    (await auditEntries(call, id)).find((entry) => entry.operation === "graceful-period.started"),
  ).toMatchObject({
    actor: "Alpvault",
    object: `Backups stop on ${stopsAt.slice(0, 10)} unless a payment succeeds`,
    failureReason: "Payment failed",
  });
  expect((await billingAlerts(call, id)).map((alert) => alert.message)).toEqual([
    `A payment failed. Backups stop on ${stopsAt.slice(0, 10)} unless a payment succeeds.`,
  ]);
  expect((await deliver(renewalInvoice(id, "invoice.paid", `evt_inv_paid_${id}`))).status).toBe(200);
  expect(await storedAccount(organization)).toMatchObject({ planId: "geneva", graceful: { state: "none" } });
  expect((await auditEntries(call, id)).map((entry) => entry.operation)).toContain("graceful-period.reset");
  expect((await billingAlerts(call, id)).map((alert) => alert.message)).toContain(
    "Payment received: the graceful period has ended and backups continue.",
  );
});

test("when the admin asks for a lower plan, fewer seats or the free plan, then it is refused with the support text", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  await setAccount(organization, { planId: "zurich", seats: 5 });
  const refuse = async (purchase: Purchase) =>
    call(`/organizations/${id}/checkout`, { method: "POST", body: { purchase, returnUrl: RETURN_URL } });
  expect(await refuse({ kind: "upgrade", planId: "geneva", seats: 10 })).toMatchObject({
    status: 403,
    body: { code: 403, message: BILLING_MESSAGES.downgrade },
  });
  expect(await refuse({ kind: "upgrade", planId: "matterhorn", seats: 2 })).toMatchObject({
    status: 403,
    body: { code: 403, message: BILLING_MESSAGES.downgrade },
  });
  expect(await refuse({ kind: "upgrade", planId: "zurich", seats: 4 })).toMatchObject({
    status: 403,
    body: { code: 403, message: BILLING_MESSAGES.fewerSeats },
  });
  expect(await refuse({ kind: "upgrade", planId: "zurich", seats: 5 })).toMatchObject({
    status: 400,
    body: { code: 400, message: BILLING_MESSAGES.alreadyOnPlan },
  });
  expect(await storedAccount(organization)).toMatchObject({ planId: "zurich", seats: 5 });
});

test("when the free plan tries to buy storage, then it is a 403 with the upgrade prompt", async () => {
  const { call, organization } = await onboarded();
  const answer = await call(`/organizations/${organization.organizationId}/checkout`, {
    method: "POST",
    body: { purchase: { kind: "storage", packs: 1 }, returnUrl: RETURN_URL },
  });
  expect(answer).toMatchObject({
    status: 403,
    body: { code: 403, message: BILLING_MESSAGES.storageNeedsPaidPlan },
  });
});

test("when the checkout request is malformed, then it is a 400 {code, message}", async () => {
  const { call, organization } = await onboarded();
  const base = `/organizations/${organization.organizationId}/checkout`;
  for (const body of [
    {},
    { purchase: { kind: "upgrade", planId: "everest", seats: 2 }, returnUrl: RETURN_URL },
    { purchase: { kind: "upgrade", planId: "zurich", seats: 0 }, returnUrl: RETURN_URL },
    { purchase: { kind: "storage", packs: 1.5 }, returnUrl: RETURN_URL },
  ]) {
    expect(await call(base, { method: "POST", body })).toMatchObject({
      status: 400,
      body: { code: 400, message: BILLING_MESSAGES.invalidPurchase },
    });
  }
  expect(
    await call(base, {
      method: "POST",
      body: { purchase: { kind: "upgrade", planId: "zurich", seats: 2 }, returnUrl: "javascript:alert(1)" },
    }),
  ).toMatchObject({ status: 400, body: { code: 400, message: BILLING_MESSAGES.invalidReturnUrl } });
  expect(await call(`/organizations/${organization.organizationId}/payments/cs_unknown`)).toMatchObject({
    status: 404,
    body: { code: 404, message: BILLING_MESSAGES.paymentNotFound },
  });
  const sandbox = await fetch(`${apiOrigin("ch")}/v1/payments/sandbox/cs_unknown`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "outcome=explode",
  });
  expect(sandbox.status).toBe(400);
  expect(await sandbox.json()).toEqual({ code: 400, message: BILLING_MESSAGES.invalidOutcome });
});

test("when the admin switches auto-add storage, then the subscription shows it and each change is audited; a bad value is a 400", async () => {
  const { workspace, call, organization } = await onboarded();
  const id = organization.organizationId;
  const route = `/organizations/${id}/settings/auto-add-storage`;
  expect(await call(route, { method: "PUT", body: { enabled: true } })).toMatchObject({
    status: 200,
    body: { autoAddStorage: true },
  });
  const { subscriptionId } = organization.subscriptions[0] as { subscriptionId: string };
  expect(
    await call(`/organizations/${id}/subscriptions/${subscriptionId}?fields=autoAddStorage`),
  ).toMatchObject({
    body: { autoAddStorage: true },
  });
  await call(route, { method: "PUT", body: { enabled: false } });
  const settings = (await auditEntries(call, id)).filter(
    (entry) => entry.operation === "storage-settings.updated",
  );
  expect(settings.map((entry) => [entry.actor, entry.object]).sort()).toEqual([
    [workspace.admin, "Auto-add storage disabled"],
    [workspace.admin, "Auto-add storage enabled"],
  ]);
  expect(await call(route, { method: "PUT", body: { enabled: "yes" } })).toMatchObject({
    status: 400,
    body: { code: 400, message: BILLING_MESSAGES.invalidSetting },
  });
  expect(await storedAccount(organization)).toMatchObject({ autoAddStorage: false });
});

test("when a graceful period's days have passed, then the dispatcher stops backups, audited with an alert", async () => {
  const { call, organization } = await onboarded();
  const id = organization.organizationId;
  await setAccount(organization, { planId: "geneva", seats: 2 });
  expect((await deliver(renewalInvoice(id, "invoice.payment_failed", `evt_inv_lapse_${id}`))).status).toBe(
    200,
  );
  const started = (await storedAccount(organization)).graceful as { startedAt: string; stopsAt: string };
  // The configured days pass: the period's end moves into the past.
  const ended = new Date(Date.now() - 60_000).toISOString();
  await setAccount(organization, {
    graceful: { state: "started", startedAt: started.startedAt, stopsAt: ended },
  });
  expect(await dispatch(id)).toMatchObject({ backupsStopped: 1 });
  expect((await storedAccount(organization)).graceful?.state).toBe("stopped");
  const stopped = (await auditEntries(call, id)).filter((entry) => entry.operation === "backups.stopped");
  expect(stopped).toEqual([
    expect.objectContaining({ actor: "Alpvault", object: "Graceful period ended without a payment" }),
  ]);
  expect((await billingAlerts(call, id)).map((alert) => alert.message)).toContain(
    "Backups stopped: the graceful period ended without a payment. Pay to resume backups.",
  );

  // Paying resumes backups.
  const paid = await startCheckout(call, id, { kind: "storage", packs: 1 });
  await choose(paid.url, "success");
  expect(await storedAccount(organization)).toMatchObject({ storagePacks: 1, graceful: { state: "none" } });
});

test("when another organisation's admin uses the billing routes, then every one answers 404 and changes nothing", async () => {
  const first = await onboarded();
  const second = await onboarded("eu");
  const id = first.organization.organizationId;
  const { checkoutId } = await startCheckout(first.call, id, { kind: "upgrade", planId: "geneva", seats: 2 });
  for (const [path, method, body] of [
    [
      `/organizations/${id}/checkout`,
      "POST",
      { purchase: { kind: "upgrade", planId: "zurich", seats: 2 }, returnUrl: RETURN_URL },
    ],
    [`/organizations/${id}/payments/${checkoutId}`, "GET", undefined],
    [`/organizations/${id}/settings/auto-add-storage`, "PUT", { enabled: true }],
  ] as const) {
    const answer = await second.call(path, { method, body });
    expect({ path, status: answer.status, body: answer.body }).toEqual({
      path,
      status: 404,
      body: { code: 404, message: ORGANIZATION_MESSAGES.organizationNotFound },
    });
  }
  expect(await storedAccount(first.organization)).toMatchObject({ autoAddStorage: false });
});
