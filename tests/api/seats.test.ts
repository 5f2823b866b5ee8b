/**
 * Seats over the count (docs/requirements.md "Seats over the count"): a sync that finds more active
 * mailboxes than seats records the overage once (audit, alert) with the mailboxes added last; the
 * subscription shows it; auto-add seats (paid plans) adds the missing seats at once and on later syncs.
 */
import type { AuditEntry, AuditPage } from "@alpvault/contracts/audit";
import { BILLING_MESSAGES, SEAT_TEXTS } from "@alpvault/contracts/billing";
import {
  SEAT_GRACE_DAYS,
  type AlertsResponse,
  type SubscriptionDetails,
} from "@alpvault/contracts/organizations";
import { onboarded, setAccount, type ApiCaller } from "../support/organizations";
import { workspaceAdmin } from "../support/workspace";

const DAY_MS = 86_400_000;

async function auditEntries(call: ApiCaller, organizationId: string): Promise<AuditEntry[]> {
  const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
  const answer = await call(
    `/organizations/${organizationId}/audit-logs?start=${day(-1)}&end=${day(1)}&pageSize=100`,
  );
  return (answer.body as AuditPage).entries;
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
  await workspaceAdmin("POST", "/users", {
    email: `second@${workspace.domain}`,
    givenName: "S",
    familyName: "S",
  });
  await call(`/organizations/${id}/resources/sync`, { method: "POST" });
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
