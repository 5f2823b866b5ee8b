/**
 * Seats over the count (docs/requirements.md "Seats over the count"): a sync that finds more active
 * mailboxes than seats records the overage once (audit, alert) with the mailboxes added last; the
 * subscription shows it; auto-add seats (paid plans) adds the missing seats at once and on later syncs,
 * and the dispatcher bills them on the plan's subscription at the (sandbox) payment provider.
 */
import type { AuditEntry, AuditPage } from "@alpvault/contracts/audit";
import { BILLING_MESSAGES, SEAT_TEXTS } from "@alpvault/contracts/billing";
import {
  SEAT_GRACE_DAYS,
  type AlertsResponse,
  type SubscriptionDetails,
} from "@alpvault/contracts/organizations";
import {
  charges,
  chargesAfterDispatch,
  choose,
  sandboxSubscription,
  sandboxSubscriptionOf,
  startCheckout,
} from "../support/billing";
import { dispatch } from "../support/background";
import { onboarded, setAccount, withRegionDb, type ApiCaller } from "../support/organizations";
import { workspaceAdmin } from "../support/workspace";

const DAY_MS = 86_400_000;

async function auditEntries(call: ApiCaller, organizationId: string): Promise<AuditEntry[]> {
  const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
  const answer = await call(
    `/organizations/${organizationId}/audit-logs?start=${day(-1)}&end=${day(1)}&pageSize=100`,
  );
  return (answer.body as AuditPage).entries;
}

/** A new mailbox in the organisation's Workspace, then a directory sync that finds it. */
async function newMailboxSynced(setup: Awaited<ReturnType<typeof onboarded>>, localPart: string) {
  const email = `${localPart}@${setup.workspace.domain}`;
  await workspaceAdmin("POST", "/users", { email, givenName: localPart, familyName: "New" });
  const synced = await setup.call(`/organizations/${setup.organization.organizationId}/resources/sync`, {
    method: "POST",
  });
  expect(synced.status).toBe(200);
}

test("when a sync finds more mailboxes than seats, then the overage is audited and alerted once, and the subscription names the mailboxes added last; auto-add seats then adds them", async () => {
  const { call, organization, workspace } = await onboarded();
  const id = organization.organizationId;
  const subscriptionId = organization.subscriptions[0]?.subscriptionId ?? "";
  const subscription = async () =>
    (await call(`/organizations/${id}/subscriptions/${subscriptionId}`)).body as SubscriptionDetails;
  await setAccount(organization, { planId: "geneva", seats: 2 });
  expect((await subscription()).seatOverage).toBeNull();

  const newcomer = `newcomer@${workspace.domain}`;
  await workspaceAdmin("POST", "/users", { email: newcomer, givenName: "Nina", familyName: "New" });
  expect((await call(`/organizations/${id}/resources/sync`, { method: "POST" })).status).toBe(200);
  const over = await subscription();
  expect(over.seats).toEqual({ used: 3, total: 2 });
  expect(over.autoAddSeats).toBe(false);
  expect(over.seatOverage).toMatchObject({ over: 1, mailboxes: [{ email: newcomer }] });
  const since = Date.parse(over.seatOverage?.since ?? "");
  expect(Date.parse(over.seatOverage?.stopsAt ?? "") - since).toBe(SEAT_GRACE_DAYS * DAY_MS);

  // A second sync records nothing new.
  await call(`/organizations/${id}/resources/sync`, { method: "POST" });
  const exceeded = (await auditEntries(call, id)).filter((entry) => entry.operation === "seats.exceeded");
  expect(exceeded.map((entry) => entry.object)).toEqual([SEAT_TEXTS.exceededObject(3, 2)]);
  const alerts = ((await call(`/organizations/${id}/alerts`)).body as AlertsResponse).alerts;
  expect(alerts.filter((alert) => alert.message.includes("beyond your seats"))).toHaveLength(1);

  expect(
    await call(`/organizations/${id}/settings/auto-add-seats`, { method: "PUT", body: { enabled: "yes" } }),
  ).toMatchObject({ status: 400, body: { code: 400, message: BILLING_MESSAGES.invalidSetting } });
  expect(
    await call(`/organizations/${id}/settings/auto-add-seats`, { method: "PUT", body: { enabled: true } }),
  ).toMatchObject({ status: 200, body: { autoAddSeats: true } });
  const covered = await subscription();
  expect(covered.seats).toEqual({ used: 3, total: 3 });
  expect(covered.seatOverage).toBeNull();
  const operations = (await auditEntries(call, id)).map((entry) => [entry.operation, entry.object]);
  expect(operations).toEqual(
    expect.arrayContaining([
      ["seat-settings.updated", SEAT_TEXTS.settingObject(true)],
      ["seats.added", SEAT_TEXTS.addedObject(2, 3)],
    ]),
  );

  // Later newcomers get their seat at the next sync.
  await newMailboxSynced({ call, organization, workspace }, "second");
  expect((await subscription()).seats).toEqual({ used: 4, total: 4 });
});

