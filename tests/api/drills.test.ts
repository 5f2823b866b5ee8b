/**
 * Restore drills through the API, end to end on the stack: the settings' validation texts; a drill of a
 * backed-up mailbox (5 messages and a file) restores its whole sample into the sandbox mailbox, reads it
 * back and finds every item matched, then leaves nothing behind in the sandbox but the trash; with the
 * sandbox storing one imported message altered (the Workspace emulator's test-only corrupt-upload fault),
 * the drill names that message as mismatched, fails, is audited so and raises an alert; another
 * organisation's admin gets 404 and a non-admin 403.
 */
import type { AlertsResponse } from "@alpvault/contracts/organizations";
import { DRILL_MESSAGES, type DrillRunsPage, type DrillSettings } from "@alpvault/contracts/drills";
import { SCOPES } from "../../emulators/workspace/src/index";
import {
  assignDefaultPolicy,
  auditOperations,
  finishedRun,
  organizationWithData,
  resourceOf,
  runsOf,
} from "../support/backup-runs";
import { runDrill as runDrillAs } from "../support/drills";
import { asUser, onboarded } from "../support/organizations";
import { gmailFor, workspaceAdmin } from "../support/workspace";

jest.setTimeout(240_000);

let setup: Awaited<ReturnType<typeof organizationWithData>>;
let base: string;
let sandboxId: string;

const settings = (body: Record<string, unknown>) => setup.call(`${base}/drills`, { method: "PUT", body });

const runDrill = () => runDrillAs(setup.call, base, setup.workspace.admin);

beforeAll(async () => {
  setup = await organizationWithData(5);
  base = `/organizations/${setup.organization.organizationId}`;
  await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  const [run] = await runsOf(setup.organization, setup.resource.resourceId);
  expect(await finishedRun(setup.organization, setup.resource.resourceId, run!.runId)).toMatchObject({
    state: "succeeded",
  });
  sandboxId = (await resourceOf(setup.call, setup.organization, setup.workspace.admin)).resourceId;
});

test("when the drill settings break the rules, then the API answers 400 with their texts; an unknown sandbox is 404", async () => {
  const valid = { enabled: true, sandboxResourceId: sandboxId, sampleSize: 5, schedule: "weekly" };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...valid, sampleSize: 0 }, DRILL_MESSAGES.sampleSize],
    [{ ...valid, sampleSize: 51 }, DRILL_MESSAGES.sampleSize],
    [{ ...valid, sampleSize: 2.5 }, DRILL_MESSAGES.sampleSize],
    [{ ...valid, schedule: "hourly" }, DRILL_MESSAGES.schedule],
    [{ ...valid, sandboxResourceId: null }, DRILL_MESSAGES.sandboxRequired],
    [{ ...valid, extra: 1 }, DRILL_MESSAGES.unknownField],
    [{ ...valid, sandboxResourceId: "a/b" }, DRILL_MESSAGES.sandboxInvalid],
  ];
  for (const [body, message] of cases) {
    expect(await settings(body)).toMatchObject({ status: 400, body: { code: 400, message } });
  }
  expect(await settings({ ...valid, sampleSize: "5" })).toMatchObject({ status: 400, body: { code: 400 } });
  expect(await settings({ ...valid, enabled: "yes" })).toMatchObject({ status: 400, body: { code: 400 } });
  const drive = (await setup.call(`${base}/resources?type=shared_drive`)).body as {
    resources: { resourceId: string }[];
  };
  expect(await settings({ ...valid, sandboxResourceId: drive.resources[0]!.resourceId })).toMatchObject({
    status: 400,
    body: { code: 400, message: DRILL_MESSAGES.sandboxInvalid },
  });
  expect(await settings({ ...valid, sandboxResourceId: "user-nobody" })).toMatchObject({
    status: 404,
    body: { code: 404 },
  });
  // Nothing was saved: a drill cannot start without a sandbox.
  expect(await setup.call(`${base}/drills/run`, { method: "POST" })).toMatchObject({
    status: 400,
    body: { code: 400, message: DRILL_MESSAGES.sandboxRequired },
  });
  expect(await setup.call(`${base}/drills/runs/nosuchrun`)).toMatchObject({
    status: 404,
    body: { code: 404, message: DRILL_MESSAGES.runNotFound },
  });
  expect(await setup.call(`${base}/drills/runs?page=0`)).toMatchObject({
    status: 400,
    body: { code: 400, message: DRILL_MESSAGES.invalidPage },
  });
});

