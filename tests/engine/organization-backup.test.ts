/**
 * A whole generated organisation backed up as the worker does it: every mailbox as Gmail + My Drive under
 * one resource source, every shared drive as Drive, through the quota-aware caller with faults injected.
 * Then every message and every file of the organisation is in the catalog exactly once and its stored
 * bytes decrypt to the source bytes (hash equality), and a second run changes nothing.
 */
import { createHash } from "node:crypto";
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import {
  generateOrganisation,
  type Harness,
  ManualClock,
  SCOPES,
  startHarness,
} from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import type { ObjectScope } from "../../functions/src/engine/format/chunk-codec";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import {
  DriveSource,
  EXPORT_TYPES,
  GOOGLE_FOLDER,
  type DriveResource,
} from "../../functions/src/engine/drive/source";
import { GmailSource } from "../../functions/src/engine/gmail/source";
import { ResourceSource } from "../../functions/src/engine/sources/resource-source";
import type { Source } from "../../functions/src/engine/sources/source";
import { restoreVersion } from "../support/backup";

const GOOGLE_PREFIX = "application/vnd.google-apps.";
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false }, empty: true });
  generateOrganisation(harness.emulator, {
    profile: "bench",
    seed: 11,
    users: 3,
    messagesPerUser: 25,
    filesPerUser: 10,
  });
});

afterAll(async () => {
  await harness.stop();
});

function gmailSource(user: string, caller: ReturnType<typeof meteredCaller>): Source {
  const gmail = new gmail_v1.Gmail(
    googleClientOptions({ auth: harness.jwt(user, [SCOPES.gmailReadonly]), rootUrl: `${harness.url}/` }),
  );
  return new GmailSource({ gmail, user, caller, pageSize: 7 });
}

function driveClient(user: string) {
  const auth = harness.jwt(user, [SCOPES.drive]);
  return {
    drive: new drive_v3.Drive(googleClientOptions({ auth, rootUrl: `${harness.url}/` })),
    accessToken: async () => (await auth.getAccessToken()).token ?? "",
  };
}

function driveSource(resource: DriveResource, caller: ReturnType<typeof meteredCaller>): Source {
  const user = resource.kind === "user" ? resource.email : resource.actAs;
  return new DriveSource({ ...driveClient(user), resource, caller, pageSize: 5 });
}

/** The bytes a Drive file is backed up as: its head revision, or its office export for Google files. */
async function driveBytes(fileId: string, mimeType: string, reader: string): Promise<Buffer> {
  const file = harness.emulator.drive.file(fileId)!;
  if (!mimeType.startsWith(GOOGLE_PREFIX)) return harness.emulator.drive.head(file)!.content;
  const { drive } = driveClient(reader);
  const exportType = EXPORT_TYPES[mimeType];
  const answer = await drive.files.export({ fileId, mimeType: exportType! }, { responseType: "arraybuffer" });
  return Buffer.from(answer.data as ArrayBuffer);
}

