/**
 * Google's daily threshold of an API, once the project has spent it, answers every call 403
 * `dailyLimitExceeded` until the quota day ends (midnight Pacific time). A run that meets it has not failed:
 * it stops at its last stored item and says when it may go on (the quota day's end), and the next delivery
 * after that finishes it without fetching a stored message again. Against the Workspace emulator
 * in-process, its daily threshold lowered for the project and its quota day moved by the test's clock.
 */
import { drive_v3 } from "@googleapis/drive";
import {
  type Harness,
  ManualClock,
  type QuotaStats,
  SCOPES,
  startHarness,
} from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { DriveSource } from "../../functions/src/engine/drive/source";
import { newDataKey } from "../../functions/src/engine/format/keys";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { quotaDayOf } from "../../functions/src/engine/google/daily-budget";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup, type RunBackupResult } from "../../functions/src/engine/runner/run-backup";
import { ResourceSource } from "../../functions/src/engine/sources/resource-source";
import { Mailboxes } from "../support/backup";

const PROJECT = "alpvault-backup-2026";
const MESSAGES = 6;

let harness: Harness;
let clock: ManualClock;
let mail: Mailboxes;

beforeAll(async () => {
  clock = new ManualClock();
  harness = await startHarness({ projectId: PROJECT, latency: { enabled: false }, clock });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

async function stats(): Promise<QuotaStats> {
  return (await harness.admin<QuotaStats>("GET", "/stats")).body;
}

function driveSource(user: string, caller: ReturnType<typeof meteredCaller>): DriveSource {
  const auth = harness.jwt(user, [SCOPES.drive]);
  return new DriveSource({
    drive: new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }),
    accessToken: async () => (await auth.getAccessToken()).token ?? "",
    resource: { kind: "user", email: user },
    caller,
  });
}

test("when Google's daily Gmail limit is reached in the middle of a run, then the run stops at what it stored, goes on at the quota day's end, and the next delivery finishes Gmail and Drive without fetching a message twice", async () => {
  const user = await mail.newUser("daily");
  for (let index = 0; index < MESSAGES; index += 1) await mail.addMessage(user, `Daily ${index}`);
  const file = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/files`, {
    name: "notes.txt",
    mimeType: "text/plain",
    text: "notes",
  });
  expect(file.status).toBe(200);
  // A quota override of the project's Gmail threshold: a listing and a few messages.get, not 80 M units.
  const before = (await stats()).projects[quotaDayOf(clock.now()).day]?.[PROJECT]?.units.gmail ?? 0;
  const patched = await harness.admin("PATCH", "/quota", {
    projects: { [PROJECT]: { dailyUnits: { gmail: before + 5 + 3 * 20 } } },
  });
  expect(patched.status).toBe(200);

  const shared = quotaAwareCaller();
  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  catalog.createRun({ runId: "run-1", resourceId: user, cursor: null });
  const deliver = async (): Promise<RunBackupResult> => {
    const metered = meteredCaller(shared);
    return runBackup({
      run: { runId: "run-1", resourceId: user },
      source: new ResourceSource([mail.gmailSource(user, metered, 2), driveSource(user, metered)]),
      blobStore,
      catalog,
      dataKey,
      organizationId: "org-daily-limit",
      now: () => clock.now(),
      usage: metered.usage,
      itemConcurrency: 1,
      maxItemConcurrency: 1,
    });
  };

  const paused = await deliver();
  const dayEnd = quotaDayOf(clock.now()).endsAt;
  expect(paused).toMatchObject({
    outcome: "continue",
    resumesAt: dayEnd,
    dailyLimit: "gmail",
    itemErrors: 0,
  });
  expect(catalog.run("run-1")).toMatchObject({ state: "running", itemErrors: [] });
  const stored = catalog.items(user).filter((item) => item.kind === "gmail-message");
  expect(stored.length).toBeGreaterThan(0);
  expect(stored.length).toBeLessThan(MESSAGES);
  expect(catalog.items(user).filter((item) => item.kind === "drive-file")).toHaveLength(0);
  // Google refused the call that met the threshold.
  expect((await stats()).project.gmail?.rejected).toBeGreaterThan(0);

  // The quota day turns (midnight Pacific on the emulator's clock): Google's threshold is there again,
  // and this day's is ample (the override stands for every day).
  await clock.advance(dayEnd - clock.now() + 1_000);
  expect(
    (
      await harness.admin("PATCH", "/quota", {
        projects: { [PROJECT]: { dailyUnits: { gmail: 1_000_000 } } },
      })
    ).status,
  ).toBe(200);
  const finished = await deliver();
  expect(finished).toMatchObject({
    outcome: "succeeded",
    services: { gmail: { state: "succeeded" }, drive: { state: "succeeded" } },
  });
  expect(catalog.items(user).filter((item) => item.kind === "gmail-message")).toHaveLength(MESSAGES);
  expect(catalog.items(user).filter((item) => item.kind === "drive-file")).toHaveLength(1);
  // Every message was fetched once with an answer (the emulator counts refused calls apart): the stored
  // ones were not asked for again.
  expect((await stats()).users[user]?.["gmail.users.messages.get"]?.calls).toBe(MESSAGES);
});
