/**
 * Google Vids against the Workspace emulator in-process: the backup downloads a Vid's MP4 through
 * `files.download` (a long-running operation polled on the test's clock, which drives the emulator too),
 * and the production `DriveRestorer` brings it back as an `.mp4` file, since Drive cannot recreate a Vid.
 */
import { drive_v3 } from "@googleapis/drive";
import { ManualClock, type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import { DriveRestorer } from "../../functions/src/engine/drive/restorer";
import { DriveSource } from "../../functions/src/engine/drive/source";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { ResourceSource } from "../../functions/src/engine/sources/resource-source";
import { Mailboxes, meter, restoreVersion } from "../support/backup";

const ORG = "org-drive-vids";
const VID = "application/vnd.google-apps.vid";
const clock = new ManualClock();
let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false }, clock });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

/** What the emulator serves for the Vid: files.download, the clock moved a minute, the URI's bytes. */
async function servedMp4(drive: drive_v3.Drive, fileId: string, token: string): Promise<Buffer> {
  const started = await drive.files.download({ fileId });
  await clock.advance(60_000);
  const { data } = await drive.operations.get({ name: started.data.name as string });
  expect(data.done).toBe(true);
  const answer = await fetch(String(data.response?.downloadUri), {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  return Buffer.from(await answer.arrayBuffer());
}

test("when a My Drive holds a Vid, then its version holds the MP4 the emulator serves, and a restore gives an .mp4 file with those bytes", async () => {
  const user = await mail.newUser("vids");
  const created = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/files`, {
    name: "Produktvorstellung",
    mimeType: VID,
    text: "Szene 1: Das neue Modell",
  });
  expect(created.status).toBe(200);
  const fileId = created.body.id;
  const auth = harness.jwt(user, [SCOPES.drive]);
  const accessToken = async (): Promise<string> => (await auth.getAccessToken()).token ?? "";
  const drive = new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false });
  const metered = meter();
  const methods: string[] = [];
  const caller: GoogleCaller = {
    call: (request, send) => {
      methods.push(request.method);
      return metered.call(request, send);
    },
  };
  const source = new DriveSource({
    drive,
    accessToken,
    resource: { kind: "user", email: user },
    caller,
    clock,
  });
  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  catalog.createRun({ runId: "run-1", resourceId: user, cursor: null });

  // The source's polls sleep on the clock the emulator's operation runs on: the test moves it.
  const result = await clock.run(
    runBackup({
      run: { runId: "run-1", resourceId: user },
      source: new ResourceSource([source]),
      blobStore,
      catalog,
      dataKey,
      organizationId: ORG,
    }),
  );

  expect(result).toMatchObject({ outcome: "succeeded", itemErrors: 0 });
  const item = catalog.item(user, fileId);
  const version = catalog.versions(user, fileId).find((v) => v.versionId === item?.currentVersionId);
  if (!version) throw new Error("the Vid was not backed up");
  expect(version.metadata.contentSkipped).toBeUndefined();
  expect(version.metadata.native).toMatchObject({ mimeType: VID, exportMimeType: "video/mp4" });
  const kept = await restoreVersion(blobStore, { organizationId: ORG, keys: deriveKeys(dataKey) }, version);
  const served = await servedMp4(drive, fileId, await accessToken());
  expect(kept.subarray(4, 8).toString("latin1")).toBe("ftyp");
  expect(kept.equals(served)).toBe(true);
  // Each Google call went through the run's caller: the start, the polls until done, the URI's GET.
  const vidCalls = methods.filter((method) => /download|operations/.test(method));
  expect(vidCalls[0]).toBe("drive.files.download");
  expect(vidCalls.filter((method) => method === "drive.operations.get").length).toBeGreaterThanOrEqual(1);
  expect(vidCalls.at(-1)).toBe("drive.files.downloadUri");

  const restorer = new DriveRestorer(drive, { kind: "user", email: user }, meter());
  const parent = await restorer.folderFor("Recovered", "My Drive");
  const restoredId = await restorer.create(version.metadata, kept, parent);
  const { data } = await drive.files.get({ fileId: restoredId, fields: "name,mimeType,parents" });
  expect(data).toEqual({ name: "Produktvorstellung.mp4", mimeType: "video/mp4", parents: [parent] });
  const bytes = await drive.files.get({ fileId: restoredId, alt: "media" }, { responseType: "arraybuffer" });
  expect(Buffer.from(bytes.data as ArrayBuffer).equals(served)).toBe(true);
});
