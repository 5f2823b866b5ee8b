/**
 * Backup policies through the API: the default policy, the required validation texts (docs/requirements.md#validation), the plan rules
 * (docs/requirements.md#who-may-do-what), the delete conflict (#errors-and-messages), assignment to resources with its queued backup (#states-and-flows), the audit entry of
 * every change, and tenant isolation.
 */
import type { AuditPage } from "@alpvault/contracts/audit";
import { ORGANIZATION_MESSAGES, type ResourcesPage } from "@alpvault/contracts/organizations";
import {
  POLICY_MESSAGES,
  type AssignPolicyResponse,
  type PoliciesResponse,
  type Policy,
} from "@alpvault/contracts/policies";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { nextBackupAt } from "../../functions/src/policies/schedule";
import { asUser, onboarded, setAccount, withRegionDb, type ApiCaller } from "../support/organizations";

import { GOLD } from "../support/policies";
import { today } from "../support/backup-runs";
jest.setTimeout(60_000);

async function resourcesOf(call: ApiCaller, organizationId: string) {
  return ((await call(`/organizations/${organizationId}/resources?pageSize=100`)).body as ResourcesPage)
    .resources;
}

async function auditEntries(call: ApiCaller, organizationId: string) {
  const answer = await call(
    `/organizations/${organizationId}/audit-logs?start=${today()}&end=${today()}&pageSize=100`,
  );
  expect(answer.status).toBe(200);
  return (answer.body as AuditPage).entries;
}

/** Every backup run of the organisation (the worker may have started or ended them already). */
async function backupRuns(organization: OrganizationSummary) {
  return withRegionDb("region-ch", async (db) => {
    const snapshot = await db
      .collection("organizations")
      .doc(organization.organizationId)
      .collection("backupRuns")
      .get();
    return snapshot.docs.map((doc) => doc.data());
  });
}

const isActive = (run: Record<string, unknown>) => run.state === "pending" || run.state === "running";

