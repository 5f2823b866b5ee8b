/**
 * An organisation's details, subscription and resources through the API, and tenant isolation: nobody but
 * the super admins of an organisation's own domain gets anything of it.
 */
import type {
  AlertsResponse,
  OrganizationDetails,
  ResourcesAnalytics,
  ResourcesPage,
  SubscriptionDetails,
} from "@alpvault/contracts/organizations";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { workspaceAdmin } from "../support/workspace";
import { applySync } from "../../functions/src/resources/repo";
import { dispatch } from "../support/background";
import { asUser, onboarded, withRegionDb } from "../support/organizations";

const GB = 1024 ** 3;

test("when the admin reads the organisation, then storage is real (0 before backups) against the free plan's 2 × 15 GB", async () => {
  const { call, organization } = await onboarded();
  const answer = await call(`/organizations/${organization.organizationId}`);
  expect(answer.status).toBe(200);
  expect(answer.body as OrganizationDetails).toMatchObject({
    organizationId: organization.organizationId,
    totalStorage: 0,
    maximumStorage: 30 * GB,
    plan: { name: "Matterhorn" },
  });
});

test("when the admin reads the subscription, then all plan data comes back; repeated `fields` keys limit it; an unknown field is a 400", async () => {
  const { call, organization } = await onboarded("us");
  const { subscriptionId } = organization.subscriptions[0] as { subscriptionId: string };
  const base = `/organizations/${organization.organizationId}/subscriptions/${subscriptionId}`;
  const answer = await call(base);
  expect(answer.status).toBe(200);
  const subscription = answer.body as SubscriptionDetails;
  expect(subscription).toMatchObject({
    subscriptionId,
    region: { id: "us" },
    plan: { id: "matterhorn", name: "Matterhorn", premium: false, maxUsers: 2, backupsPerDay: 1 },
    seats: { used: 2, total: 2 },
    storage: { used: 0, maximum: 30 * GB },
    autoAddStorage: false,
  });
  expect(new Date(subscription.renewalDate).getTime()).toBeGreaterThan(Date.now());

  const limited = await call(`${base}?fields=plan&fields=storage`);
  expect(limited.status).toBe(200);
  expect(Object.keys(limited.body as object).sort()).toEqual(["plan", "storage", "subscriptionId"]);
  expect(limited.body).toMatchObject({ plan: subscription.plan, storage: subscription.storage });
  expect(await call(`${base}?fields=seats`)).toMatchObject({
    status: 200,
    body: { subscriptionId, seats: { used: 2, total: 2 } },
  });
  expect(await call(`${base}?fields=plan&fields=price`)).toMatchObject({
    status: 400,
    body: { code: 400, message: ORGANIZATION_MESSAGES.unknownSubscriptionField },
  });
  expect(await call(`/organizations/${organization.organizationId}/subscriptions/not-ours`)).toMatchObject({
    status: 404,
    body: { code: 404, message: ORGANIZATION_MESSAGES.subscriptionNotFound },
  });
});