test("when a drill runs on a backed-up mailbox, then its whole sample is restored into the sandbox, read back and matched, and the sandbox keeps nothing of it outside the trash", async () => {
  const saved = await settings({
    enabled: true,
    sandboxResourceId: sandboxId,
    sampleSize: 5,
    schedule: "weekly",
  });
  expect(saved.status).toBe(200);
  expect(saved.body).toMatchObject({
    enabled: true,
    sandboxResourceId: sandboxId,
    sandboxEmail: setup.workspace.admin,
    sampleSize: 5,
    schedule: "weekly",
    updatedBy: setup.workspace.admin,
  });
  const next = (saved.body as DrillSettings).nextDrillAt;
  expect(next).not.toBeNull();
  expect(new Date(next!).getUTCDay()).toBe(0);
  expect((await setup.call(`${base}/drills`)).body).toEqual(saved.body);

  const run = await runDrill();
  // 5 messages and the one file: every item of the mailbox is drawn, and each came back identical.
  expect(run).toMatchObject({
    state: "passed",
    failureReason: null,
    sandboxEmail: setup.workspace.admin,
    counts: { sample: 6, matched: 6, mismatched: 0, failed: 0, skipped: 0 },
    resources: [{ resourceId: setup.resource.resourceId, name: setup.workspace.user, sample: 6, matched: 6 }],
    problems: [],
  });
  expect(run.durationMs).toBeGreaterThanOrEqual(0);
  expect(run.items.map((item) => item.outcome)).toEqual(Array(6).fill("matched"));
  expect(run.items.filter((item) => item.service === "drive").map((item) => item.name)).toEqual([
    "budget.txt",
  ]);
  expect(
    run.items
      .filter((item) => item.service === "gmail")
      .map((item) => item.name)
      .sort(),
  ).toEqual(
    [...Array(5).keys()].map((index) => `Quarterly figures ${index} ${setup.organization.organizationId}`),
  );

  // The restored copies are in the sandbox's trash, and the drill's label is gone.
  const gmail = gmailFor(setup.workspace.admin, [SCOPES.gmailReadonly]);
  const restored = await gmail.users.messages.list({
    userId: "me",
    q: `rfc822msgid:m0.${setup.organization.organizationId}@x.test`,
    includeSpamTrash: true,
  });
  expect(restored.data.messages?.length).toBe(1);
  const copy = await gmail.users.messages.get({
    userId: "me",
    id: restored.data.messages![0]!.id!,
    format: "minimal",
  });
  expect(copy.data.labelIds).toEqual(["TRASH"]);
  const labels = await gmail.users.labels.list({ userId: "me" });
  expect((labels.data.labels ?? []).filter((label) => label.name?.startsWith("Alpvault drill"))).toEqual([]);

  const history = (await setup.call(`${base}/drills/runs`)).body as DrillRunsPage;
  expect(history).toMatchObject({ page: 1, total: 1 });
  expect(history.runs[0]).toMatchObject({ drillRunId: run.drillRunId, state: "passed" });
  const operations = await auditOperations(setup.call, setup.organization);
  expect(operations.map((entry) => entry.operation)).toEqual(
    expect.arrayContaining(["drill-settings.updated", "drill.started", "drill.finished"]),
  );
});

test("when the sandbox stores a restored message altered, then the drill names it as mismatched, fails, is audited and raises an alert", async () => {
  // A fresh sandbox: the first one holds the last drill's copies in its trash (Gmail keeps one per Message-ID).
  const email = `drill-sandbox@${setup.workspace.domain}`;
  expect(
    (await workspaceAdmin("POST", "/users", { email, givenName: "Drill", familyName: "Sandbox" })).status,
  ).toBe(200);
  expect((await setup.call(`${base}/resources/sync`, { method: "POST" })).status).toBe(200);
  const sandbox = await resourceOf(setup.call, setup.organization, email);
  expect(
    (
      await settings({
        enabled: true,
        sandboxResourceId: sandbox.resourceId,
        sampleSize: 5,
        schedule: "daily",
      })
    ).status,
  ).toBe(200);
  const fault = await workspaceAdmin<{ id: string }>("POST", "/faults", {
    method: "gmail.users.messages.import",
    user: email,
    action: { kind: "corrupt-upload" },
    times: 1,
  });
  expect(fault.status).toBe(200);
  try {
    const run = await runDrill();
    expect(run).toMatchObject({
      state: "failed",
      failureReason: "1 of 6 items did not match their backup",
      counts: { sample: 6, matched: 5, mismatched: 1, failed: 0, skipped: 0 },
    });
    expect(run.problems).toHaveLength(1);
    const [problem] = run.problems;
    expect(problem).toMatchObject({
      resourceId: setup.resource.resourceId,
      service: "gmail",
      outcome: "mismatched",
      name: expect.stringMatching(/^Quarterly figures \d /),
    });
    expect(problem!.reason).toMatch(/^The restored copy differs from the backup from byte \d+$/);
    expect(run.items.find((item) => item.itemKey === problem!.itemKey)).toMatchObject({
      outcome: "mismatched",
    });

    const alerts = (await setup.call(`${base}/alerts`)).body as AlertsResponse;
    expect(alerts.alerts).toContainEqual(
      expect.objectContaining({
        kind: "drill-failed",
        message: `Restore drill failed: ${run.failureReason}`,
      }),
    );
    const operations = await auditOperations(setup.call, setup.organization);
    expect(operations).toContainEqual(
      expect.objectContaining({ operation: "drill.failed", failureReason: run.failureReason }),
    );
    const history = (await setup.call(`${base}/drills/runs?pageSize=1`)).body as DrillRunsPage;
    expect(history).toMatchObject({ page: 1, pageSize: 1, total: 2 });
    expect(history.runs.map((entry) => entry.drillRunId)).toEqual([run.drillRunId]);
  } finally {
    await workspaceAdmin("DELETE", `/faults/${fault.body.id}`);
  }
});

test("when a stranger calls the drill routes, then another organisation's admin gets 404 and a non-admin 403", async () => {
  const other = await onboarded();
  const stranger = await other.call(`${base}/drills`);
  expect(stranger).toMatchObject({ status: 404, body: { code: 404 } });
  expect(await other.call(`${base}/drills/run`, { method: "POST" })).toMatchObject({ status: 404 });
  expect(await other.call(`${base}/drills/runs`)).toMatchObject({ status: 404 });
  const user = await asUser(setup.workspace.user);
  expect(await user(`${base}/drills`)).toMatchObject({ status: 403, body: { code: 403 } });
  expect(
    await user(`${base}/drills`, {
      method: "PUT",
      body: { enabled: false, sandboxResourceId: null, sampleSize: 5, schedule: "weekly" },
    }),
  ).toMatchObject({ status: 403 });
});
