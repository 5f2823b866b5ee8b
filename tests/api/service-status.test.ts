/**
 * Each service of a resource succeeds or fails on its own, in the running product: a mailbox whose Gmail
 * is off and one of whose files Google refuses to hand over is backed up (its Drive), and the resources
 * list says, per service, what happened and what was skipped and why.
 */
import type { Resource } from "@alpvault/contracts/organizations";
import {
  assignDefaultPolicy,
  finishedRun,
  organizationWithData,
  resourceOf,
  runsOf,
} from "../support/backup-runs";
import { FaultsOfThisFile, workspaceAdmin } from "../support/workspace";

jest.setTimeout(180_000);

const faults = new FaultsOfThisFile();

afterEach(async () => {
  await faults.removeAll();
});

test("when Gmail is off for a user and Google refuses one of their files, then the Drive is backed up, the run succeeds, and the resource shows Gmail unavailable and the file skipped with its reason", async () => {
  const setup = await organizationWithData(2);
  const user = setup.workspace.user;
  const second = await workspaceAdmin<{ id: string }>("POST", `/users/${user}/drive/files`, {
    name: "restricted.pdf",
    mimeType: "application/pdf",
    content: Buffer.from("%PDF-1.4 restricted").toString("base64"),
  });
  expect(second.status).toBe(200);
  await faults.add({
    method: "gmail.*",
    user,
    action: {
      kind: "error",
      status: 400,
      reason: "failedPrecondition",
      message: "Mail service not enabled",
    },
  });
  await faults.add({
    method: "drive.files.download",
    user,
    sequence: [{ kind: "error", status: 403, reason: "cannotDownloadFile" }],
  });

  await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  const [run] = await runsOf(setup.organization, setup.resource.resourceId);
  const ended = await finishedRun(setup.organization, setup.resource.resourceId, run!.runId);
  expect(ended.state).toBe("succeeded");

  const resource: Resource = await resourceOf(setup.call, setup.organization, user);
  expect(resource.lastBackupFailure).toBeNull();
  expect(resource.services).toEqual({
    gmail: {
      state: "unavailable",
      failureReason: null,
      detail: "failedPrecondition",
      skipped: {},
      notes: {},
      at: expect.any(String),
    },
    drive: {
      state: "succeeded",
      failureReason: null,
      detail: null,
      skipped: { cannotDownloadFile: 1 },
      notes: {},
      at: expect.any(String),
    },
  });
  expect(resource.driveBackupBytes).toBeGreaterThan(0);
  expect(resource.mailBackupBytes).toBe(0);
});

test("when Google refuses a user's Gmail for good, then Gmail fails with its reason, the Drive is backed up, and the resource says which service failed", async () => {
  const setup = await organizationWithData(1);
  const user = setup.workspace.user;
  await faults.add({
    method: "gmail.users.messages.*",
    user,
    action: { kind: "error", status: 403, reason: "insufficientPermissions" },
  });

  await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  const [run] = await runsOf(setup.organization, setup.resource.resourceId);
  const ended = await finishedRun(setup.organization, setup.resource.resourceId, run!.runId);
  expect(ended).toMatchObject({ state: "failed", failureReason: "google-api-error" });

  const resource = await resourceOf(setup.call, setup.organization, user);
  expect(resource.services).toMatchObject({
    gmail: { state: "failed", failureReason: "google-api-error", detail: "insufficientPermissions" },
    drive: { state: "succeeded", skipped: {} },
  });
  expect(resource.driveBackupBytes).toBeGreaterThan(0);
});