test("when every resource of a generated organisation is backed up under rate limits and server errors, then every message and file is in the catalog once and restores to the same bytes, and a second run stores nothing", async () => {
  const emulator = harness.emulator;
  const customer = emulator.directory.customer("alpvault-bench.test")!;
  const users = emulator.directory.usersOf(customer.id).filter((user) => !user.suspended);
  const admin = users.find((user) => user.isAdmin)!;
  const drives = emulator.drive.allDrives();
  expect(users.length).toBe(3);

  // Faults on every call: rate limits, server errors and connection resets the caller must ride out.
  for (const action of [{ kind: "error", status: 429 }, { kind: "error", status: 503 }, { kind: "reset" }]) {
    expect((await harness.admin("POST", "/faults", { method: "*", action, probability: 0.04 })).status).toBe(
      200,
    );
  }

  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  const scope: ObjectScope = { organizationId: "org-generated", keys: deriveKeys(dataKey) };
  // The caller's backoff after each injected fault passes on a test clock, moved while the runs wait.
  const clock = new ManualClock();
  const caller = quotaAwareCaller({ clock, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
  const resources = [
    ...users.map((user) => ({
      resourceId: `user-${user.id}`,
      streams: (metered: ReturnType<typeof meteredCaller>) => [
        gmailSource(user.primaryEmail, metered),
        driveSource({ kind: "user", email: user.primaryEmail }, metered),
      ],
    })),
    ...drives.map((drive) => ({
      resourceId: `drive-${drive.id}`,
      streams: (metered: ReturnType<typeof meteredCaller>) => [
        driveSource({ kind: "shared-drive", driveId: drive.id, actAs: admin.primaryEmail }, metered),
      ],
    })),
  ];
  const backupAll = async (round: number) => {
    for (const resource of resources) {
      const runId = `${resource.resourceId}-${round}`;
      const previous = round > 1 ? catalog.run(`${resource.resourceId}-${round - 1}`) : undefined;
      catalog.createRun({ runId, resourceId: resource.resourceId, cursor: previous?.cursor ?? null });
      const metered = meteredCaller(caller);
      const result = await clock.run(
        runBackup({
          run: { runId, resourceId: resource.resourceId },
          source: new ResourceSource(resource.streams(metered)),
          blobStore,
          catalog,
          dataKey,
          organizationId: scope.organizationId,
          usage: metered.usage,
          now: () => clock.now(),
        }),
      );
      expect(result).toMatchObject({ outcome: "succeeded", itemErrors: 0 });
    }
  };
  /** The resource's files are exactly the emulator's (folders aside) and restore to their bytes. */
  const expectFiles = async (
    resourceId: string,
    belongs: (file: ReturnType<typeof emulator.drive.file> & object) => boolean,
    reader: string,
  ): Promise<number> => {
    const expected = [...emulator.drive.allFiles()].filter(
      (file) => belongs(file) && file.mimeType !== GOOGLE_FOLDER,
    );
    const fileItems = catalog.items(resourceId).filter((item) => item.kind === "drive-file");
    expect(fileItems.map((item) => item.sourceId).sort()).toEqual(expected.map((file) => file.id).sort());
    for (const file of expected) {
      const item = fileItems.find((candidate) => candidate.sourceId === file.id)!;
      const restored = await restoreVersion(
        blobStore,
        scope,
        catalog.versions(resourceId, item.itemKey).at(-1)!,
      );
      expect(sha(restored)).toBe(sha(await driveBytes(file.id, file.mimeType, reader)));
    }
    return fileItems.length;
  };
  await backupAll(1);
  expect(caller.stats().total.retries).toBeGreaterThan(0);
  expect((await harness.admin("DELETE", "/faults")).status).toBeLessThan(300);

  let messages = 0;
  let files = 0;
  for (const user of users) {
    const resourceId = `user-${user.id}`;
    const items = catalog.items(resourceId);
    const mail = emulator.gmail.listMessages(user.id, { includeSpamTrash: true });
    const mailItems = items.filter((item) => item.kind === "gmail-message");
    expect(mailItems.map((item) => item.sourceId).sort()).toEqual(mail.map((message) => message.id).sort());
    for (const item of mailItems) {
      const restored = await restoreVersion(
        blobStore,
        scope,
        catalog.versions(resourceId, item.itemKey).at(-1)!,
      );
      expect(sha(restored)).toBe(sha(emulator.gmail.message(user.id, item.sourceId).raw));
    }
    messages += mailItems.length;
    files += await expectFiles(
      resourceId,
      (file) => file.ownerId === user.id && !file.driveId,
      user.primaryEmail,
    );
  }
  for (const drive of drives) {
    files += await expectFiles(`drive-${drive.id}`, (file) => file.driveId === drive.id, admin.primaryEmail);
  }
  console.log(
    `Generated organisation: ${messages} messages, ${files} files, ${drives.length} shared drives, ${caller.stats().total.retries} retries`,
  );
  expect(messages).toBeGreaterThanOrEqual(75);
  expect(files).toBeGreaterThan(10);

  // A second run of everything: nothing changed, nothing new is stored or versioned.
  const objectsBefore = blobStore.size;
  await backupAll(2);
  for (const resource of resources) {
    expect(catalog.run(`${resource.resourceId}-2`)?.progress).toEqual({ items: 0, bytes: 0, storedBytes: 0 });
  }
  expect(blobStore.size).toBe(objectsBefore);
});
