/**
 * A restore drill on the demo organisation, as an admin trying the product would run it: the app installed
 * and the region chosen by Ada Brunner, Noémie Rochat's mailbox and My Drive backed up under the default
 * policy, Mengia Pult's account designated as the sandbox. The drill draws its sample from every resource
 * the organisation protects, restores it into Mengia's mailbox and My Drive, reads each item back through
 * Google's API and finds every one matched, 100 %: a drawn message the sandbox already holds (the demo's
 * messages sent to everyone are in every mailbox, and Gmail keeps one copy per Message-ID) is replaced by a
 * spare drawn with it. Then, with the sandbox storing one imported message altered (the Workspace
 * emulator's test-only corrupt-upload fault), the next drill names that message as mismatched and fails.
 *
 * Runs with the other `exclusive` tests, after the browser tests, which back up and put back demo
 * resources of their own: the drill reads all that the demo organisation protects. Afterwards the drill
 * settings are switched off and the app uninstalled, as the browser tests leave the demo domain.
 */
import type { DrillSettings } from "@alpvault/contracts/drills";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { assignDefaultPolicy, finishedRun, resourceOf, runsOf } from "../support/backup-runs";
import { runDrill } from "../support/drills";
import { asUser, type ApiCaller } from "../support/organizations";
import { DEMO_ADMIN, DEMO_DOMAIN, workspaceAdmin } from "../support/workspace";

jest.setTimeout(420_000);

const MAILBOX = `noemie.rochat@${DEMO_DOMAIN}`;
const SANDBOX = `mengia.pult@${DEMO_DOMAIN}`;
const SAMPLE_SIZE = 5;

let call: ApiCaller;
let organization: OrganizationSummary;
let base: string;
let mailboxId: string;

/** The first backup run the policy started on the mailbox, delivered now; expects it succeeded. */
async function firstBackup(): Promise<void> {
  const [run] = await runsOf(organization, mailboxId);
  expect(run).toBeDefined();
  expect(await finishedRun(organization, mailboxId, run!.runId)).toMatchObject({ state: "succeeded" });
}

beforeAll(async () => {
  const installed = await workspaceAdmin("POST", `/customers/${DEMO_DOMAIN}/app:install`, {});
  expect(installed.status).toBe(200);
  call = await asUser(DEMO_ADMIN);
  const chosen = await call("/organizations", { method: "POST", body: { regionId: "ch" } });
  expect([200, 201]).toContain(chosen.status);
  organization = chosen.body as OrganizationSummary;
  base = `/organizations/${organization.organizationId}`;
  mailboxId = (await resourceOf(call, organization, MAILBOX)).resourceId;
  await assignDefaultPolicy(call, organization, mailboxId);
  await firstBackup();
  const sandbox = await resourceOf(call, organization, SANDBOX);
  const saved = await call(`${base}/drills`, {
    method: "PUT",
    body: {
      enabled: true,
      sandboxResourceId: sandbox.resourceId,
      sampleSize: SAMPLE_SIZE,
      schedule: "weekly",
    },
  });
  expect(saved.status).toBe(200);
  expect(saved.body).toMatchObject({ sandboxEmail: SANDBOX } satisfies Partial<DrillSettings>);
});

afterAll(async () => {
  await call?.(`${base}/drills`, {
    method: "PUT",
    body: { enabled: false, sandboxResourceId: null, sampleSize: SAMPLE_SIZE, schedule: "weekly" },
  });
  await workspaceAdmin("POST", `/customers/${DEMO_DOMAIN}/app:uninstall`);
});

test("when a drill runs on the demo organisation, then its whole sample is restored into the sandbox and matched, 100 %", async () => {
  const run = await runDrill(call, base, DEMO_ADMIN);
  expect(run).toMatchObject({ state: "passed", failureReason: null, problems: [] });
  expect(run.counts.sample).toBeGreaterThan(0);
  expect(run.counts).toEqual({
    sample: run.counts.sample,
    matched: run.counts.sample,
    mismatched: 0,
    failed: 0,
    skipped: 0,
  });
  // Noémie's sample: five messages and five files, each read back identical.
  const mailbox = run.resources.find((entry) => entry.resourceId === mailboxId);
  expect(mailbox).toMatchObject({ sample: 2 * SAMPLE_SIZE, matched: 2 * SAMPLE_SIZE });
  const ofMailbox = run.items.filter((item) => item.resourceId === mailboxId);
  expect(ofMailbox.filter((item) => item.service === "gmail")).toHaveLength(SAMPLE_SIZE);
  expect(ofMailbox.filter((item) => item.service === "drive")).toHaveLength(SAMPLE_SIZE);
  expect(run.items.every((item) => item.outcome === "matched")).toBe(true);
});

test("when the sandbox stores a restored message altered, then the drill on the demo organisation reports that message as mismatched", async () => {
  const fault = await workspaceAdmin<{ id: string }>("POST", "/faults", {
    method: "gmail.users.messages.import",
    user: SANDBOX,
    action: { kind: "corrupt-upload" },
    times: 1,
  });
  expect(fault.status).toBe(200);
  try {
    const run = await runDrill(call, base, DEMO_ADMIN);
    expect(run.state).toBe("failed");
    expect(run.failureReason).toBe(`1 of ${run.counts.sample} items did not match their backup`);
    expect(run.counts).toMatchObject({ mismatched: 1, failed: 0 });
    expect(run.problems).toEqual([expect.objectContaining({ service: "gmail", outcome: "mismatched" })]);
    expect(run.problems[0]!.reason).toMatch(/^The restored copy differs from the backup from byte \d+$/);
  } finally {
    await workspaceAdmin("DELETE", `/faults/${fault.body.id}`);
  }
});