describe("default policy", () => {
  test("when a new organisation lists its policies, then the default policy is there (once, however often it is read) and the plan is free", async () => {
    const { call, organization } = await onboarded();
    const base = `/organizations/${organization.organizationId}/policies`;
    const [first, second] = await Promise.all([call(base), call(base)]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const answer = (await call(base)).body as PoliciesResponse;
    expect(answer.planId).toBe("matterhorn");
    expect(answer.policies).toEqual([
      expect.objectContaining({
        policyId: "default",
        name: "Default policy",
        isDefault: true,
        dataTypes: ["emails", "drive"],
        services: ["gmail", "drive"],
        frequency: 1,
        schedule: "every-day",
        days: [],
        retentionDays: 30,
        archiving: false,
        plan: "matterhorn",
        resourceCount: 0,
      }),
    ]);
    expect(await call(`${base}/default`)).toMatchObject({ status: 200, body: { name: "Default policy" } });
  });

  test("when the default policy is deleted, then it is refused on a paid plan (409) and on the free plan (403)", async () => {
    const { call, organization } = await onboarded();
    const path = `/organizations/${organization.organizationId}/policies/default`;
    expect(await call(path, { method: "DELETE" })).toMatchObject({
      status: 403,
      body: { code: 403, message: POLICY_MESSAGES.freePlan },
    });
    await setAccount(organization, { planId: "geneva", seats: 5 });
    expect(await call(path, { method: "DELETE" })).toMatchObject({
      status: 409,
      body: { code: 409, message: POLICY_MESSAGES.defaultUndeletable },
    });
    expect((await call(path)).status).toBe(200);
  });

  test("when a paid organisation renames its default policy, then the new name is kept and it stays the default", async () => {
    const { call, organization } = await onboarded();
    await setAccount(organization, { planId: "zurich", seats: 5 });
    const path = `/organizations/${organization.organizationId}/policies/default`;
    expect(await call(path, { method: "PATCH", body: { name: "Everyone" } })).toMatchObject({
      status: 200,
      body: { policyId: "default", name: "Everyone", isDefault: true, frequency: 1 },
    });
  });
});

describe("validation", () => {
  test("when a policy breaks a rule of docs/requirements.md#validation, then the API answers 400 with the form's exact text", async () => {
    const { call, organization } = await onboarded();
    await setAccount(organization, { planId: "zurich", seats: 5 });
    const base = `/organizations/${organization.organizationId}/policies`;
    const { name: _name, ...withoutName } = GOLD;
    const { dataTypes: _types, ...withoutTypes } = GOLD;
    const { frequency: _frequency, ...withoutFrequency } = GOLD;
    const { schedule: _schedule, ...withoutSchedule } = GOLD;
    const cases: [unknown, string][] = [
      [withoutName, POLICY_MESSAGES.nameRequired],
      [{ ...GOLD, name: "" }, POLICY_MESSAGES.nameRequired],
      [{ ...GOLD, name: "   " }, POLICY_MESSAGES.nameRequired],
      [{ ...GOLD, name: "x".repeat(81) }, POLICY_MESSAGES.nameTooLong],
      [withoutTypes, POLICY_MESSAGES.dataTypesRequired],
      [{ ...GOLD, dataTypes: [] }, POLICY_MESSAGES.dataTypesRequired],
      [{ ...GOLD, dataTypes: ["emails", "chats"] }, POLICY_MESSAGES.dataTypeComingSoon],
      [{ ...GOLD, dataTypes: ["directory"] }, POLICY_MESSAGES.dataTypeComingSoon],
      [{ ...GOLD, dataTypes: ["printers"] }, POLICY_MESSAGES.dataTypeUnknown],
      [withoutFrequency, POLICY_MESSAGES.frequencyRequired],
      [{ ...GOLD, frequency: 2 }, POLICY_MESSAGES.frequencyRequired],
      [{ ...GOLD, frequency: "3" }, POLICY_MESSAGES.frequencyRequired],
      [withoutSchedule, POLICY_MESSAGES.scheduleRequired],
      [{ ...GOLD, schedule: "sometimes" }, POLICY_MESSAGES.scheduleRequired],
      [{ ...GOLD, schedule: "days", days: [] }, POLICY_MESSAGES.scheduleRequired],
      [{ ...GOLD, schedule: "days", days: ["someday"] }, POLICY_MESSAGES.scheduleRequired],
      [{ ...GOLD, retentionDays: 0 }, POLICY_MESSAGES.retentionRange],
      [{ ...GOLD, retentionDays: "30" }, POLICY_MESSAGES.retentionRequired],
      [{ ...GOLD, archiving: "yes" }, POLICY_MESSAGES.archivingRequired],
      [{ ...GOLD, owner: "me" }, POLICY_MESSAGES.unknownField],
      [["not", "an", "object"], POLICY_MESSAGES.invalidBody],
    ];
    for (const [body, message] of cases) {
      const answer = await call(base, { method: "POST", body });
      expect({ body, answer: answer.body }).toEqual({ body, answer: { code: 400, message } });
    }
    const created = await call(base, { method: "POST", body: GOLD });
    expect(created.status).toBe(201);
    const path = `${base}/${(created.body as Policy).policyId}`;
    for (const [body, message] of [
      [{ name: "" }, POLICY_MESSAGES.nameRequired],
      [{ dataTypes: [] }, POLICY_MESSAGES.dataTypesRequired],
      [{ frequency: null }, POLICY_MESSAGES.frequencyRequired],
      [{ schedule: null }, POLICY_MESSAGES.scheduleRequired],
      [{ schedule: "days" }, POLICY_MESSAGES.scheduleRequired],
    ] as const) {
      expect(await call(path, { method: "PATCH", body })).toMatchObject({
        status: 400,
        body: { code: 400, message },
      });
    }
    // Nothing of the refused changes was stored.
    expect((await call(path)).body).toMatchObject(GOLD);
  });

  test("when a valid policy is created with chosen days, then they are kept in week order and the derived fields follow", async () => {
    const { call, organization } = await onboarded();
    await setAccount(organization, { planId: "geneva", seats: 5 });
    const answer = await call(`/organizations/${organization.organizationId}/policies`, {
      method: "POST",
      body: {
        ...GOLD,
        name: "  Mail twice a week  ",
        dataTypes: ["emails"],
        frequency: 3,
        schedule: "days",
        days: ["friday", "monday", "friday"],
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      name: "Mail twice a week",
      days: ["monday", "friday"],
      services: ["gmail"],
      plan: "geneva",
      isDefault: false,
      resourceCount: 0,
    });
  });
});

describe("plan rules (docs/requirements.md#who-may-do-what)", () => {
  test("when each plan creates, edits and deletes policies at 1, 3 and 24 backups a day, then only what the plan allows passes, with the rule's text otherwise", async () => {
    const { call, organization } = await onboarded();
    const base = `/organizations/${organization.organizationId}/policies`;
    await setAccount(organization, { planId: "zurich", seats: 5 });
    const existing = (await call(base, { method: "POST", body: { ...GOLD, name: "Existing" } }))
      .body as Policy;
    const path = `${base}/${existing.policyId}`;

    const expected = {
      matterhorn: { 1: POLICY_MESSAGES.freePlan, 3: POLICY_MESSAGES.freePlan, 24: POLICY_MESSAGES.freePlan },
      geneva: { 1: null, 3: null, 24: POLICY_MESSAGES.frequency24 },
      zurich: { 1: null, 3: null, 24: null },
    } as const;
    const outcomes: string[] = [];
    for (const planId of ["matterhorn", "geneva", "zurich"] as const) {
      await setAccount(organization, { planId });
      for (const frequency of [1, 3, 24] as const) {
        const denial = expected[planId][frequency];
        const created = await call(base, {
          method: "POST",
          body: { ...GOLD, name: `${planId} ${frequency}`, frequency },
        });
        const edited = await call(path, { method: "PATCH", body: { frequency } });
        outcomes.push(
          `${planId} create ${frequency}: ${created.status}`,
          `${planId} edit ${frequency}: ${edited.status}`,
        );
        if (denial) {
          expect(created.body).toEqual({ code: 403, message: denial });
          expect(edited.body).toEqual({ code: 403, message: denial });
        } else {
          expect(created.body).toMatchObject({ frequency, name: `${planId} ${frequency}` });
          expect(edited.body).toMatchObject({ frequency, policyId: existing.policyId });
          const removed = await call(`${base}/${(created.body as Policy).policyId}`, { method: "DELETE" });
          outcomes.push(`${planId} delete: ${removed.status}`);
        }
      }
      if (planId === "matterhorn") {
        expect(await call(path, { method: "DELETE" })).toMatchObject({
          status: 403,
          body: { message: POLICY_MESSAGES.freePlan },
        });
        expect(await call(path, { method: "PATCH", body: { name: "Renamed" } })).toMatchObject({
          status: 403,
          body: { message: POLICY_MESSAGES.freePlan },
        });
      }
    }
    expect(outcomes).toEqual([
      "matterhorn create 1: 403",
      "matterhorn edit 1: 403",
      "matterhorn create 3: 403",
      "matterhorn edit 3: 403",
      "matterhorn create 24: 403",
      "matterhorn edit 24: 403",
      "geneva create 1: 201",
      "geneva edit 1: 200",
      "geneva delete: 200",
      "geneva create 3: 201",
      "geneva edit 3: 200",
      "geneva delete: 200",
      "geneva create 24: 403",
      "geneva edit 24: 403",
      "zurich create 1: 201",
      "zurich edit 1: 200",
      "zurich delete: 200",
      "zurich create 3: 201",
      "zurich edit 3: 200",
      "zurich delete: 200",
      "zurich create 24: 201",
      "zurich edit 24: 200",
      "zurich delete: 200",
    ]);
    // Only "Existing" and the default are left; "Existing" was last set to 24 a day on Zürich.
    const left = ((await call(base)).body as PoliciesResponse).policies;
    expect(left.map((policy) => [policy.name, policy.frequency])).toEqual([
      ["Default policy", 1],
      ["Existing", 24],
    ]);
  });

  test("when Geneva and Zürich back up contacts and calendars, then only Zürich may, on create and edit, and the services follow", async () => {
    const { call, organization } = await onboarded();
    const base = `/organizations/${organization.organizationId}/policies`;
    await setAccount(organization, { planId: "geneva", seats: 5 });
    const mail = (await call(base, { method: "POST", body: { ...GOLD, name: "Mail" } })).body as Policy;
    for (const dataTypes of [["contacts"], ["emails", "calendars"]]) {
      expect(
        await call(base, { method: "POST", body: { ...GOLD, name: "Everything", dataTypes } }),
      ).toMatchObject({ status: 403, body: { code: 403, message: POLICY_MESSAGES.dataTypePlan } });
      expect(await call(`${base}/${mail.policyId}`, { method: "PATCH", body: { dataTypes } })).toMatchObject({
        status: 403,
        body: { code: 403, message: POLICY_MESSAGES.dataTypePlan },
      });
    }
    await setAccount(organization, { planId: "zurich" });
    const everything = await call(base, {
      method: "POST",
      body: { ...GOLD, name: "Everything", dataTypes: ["calendars", "emails", "contacts", "drive"] },
    });
    expect(everything).toMatchObject({
      status: 201,
      body: {
        dataTypes: ["emails", "drive", "contacts", "calendars"],
        services: ["gmail", "drive", "contacts", "calendars"],
      },
    });
    expect(
      await call(`${base}/${mail.policyId}`, { method: "PATCH", body: { dataTypes: ["contacts"] } }),
    ).toMatchObject({ status: 200, body: { dataTypes: ["contacts"], services: ["contacts"] } });
    const refusals = (await auditEntries(call, organization.organizationId)).filter(
      (entry) => entry.failureReason === POLICY_MESSAGES.dataTypePlan,
    );
    expect(refusals.map((entry) => entry.operation).sort()).toEqual([
      "policy.created",
      "policy.created",
      "policy.updated",
      "policy.updated",
    ]);
  });

  test("when the free plan assigns the default policy, then it is allowed", async () => {
    const { call, organization } = await onboarded();
    const [resource] = await resourcesOf(call, organization.organizationId);
    const answer = await call(`/organizations/${organization.organizationId}/policies/default/assign`, {
      method: "POST",
      body: { resourceIds: [resource?.resourceId] },
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { policyId: "default", assigned: 1, backupsQueued: 1 },
    });
  });
});

describe("delete", () => {
  test("when a policy still has resources, then deleting it is 409 with the required text; once they are reassigned it is deleted", async () => {
    const { call, organization } = await onboarded();
    await setAccount(organization, { planId: "geneva", seats: 5 });
    const base = `/organizations/${organization.organizationId}/policies`;
    const policy = (await call(base, { method: "POST", body: GOLD })).body as Policy;
    const [resource] = await resourcesOf(call, organization.organizationId);
    const resourceIds = [resource?.resourceId];
    expect(
      (await call(`${base}/${policy.policyId}/assign`, { method: "POST", body: { resourceIds } })).status,
    ).toBe(200);
    expect(await call(`${base}/${policy.policyId}`, { method: "DELETE" })).toMatchObject({
      status: 409,
      body: {
        code: 409,
        message:
          "Policy can not be deleted as it has resources already in use. Please reassign them and try again.",
      },
    });
    expect((await call(`${base}/default/assign`, { method: "POST", body: { resourceIds } })).status).toBe(
      200,
    );
    expect(await call(`${base}/${policy.policyId}`, { method: "DELETE" })).toMatchObject({
      status: 200,
      body: { policyId: policy.policyId },
    });
    expect(await call(`${base}/${policy.policyId}`)).toMatchObject({
      status: 404,
      body: { code: 404, message: POLICY_MESSAGES.notFound },
    });
    expect((await call(`${base}/${policy.policyId}`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("assignment", () => {
  test("when a policy is assigned to two resources, then they carry it, are protected with their next backup, and each has one pending backup run", async () => {
    const { workspace, call, organization } = await onboarded();
    await setAccount(organization, { planId: "geneva", seats: 5 });
    const id = organization.organizationId;
    const base = `/organizations/${id}/policies`;
    const policy = (
      await call(base, { method: "POST", body: { ...GOLD, frequency: 3, schedule: "every-day" } })
    ).body as Policy;
    const all = await resourcesOf(call, id);
    const chosen = all.filter((resource) => resource.name === "Finance" || resource.email === workspace.user);
    const resourceIds = chosen.map((resource) => resource.resourceId);
    expect(resourceIds).toHaveLength(2);

    const before = new Date();
    const answer = await call(`${base}/${policy.policyId}/assign`, { method: "POST", body: { resourceIds } });
    const after = new Date();
    expect(answer).toMatchObject({
      status: 200,
      body: { policyId: policy.policyId, assigned: 2, backupsQueued: 2 } satisfies AssignPolicyResponse,
    });
    const timing = { frequency: 3, schedule: "every-day", days: [] } as const;
    const possible = [nextBackupAt(timing, before), nextBackupAt(timing, after)].map((date) =>
      date?.toISOString(),
    );
    const assigned = (await resourcesOf(call, id)).filter((resource) =>
      resourceIds.includes(resource.resourceId),
    );
    for (const resource of assigned) {
      expect(resource).toMatchObject({ policyId: policy.policyId, policyName: "Gold", protected: true });
      expect(possible).toContain(resource.nextBackupAt);
    }
    const others = (await resourcesOf(call, id)).filter(
      (resource) => !resourceIds.includes(resource.resourceId),
    );
    expect(others.every((resource) => resource.policyId === null && !resource.protected)).toBe(true);

    // One backup run per resource (the worker may have started or finished it already).
    const runs = await backupRuns(organization);
    expect(runs.map((run) => run.resourceId).sort()).toEqual([...resourceIds].sort());
    for (const run of runs) {
      expect(run).toMatchObject({
        policyId: policy.policyId,
        trigger: "policy-assigned",
        requestedBy: workspace.admin,
      });
      expect(["pending", "running", "succeeded", "failed"]).toContain(run.state);
      expect(typeof run.requestedAt).toBe("string");
    }

    // Assigning again, or another policy, never gives a resource two active runs; its latest run is for
    // the policy assigned last.
    expect(
      (await call(`${base}/${policy.policyId}/assign`, { method: "POST", body: { resourceIds } })).status,
    ).toBe(200);
    expect(
      (
        await call(`${base}/default/assign`, {
          method: "POST",
          body: { resourceIds: [resourceIds[0], resourceIds[0]] },
        })
      ).body,
    ).toMatchObject({ assigned: 1 });
    const afterSwitch = await backupRuns(organization);
    for (const resourceId of resourceIds) {
      expect(
        afterSwitch.filter((run) => run.resourceId === resourceId && isActive(run)).length,
      ).toBeLessThanOrEqual(1);
    }
    const latest = afterSwitch
      .filter((run) => run.resourceId === resourceIds[0])
      .sort((a, b) => String(a.requestedAt).localeCompare(String(b.requestedAt)))
      .pop();
    expect(latest?.policyId).toBe("default");

    // The resources list filters by policy; the analytics count the protected resources.
    const filtered = (await call(`/organizations/${id}/resources?policyId=${policy.policyId}`))
      .body as ResourcesPage;
    expect(filtered.resources.map((resource) => resource.resourceId)).toEqual([resourceIds[1]]);
    expect((await call(`/organizations/${id}/analytics`)).body).toMatchObject({ protectedResources: 2 });
    const listed = ((await call(base)).body as PoliciesResponse).policies;
    expect(listed.map((item) => [item.name, item.resourceCount])).toEqual([
      ["Default policy", 1],
      ["Gold", 1],
    ]);
  });

  test("when a policy is renamed or re-timed, then its resources show the new name and next backup", async () => {
    const { call, organization } = await onboarded();
    await setAccount(organization, { planId: "zurich", seats: 5 });
    const id = organization.organizationId;
    const base = `/organizations/${id}/policies`;
    const policy = (await call(base, { method: "POST", body: GOLD })).body as Policy;
    const [resource] = await resourcesOf(call, id);
    const resourceIds = [resource?.resourceId as string];
    await call(`${base}/${policy.policyId}/assign`, { method: "POST", body: { resourceIds } });
    const before = new Date();
    expect(
      await call(`${base}/${policy.policyId}`, {
        method: "PATCH",
        body: { name: "Platinum", frequency: 24, schedule: "every-day" },
      }),
    ).toMatchObject({
      status: 200,
      body: { name: "Platinum", frequency: 24, plan: "zurich", resourceCount: 1 },
    });
    const after = new Date();
    const updated = (await resourcesOf(call, id)).find((item) => item.resourceId === resourceIds[0]);
    expect(updated?.policyName).toBe("Platinum");
    const timing = { frequency: 24, schedule: "every-day", days: [] } as const;
    expect(
      [nextBackupAt(timing, before), nextBackupAt(timing, after)].map((date) => date?.toISOString()),
    ).toContain(updated?.nextBackupAt);
    // Schedule "none": no scheduled backup, still protected (manual and policy-assigned backups run).
    await call(`${base}/${policy.policyId}`, { method: "PATCH", body: { schedule: "none" } });
    expect((await resourcesOf(call, id)).find((item) => item.resourceId === resourceIds[0])).toMatchObject({
      nextBackupAt: null,
      protected: true,
    });
  });

  test("when the assign call is malformed or names unknown resources or policies, then it is 400/404 and nothing changes", async () => {
    const { call, organization } = await onboarded();
    const id = organization.organizationId;
    const base = `/organizations/${id}/policies`;
    const [resource] = await resourcesOf(call, id);
    for (const body of [{}, { resourceIds: [] }, { resourceIds: "user-1" }, undefined]) {
      expect(await call(`${base}/default/assign`, { method: "POST", body })).toMatchObject({
        status: 400,
        body: { code: 400, message: POLICY_MESSAGES.resourceIdsRequired },
      });
    }
    expect(
      await call(`${base}/default/assign`, {
        method: "POST",
        body: { resourceIds: [resource?.resourceId, "user-nobody"] },
      }),
    ).toMatchObject({ status: 404, body: { code: 404, message: POLICY_MESSAGES.resourcesNotFound } });
    expect(
      await call(`${base}/no-such-policy/assign`, {
        method: "POST",
        body: { resourceIds: [resource?.resourceId] },
      }),
    ).toMatchObject({ status: 404, body: { code: 404, message: POLICY_MESSAGES.notFound } });
    expect((await resourcesOf(call, id)).every((item) => item.policyId === null)).toBe(true);
    expect(await backupRuns(organization)).toEqual([]);
  });
});

describe("audit", () => {
  test("when policies are created, updated, assigned and deleted, then each change has its entry; a plan refusal is logged as failed", async () => {
    const { workspace, call, organization } = await onboarded();
    const id = organization.organizationId;
    const base = `/organizations/${id}/policies`;
    expect((await call(base, { method: "POST", body: GOLD })).status).toBe(403);
    await setAccount(organization, { planId: "geneva", seats: 5 });
    const policy = (await call(base, { method: "POST", body: GOLD })).body as Policy;
    await call(`${base}/${policy.policyId}`, { method: "PATCH", body: { name: "Silver" } });
    const resources = await resourcesOf(call, id);
    await call(`${base}/${policy.policyId}/assign`, {
      method: "POST",
      body: { resourceIds: resources.slice(0, 2).map((resource) => resource.resourceId) },
    });
    await call(`${base}/default/assign`, {
      method: "POST",
      body: { resourceIds: resources.slice(0, 2).map((resource) => resource.resourceId) },
    });
    await call(`${base}/${policy.policyId}`, { method: "DELETE" });
    const entries = (await auditEntries(call, id))
      .filter(
        (entry) => entry.operation.startsWith("policy.") || entry.operation === "resources.policy-updated",
      )
      .reverse()
      .map(({ operation, actor, object, failureReason }) => ({ operation, actor, object, failureReason }));
    expect(entries).toEqual([
      {
        operation: "policy.created",
        actor: workspace.admin,
        object: "Gold",
        failureReason: POLICY_MESSAGES.freePlan,
      },
      { operation: "policy.created", actor: workspace.admin, object: "Gold", failureReason: null },
      { operation: "policy.updated", actor: workspace.admin, object: "Gold → Silver", failureReason: null },
      {
        operation: "resources.policy-updated",
        actor: workspace.admin,
        object: "Silver assigned to 2 resources",
        failureReason: null,
      },
      {
        operation: "resources.policy-updated",
        actor: workspace.admin,
        object: "Default policy assigned to 2 resources",
        failureReason: null,
      },
      { operation: "policy.deleted", actor: workspace.admin, object: "Silver", failureReason: null },
    ]);
  });
});

describe("tenant isolation", () => {
  test("when another organisation's admin uses this one's policies, then every route is 404 with no data", async () => {
    const first = await onboarded();
    const second = await onboarded();
    await setAccount(first.organization, { planId: "zurich", seats: 5 });
    await setAccount(second.organization, { planId: "zurich", seats: 5 });
    const id = first.organization.organizationId;
    const policy = (await first.call(`/organizations/${id}/policies`, { method: "POST", body: GOLD }))
      .body as Policy;
    const routes: [string, string, unknown][] = [
      [`/organizations/${id}/policies`, "GET", undefined],
      [`/organizations/${id}/policies`, "POST", GOLD],
      [`/organizations/${id}/policies/${policy.policyId}`, "GET", undefined],
      [`/organizations/${id}/policies/${policy.policyId}`, "PATCH", { name: "Mine now" }],
      [`/organizations/${id}/policies/${policy.policyId}`, "DELETE", undefined],
      [`/organizations/${id}/policies/${policy.policyId}/assign`, "POST", { resourceIds: ["user-1"] }],
    ];
    for (const [path, method, body] of routes) {
      const answer = await second.call(path, { method, body });
      expect({ path, method, status: answer.status, body: answer.body }).toEqual({
        path,
        method,
        status: 404,
        body: { code: 404, message: ORGANIZATION_MESSAGES.organizationNotFound },
      });
    }
    // Its own policy ids do not reach the other organisation's policies or resources either.
    const secondId = second.organization.organizationId;
    expect((await second.call(`/organizations/${secondId}/policies/${policy.policyId}`)).status).toBe(404);
    const firstResources = await resourcesOf(first.call, id);
    expect(
      await second.call(`/organizations/${secondId}/policies/default/assign`, {
        method: "POST",
        body: { resourceIds: [firstResources[0]?.resourceId] },
      }),
    ).toMatchObject({ status: 404, body: { code: 404, message: POLICY_MESSAGES.resourcesNotFound } });
    expect((await first.call(`/organizations/${id}/policies/${policy.policyId}`)).body).toMatchObject({
      name: "Gold",
    });
  });

  test("when a non-admin of the same domain asks, then it is 403 with the required text", async () => {
    const { workspace, organization } = await onboarded();
    const user = await asUser(workspace.user);
    expect(await user(`/organizations/${organization.organizationId}/policies`)).toMatchObject({
      status: 403,
      body: { code: 403, message: ORGANIZATION_MESSAGES.notAdmin },
    });
  });
});