test("when the free plan's admin turns auto-add seats on, then it is refused with the upgrade text", async () => {
  const { call, organization } = await onboarded();
  expect(
    await call(`/organizations/${organization.organizationId}/settings/auto-add-seats`, {
      method: "PUT",
      body: { enabled: true },
    }),
  ).toMatchObject({ status: 403, body: { code: 403, message: BILLING_MESSAGES.seatsNeedPaidPlan } });
});

test("when auto-add seats adds seats to a plan bought at the checkout, then the dispatcher bills them on the plan's subscription, once even when sent again", async () => {
  const { call, organization, workspace } = await onboarded();
  const id = organization.organizationId;
  const bought = await startCheckout(call, id, { kind: "upgrade", planId: "geneva", seats: 2 });
  expect((await choose(bought.url, "success")).status).toBe(303);
  const subscriptionId = sandboxSubscriptionOf(bought.checkoutId);
  expect((await sandboxSubscription(subscriptionId)).items).toEqual([
    { name: "Geneva seat", quantity: 2, unitAmountUsd: 3 },
  ]);

  await newMailboxSynced({ call, organization, workspace }, "third");
  await call(`/organizations/${id}/settings/auto-add-seats`, { method: "PUT", body: { enabled: true } });

  const sent = await chargesAfterDispatch(organization);
  expect(sent).toEqual([
    expect.objectContaining({
      kind: "seats",
      state: "sent",
      subscriptionId,
      item: { name: "Geneva seat", quantity: 1, unitAmountUsd: 3 },
    }),
  ]);
  expect((await sandboxSubscription(subscriptionId)).items).toEqual([
    { name: "Geneva seat", quantity: 3, unitAmountUsd: 3 },
  ]);

  // The provider applied the charge but its answer was lost: the charge is still pending for us. A later
  // newcomer's seat is charged too; the next run sends both, and the first changes nothing at the provider
  // (one seat more, not two).
  const [charge] = await charges(organization);
  await withRegionDb(`region-${organization.subscriptions[0]?.region.id ?? "ch"}`, (db) =>
    db.doc(`organizations/${id}/billingCharges/${charge!.id}`).update({ state: "pending" }),
  );
  await newMailboxSynced({ call, organization, workspace }, "fourth");
  expect((await chargesAfterDispatch(organization)).map((each) => each.state)).toEqual(["sent", "sent"]);
  expect((await sandboxSubscription(subscriptionId)).items).toEqual([
    { name: "Geneva seat", quantity: 4, unitAmountUsd: 3 },
  ]);
});

test("when seats are added automatically on a plan not bought at a checkout, then the charge waits for a subscription", async () => {
  const setup = await onboarded();
  const { organization } = setup;
  await setAccount(organization, { planId: "geneva", seats: 2, autoAddSeats: true });
  await newMailboxSynced(setup, "third");
  // Two of the dispatcher's runs after the charge was recorded: the charge is kept, untried.
  await dispatch(organization.organizationId);
  expect(await chargesAfterDispatch(organization)).toEqual([
    expect.objectContaining({
      kind: "seats",
      state: "pending",
      attempts: 0,
      item: expect.objectContaining({ quantity: 1 }),
    }),
  ]);
});