describe("resources", () => {
  test("when the organisation is set up, then its mailboxes (suspended shown as such) and shared drives are its resources", async () => {
    const { workspace, call, organization } = await onboarded();
    const answer = await call(`/organizations/${organization.organizationId}/resources?pageSize=100`);
    expect(answer.status).toBe(200);
    const page = answer.body as ResourcesPage;
    expect(page.total).toBe(5);
    const byName = Object.fromEntries(page.resources.map((resource) => [resource.name, resource]));
    expect(byName["Ada Admin"]).toMatchObject({
      type: "email",
      email: workspace.admin,
      status: "active",
      protected: false,
    });
    expect(byName["Fritz Former"]).toMatchObject({
      type: "email",
      email: workspace.suspended,
      status: "suspended",
    });
    expect(byName.Finance).toMatchObject({ type: "shared_drive", email: null, status: "active" });
    expect(byName.Marketing).toMatchObject({
      type: "shared_drive",
      policyId: null,
      lastBackupAt: null,
      mailBackupBytes: 0,
    });
    expect(page.resources.map((resource) => resource.name)).toEqual([
      "Ada Admin",
      "Finance",
      "Fritz Former",
      "Marketing",
      "Ueli User",
    ]);
  });

  test("when searching, filtering, sorting and paging, then the list answers accordingly; bad parameters are 400", async () => {
    const { workspace, call, organization } = await onboarded();
    const list = async (query: string) =>
      (await call(`/organizations/${organization.organizationId}/resources?${query}`)).body as ResourcesPage;
    expect((await list("search=ueli")).resources.map((resource) => resource.email)).toEqual([workspace.user]);
    expect((await list(`search=${encodeURIComponent(workspace.admin)}`)).total).toBe(1);
    expect((await list("type=shared_drive")).resources.map((resource) => resource.name)).toEqual([
      "Finance",
      "Marketing",
    ]);
    expect((await list("protection=protected")).total).toBe(0);
    expect((await list("protection=unprotected")).total).toBe(5);
    expect(
      (await list("sort=name&direction=desc&pageSize=2")).resources.map((resource) => resource.name),
    ).toEqual(["Ueli User", "Marketing"]);
    const third = await list("pageSize=2&page=3");
    expect(third).toMatchObject({ total: 5, page: 3, pageSize: 2 });
    expect(third.resources).toHaveLength(1);
    for (const query of [
      "type=printer",
      "pageSize=0",
      "pageSize=101",
      "page=abc",
      "sort=size",
      "type=email&type=shared_drive",
    ]) {
      const answer = await call(`/organizations/${organization.organizationId}/resources?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: 400, message: expect.any(String) });
    }
  });

  test("when users come and go in the Workspace, then a re-sync adds and marks them, and alerts say so until marked read", async () => {
    const { workspace, call, organization } = await onboarded();
    const base = `/organizations/${organization.organizationId}`;
    await workspaceAdmin("POST", "/users", {
      email: `new.hire@${workspace.domain}`,
      givenName: "Nina",
      familyName: "Neu",
    });
    await workspaceAdmin("DELETE", `/users/${workspace.user}`);
    expect(await call(`${base}/resources/sync`, { method: "POST" })).toMatchObject({
      status: 200,
      body: { added: 1, removed: 1 },
    });
    const page = (await call(`${base}/resources?pageSize=100`)).body as ResourcesPage;
    expect(page.resources.find((resource) => resource.email === `new.hire@${workspace.domain}`)?.status).toBe(
      "active",
    );
    expect(page.resources.find((resource) => resource.email === workspace.user)?.status).toBe("deleted");

    const alerts = (await call(`${base}/alerts`)).body as AlertsResponse;
    expect(alerts.unread).toBe(3);
    expect(alerts.alerts.map((alert) => alert.message)).toEqual(
      expect.arrayContaining(["1 resource added", "1 resource removed", "5 resources added"]),
    );
    expect(await call(`${base}/alerts/mark-all-read`, { method: "POST" })).toMatchObject({
      body: { marked: 3 },
    });
    expect(((await call(`${base}/alerts`)).body as AlertsResponse).unread).toBe(0);
  });

  test("when syncs find the same new users at once, then each user is added once, by one of them, and no write is left failing unhandled", async () => {
    const { organization } = await onboarded();
    const scope = { organizationId: organization.organizationId, regionId: "ch" as const };
    const discovered = ["ada", "ben", "cleo", "dan"].map((name) => ({
      resourceId: `user-twin-${name}`,
      type: "email" as const,
      name,
      email: `${name}@twins.example`,
      status: "active" as const,
    }));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      // Each reads the resources before any writes: every sync finds the newcomers missing and creates them.
      const at = new Date().toISOString();
      const results = await Promise.all([1, 2, 3].map(() => applySync(scope, discovered, at)));
      // Unhandled rejections are reported once the promises' turn has passed.
      await new Promise((resolve) => setImmediate(resolve));
      // Each newcomer is one sync's addition: a sync whose create found it written counts it no more.
      expect(results.reduce((sum, result) => sum + result.added, 0)).toBe(4);
      // A create that lost the race used to reject unhandled, which ends the process serving the API.
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    const stored = await withRegionDb("region-ch", (db) =>
      db
        .collection(`organizations/${organization.organizationId}/resources`)
        .where("name", "in", ["ada", "ben", "cleo", "dan"])
        .get(),
    );
    expect(stored.docs.map((doc) => doc.get("status"))).toEqual(["active", "active", "active", "active"]);
  });

  test("when an organisation's last directory sync is older than six hours, then the dispatcher syncs it again", async () => {
    const { workspace, call, organization } = await onboarded();
    await workspaceAdmin("POST", "/users", {
      email: `late.joiner@${workspace.domain}`,
      givenName: "Lara",
      familyName: "Late",
    });
    await withRegionDb("region-ch", (db) =>
      db
        .collection("organizations")
        .doc(organization.organizationId)
        .collection("meta")
        .doc("sync")
        .set({ lastSyncAt: "2026-01-01T00:00:00.000Z" }),
    );
    expect(await dispatch(organization.organizationId)).toMatchObject({ resynced: 1 });
    const page = (await call(`/organizations/${organization.organizationId}/resources?pageSize=100`))
      .body as ResourcesPage;
    expect(page.resources.map((resource) => resource.email)).toContain(`late.joiner@${workspace.domain}`);
    // Synced now: the next run leaves it alone for six hours.
    expect(await dispatch(organization.organizationId)).toMatchObject({ resynced: 0 });
  });

  test("when analytics are read before any backup, then they are real zeros and the organisation is unprotected", async () => {
    const { call, organization } = await onboarded();
    const answer = await call(`/organizations/${organization.organizationId}/analytics`);
    expect(answer.body as ResourcesAnalytics).toEqual({
      protectedResources: 0,
      totalResources: 5,
      totalBackupBytes: 0,
      protectionStatus: "unprotected",
      dataDynamics: { currentCycleBytes: 0, lastCycleBytes: 0, changePercent: null },
      emails: 0,
      files: 0,
    });
  });
});

describe("tenant isolation", () => {
  test("when another organisation's admin asks for this one, then every route answers 404 and no data", async () => {
    const first = await onboarded();
    const second = await onboarded("eu");
    const id = first.organization.organizationId;
    const { subscriptionId } = first.organization.subscriptions[0] as { subscriptionId: string };
    for (const [path, method] of [
      [`/organizations/${id}`, "GET"],
      [`/organizations/${id}/subscriptions/${subscriptionId}`, "GET"],
      [`/organizations/${id}/resources`, "GET"],
      [`/organizations/${id}/resources/sync`, "POST"],
      [`/organizations/${id}/analytics`, "GET"],
      [`/organizations/${id}/alerts`, "GET"],
      [`/organizations/${id}/alerts/mark-all-read`, "POST"],
    ] as const) {
      const answer = await second.call(path, { method });
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 404,
        body: { code: 404, message: ORGANIZATION_MESSAGES.organizationNotFound },
      });
    }
  });

  test("when a non-admin of the same domain asks, then it is 403 with the required text; an unknown id is 404", async () => {
    const { workspace, organization } = await onboarded();
    const user = await asUser(workspace.user);
    expect(await user(`/organizations/${organization.organizationId}/resources`)).toMatchObject({
      status: 403,
      body: { code: 403, message: ORGANIZATION_MESSAGES.notAdmin },
    });
    expect((await user("/organizations/does-not-exist")).status).toBe(404);
  });

  test("when the admin loses super-admin rights, then the organisation answers them 403", async () => {
    const { workspace, call, organization } = await onboarded();
    await workspaceAdmin("PATCH", `/users/${workspace.admin}`, { isAdmin: false });
    expect((await call(`/organizations/${organization.organizationId}`)).status).toBe(403);
  });
});
