/**
 * The audit log through the API: entries written by the operations that happen during set-up and sign-in,
 * the date range rules of docs/requirements.md#validation (same texts as the browser), paging, and tenant isolation.
 */
import { AUDIT_MESSAGES, type AuditPage } from "@alpvault/contracts/audit";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { asUser, newWorkspace, onboarded, withRegionDb } from "../support/organizations";
import { today } from "../support/backup-runs";

test("when an organisation is set up and its admin connects, then 'resources added' and one 'user logged in' per sign-in are logged", async () => {
  const { workspace, call, organization } = await onboarded();
  const base = `/organizations/${organization.organizationId}/audit-logs?start=${today()}&end=${today()}`;
  // Connecting reads the installation, then the organisation's details in its region, after each sign-in.
  for (let connect = 0; connect < 2; connect += 1) {
    await call("/installation");
    await call(`/organizations/${organization.organizationId}`);
  }
  const answer = await call(base);
  expect(answer.status).toBe(200);
  const page = answer.body as AuditPage;
  const operations = page.entries.map((entry) => entry.operation).sort();
  expect(operations).toEqual(["resources.added", "user.logged-in"]);
  const login = page.entries.find((entry) => entry.operation === "user.logged-in");
  expect(login).toMatchObject({ actor: workspace.admin, object: workspace.admin, failureReason: null });
  const added = page.entries.find((entry) => entry.operation === "resources.added");
  expect(added).toMatchObject({ actor: workspace.admin, object: "5 resources added" });
  expect(page).toMatchObject({ page: 1, totalEntries: 2, totalPages: 1 });
});

test("when the date range breaks a rule, then the API answers 400 with the browser's text", async () => {
  const { call, organization } = await onboarded();
  const base = `/organizations/${organization.organizationId}/audit-logs`;
  const cases: [string, string][] = [
    [`?end=${today()}`, AUDIT_MESSAGES.startRequired],
    [`?start=${today()}`, AUDIT_MESSAGES.endRequired],
    ["?start=2026-05-02&end=2026-05-01", AUDIT_MESSAGES.startBeforeEnd],
    ["?start=05-01-2026&end=2026-05-02", AUDIT_MESSAGES.invalidDate],
    [`?start=${today()}&end=${today()}&page=0`, AUDIT_MESSAGES.invalidPage],
  ];
  for (const [query, message] of cases) {
    expect(await call(`${base}${query}`)).toMatchObject({ status: 400, body: { code: 400, message } });
  }
});

test("when there are more entries than a page, then pages split them newest first with 'Page X of Y' figures, and the range bounds whole days", async () => {
  const { call, organization } = await onboarded("eu");
  await withRegionDb("region-eu", async (db) => {
    const logs = db.collection("organizations").doc(organization.organizationId).collection("auditLogs");
    const batch = db.batch();
    for (let day = 1; day <= 25; day += 1) {
      batch.create(logs.doc(), {
        date: `2026-03-${String(day).padStart(2, "0")}T12:00:00.000Z`,
        actor: "someone@example.test",
        operation: "policy.updated",
        object: `Policy ${day}`,
        failureReason: null,
      });
    }
    await batch.commit();
  });
  const base = `/organizations/${organization.organizationId}/audit-logs?start=2026-03-01&end=2026-03-31&pageSize=10`;
  const first = (await call(base)).body as AuditPage;
  expect(first).toMatchObject({ page: 1, pageSize: 10, totalEntries: 25, totalPages: 3 });
  expect(first.entries.map((entry) => entry.object).slice(0, 2)).toEqual(["Policy 25", "Policy 24"]);
  const last = (await call(`${base}&page=3`)).body as AuditPage;
  expect(last.entries.map((entry) => entry.object)).toEqual([
    "Policy 5",
    "Policy 4",
    "Policy 3",
    "Policy 2",
    "Policy 1",
  ]);
  const oneDay = (
    await call(`/organizations/${organization.organizationId}/audit-logs?start=2026-03-10&end=2026-03-10`)
  ).body as AuditPage;
  expect(oneDay.entries.map((entry) => entry.object)).toEqual(["Policy 10"]);
  const empty = (
    await call(`/organizations/${organization.organizationId}/audit-logs?start=2020-01-01&end=2020-01-02`)
  ).body as AuditPage;
  expect(empty).toMatchObject({ entries: [], totalEntries: 0, totalPages: 1 });
});

test("when another organisation's admin asks for the log, then they get 404 and no entries; no route edits or deletes entries", async () => {
  const { call, organization } = await onboarded();
  const stranger = await newWorkspace({ installed: true });
  const other = await asUser(stranger.admin);
  const path = `/organizations/${organization.organizationId}/audit-logs?start=${today()}&end=${today()}`;
  expect(await other(path)).toMatchObject({
    status: 404,
    body: { code: 404, message: ORGANIZATION_MESSAGES.organizationNotFound },
  });
  for (const method of ["DELETE", "PUT", "PATCH", "POST"]) {
    expect((await call(path, { method })).status).toBe(404);
  }
});
