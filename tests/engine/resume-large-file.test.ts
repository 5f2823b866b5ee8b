/**
 * A large file backed up across task deliveries (the Workspace emulator in-process serves a file made from
 * a seed, with Range): the first delivery stops at its deadline in the file's middle and keeps what it
 * stored; the next asks Drive only for the rest (a Range request) and ends the file, which restores byte
 * for byte. Nothing is read twice. The run's resumable threshold is lowered from its default
 * (`RESUMABLE_ITEM_BYTES`, 64 MiB) to 4 MiB: an item above the threshold behaves the same whatever the
 * threshold, and an 8 MiB file keeps the test to a fraction of a second.
 */
import { createHash } from "node:crypto";
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { DriveSource } from "../../functions/src/engine/drive/source";
import { ResourceSource } from "../../functions/src/engine/sources/resource-source";
import { CountingSource, Mailboxes, meter, restoreVersion } from "../support/backup";

const ORG = "org-resume";
/** Items from this size on may stop in their middle (the run option `resumableItemBytes`). */
const RESUMABLE_BYTES = 4 * 1024 * 1024;
const SIZE = 2 * RESUMABLE_BYTES + 12_345;

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

test("when the deadline comes in the middle of a large file, then the next delivery reads only the rest by Range and the file restores byte for byte", async () => {
  const user = await mail.newUser("large");
  const file = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/files`, {
    name: "archive.bin",
    mimeType: "application/octet-stream",
    generated: { seed: "resume-test", size: SIZE },
  });
  expect(file.status).toBe(200);
  const auth = harness.jwt(user, [SCOPES.drive]);
  const drive = new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false });
  const options = {
    drive,
    accessToken: async () => (await auth.getAccessToken()).token ?? "",
    resource: { kind: "user" as const, email: user },
    caller: meter(),
  };
  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  catalog.createRun({ runId: "run-1", resourceId: user, cursor: null });
  const deliver = (source: CountingSource, signal?: AbortSignal) =>
    runBackup({
      run: { runId: "run-1", resourceId: user },
      source: new ResourceSource([source]),
      blobStore,
      catalog,
      dataKey,
      organizationId: ORG,
      resumableItemBytes: RESUMABLE_BYTES,
      ...(signal ? { signal } : {}),
    });

  const controller = new AbortController();
  const first = new CountingSource(new DriveSource(options), {
    controller,
    after: RESUMABLE_BYTES + 2_000_000,
  });
  expect((await deliver(first, controller.signal)).outcome).toBe("continue");
  const stopped = catalog.run("run-1")?.partial;
  expect(stopped).toMatchObject({ itemKey: file.body.id, kind: "drive-file" });
  expect(stopped!.offset).toBeGreaterThan(RESUMABLE_BYTES);
  expect(stopped!.offset).toBeLessThan(SIZE);
  expect(catalog.items(user)).toHaveLength(0);

  const second = new CountingSource(new DriveSource(options));
  const result = await deliver(second);
  expect(result.outcome).toBe("succeeded");
  expect(second.ranges).toEqual([stopped!.offset]);
  expect(second.bytes).toBe(SIZE - stopped!.offset);
  expect(catalog.run("run-1")?.partial ?? null).toBeNull();

  const item = catalog.item(user, file.body.id);
  const version = catalog.versions(user, file.body.id).find((v) => v.versionId === item?.currentVersionId);
  expect(version?.size).toBe(SIZE);
  const restored = await restoreVersion(
    blobStore,
    { organizationId: ORG, keys: deriveKeys(dataKey) },
    version!,
  );
  const original = await drive.files.get(
    { fileId: file.body.id, alt: "media" },
    { responseType: "arraybuffer" },
  );
  expect(createHash("sha256").update(restored).digest("hex")).toBe(
    createHash("sha256")
      .update(Buffer.from(original.data as ArrayBuffer))
      .digest("hex"),
  );
});
