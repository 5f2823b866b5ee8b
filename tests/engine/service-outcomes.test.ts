/**
 * Each service of a resource (Gmail, Drive) succeeds or fails on its own, and an item's error never fails
 * a run: against the Workspace emulator in-process, with the runner, a mailbox's two streams under one
 * `ResourceSource`, the in-memory blob store and catalog, and Google's answers injected as fault rules.
 */
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { newDataKey } from "../../functions/src/engine/format/keys";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup, type RunBackupResult } from "../../functions/src/engine/runner/run-backup";
import { DriveSource } from "../../functions/src/engine/drive/source";
import { ResourceSource, parseResourceCursor } from "../../functions/src/engine/sources/resource-source";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { Mailboxes } from "../support/backup";

/** The product's caller, with retries that wait milliseconds instead of seconds (5xx cases). */
const meter = () =>
  meteredCaller(quotaAwareCaller({ retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 } }));

const ORG = "org-service-outcomes";

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

afterEach(async () => {
  await harness.admin("DELETE", "/faults");
});

function driveSource(user: string): DriveSource {
  const auth = harness.jwt(user, [SCOPES.drive]);
  return new DriveSource({
    drive: new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }),
    accessToken: async () => (await auth.getAccessToken()).token ?? "",
    resource: { kind: "user", email: user },
    caller: meter(),
    pageSize: 2,
  });
}

async function addFile(user: string, name: string, text: string): Promise<string> {
  const answer = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/files`, {
    name,
    mimeType: "text/plain",
    text,
  });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

async function fault(rule: Record<string, unknown>): Promise<void> {
  expect((await harness.admin("POST", "/faults", rule)).status).toBe(200);
}

/** A mailbox with mail and files, and a runner over its Gmail and its My Drive. */
async function mailboxWithFiles() {
  const user = await mail.newUser("services");
  await mail.addMessage(user, "First message");
  await mail.addMessage(user, "Second message");
  const files = [
    await addFile(user, "a.txt", "A"),
    await addFile(user, "b.txt", "B"),
    await addFile(user, "c.txt", "C"),
  ];
  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  let runs = 0;
  let cursor: string | null = null;
  const backup = async (): Promise<{ runId: string; result: RunBackupResult }> => {
    runs += 1;
    const runId = `run-${runs}`;
    catalog.createRun({ runId, resourceId: user, cursor });
    const result = await runBackup({
      run: { runId, resourceId: user },
      source: new ResourceSource([mail.gmailSource(user, meter(), 2), driveSource(user)]),
      blobStore,
      catalog,
      dataKey,
      organizationId: ORG,
    });
    cursor = catalog.run(runId)?.cursor ?? null;
    return { runId, result };
  };
  const itemsOf = (kind: "gmail-message" | "drive-file") =>
    catalog.items(user).filter((item) => item.kind === kind);
  return { user, files, catalog, backup, itemsOf };
}

test("when a file's download answers a 403 whose reason the engine never heard of, then that file is recorded with the reason and the run succeeds", async () => {
  const box = await mailboxWithFiles();
  await fault({
    method: "drive.files.download",
    user: box.user,
    sequence: ["ok", { kind: "error", status: 403, reason: "someReasonGoogleAddsLater" }],
  });
  const { runId, result } = await box.backup();
  expect(result).toMatchObject({
    outcome: "succeeded",
    itemErrors: 1,
    services: {
      gmail: { state: "succeeded", skipped: {} },
      drive: { state: "succeeded", skipped: { someReasonGoogleAddsLater: 1 } },
    },
  });
  expect(box.catalog.run(runId)?.itemErrors).toEqual([
    expect.objectContaining({ kind: "drive-file", reason: "someReasonGoogleAddsLater" }),
  ]);
  expect(box.itemsOf("drive-file")).toHaveLength(2);
  expect(box.itemsOf("gmail-message")).toHaveLength(2);
  // The cursor moved on: the next run does not stop on that file again.
  expect(parseResourceCursor(box.catalog.run(runId)?.cursor ?? null).cursors.drive).toEqual(
    expect.any(String),
  );
});

test("when Gmail is off for the user (a Drive-only licence), then Gmail is unavailable, the Drive is backed up and the run succeeds", async () => {
  const box = await mailboxWithFiles();
  await fault({
    method: "gmail.*",
    user: box.user,
    action: { kind: "error", status: 400, reason: "failedPrecondition", message: "Mail service not enabled" },
  });
  const { result } = await box.backup();
  expect(result).toMatchObject({
    outcome: "succeeded",
    services: {
      gmail: { state: "unavailable", detail: "failedPrecondition" },
      drive: { state: "succeeded" },
    },
  });
  expect(box.itemsOf("drive-file")).toHaveLength(3);
  expect(box.itemsOf("gmail-message")).toHaveLength(0);
});

test("when Google refuses the user's Gmail for good, then Gmail fails with its reason, the Drive is still backed up, and the next run goes on with Gmail from its cursor", async () => {
  const box = await mailboxWithFiles();
  await fault({
    method: "gmail.users.messages.*",
    user: box.user,
    action: { kind: "error", status: 403, reason: "insufficientPermissions" },
  });
  const first = await box.backup();
  expect(first.result).toMatchObject({
    outcome: "failed",
    failureReason: "google-api-error",
    services: {
      gmail: { state: "failed", failureReason: "google-api-error", detail: "insufficientPermissions" },
      drive: { state: "succeeded" },
    },
  });
  expect(box.itemsOf("drive-file")).toHaveLength(3);
  expect(box.itemsOf("gmail-message")).toHaveLength(0);

  await harness.admin("DELETE", "/faults");
  const second = await box.backup();
  expect(second.result).toMatchObject({
    outcome: "succeeded",
    services: { gmail: { state: "succeeded" }, drive: { state: "succeeded" } },
  });
  expect(box.itemsOf("gmail-message")).toHaveLength(2);
});

test("when every download keeps answering 500, then Drive fails as a service after a few files instead of recording each, and Gmail is not affected", async () => {
  const box = await mailboxWithFiles();
  for (let extra = 0; extra < 5; extra += 1) await addFile(box.user, `more-${extra}.txt`, `more ${extra}`);
  await fault({
    method: "drive.files.download",
    user: box.user,
    action: { kind: "error", status: 500, reason: "backendError" },
  });
  const { result } = await box.backup();
  expect(result).toMatchObject({
    outcome: "failed",
    services: { gmail: { state: "succeeded" }, drive: { state: "failed", detail: "backendError" } },
  });
  expect(box.itemsOf("gmail-message")).toHaveLength(2);
});
