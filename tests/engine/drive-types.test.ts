/**
 * Every kind of Drive item as Google serves it (the Workspace emulator in-process): Forms, Sites, My Maps
 * and Jamboards have no export and are kept as their metadata, marked and counted "not exportable", never as
 * a 0-byte backup; Drawings and Apps Script projects are kept as their exports; a shortcut keeps its target.
 */
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { DriveSource } from "../../functions/src/engine/drive/source";
import { ResourceSource } from "../../functions/src/engine/sources/resource-source";
import { Mailboxes, meter, restoreVersion } from "../support/backup";

const ORG = "org-drive-types";
const GOOGLE = "application/vnd.google-apps.";

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

async function addFile(user: string, body: Record<string, unknown>): Promise<string> {
  const answer = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/files`, body);
  expect(answer.status).toBe(200);
  return answer.body.id;
}

test("when a My Drive holds a Form, a Site, a My Map, a Jamboard, a Drawing, an Apps Script project and a shortcut, then each is kept as Google allows and the not exportable ones are counted", async () => {
  const user = await mail.newUser("types");
  const target = await addFile(user, { name: "notes.txt", mimeType: "text/plain", text: "Shortcut target" });
  const ids = {
    form: await addFile(user, { name: "Survey", mimeType: `${GOOGLE}form` }),
    site: await addFile(user, { name: "Intranet", mimeType: `${GOOGLE}site` }),
    map: await addFile(user, { name: "Offices", mimeType: `${GOOGLE}map` }),
    jam: await addFile(user, { name: "Workshop", mimeType: `${GOOGLE}jam` }),
    drawing: await addFile(user, { name: "Org chart", mimeType: `${GOOGLE}drawing`, text: "Org chart" }),
    script: await addFile(user, {
      name: "Automation",
      mimeType: `${GOOGLE}script`,
      text: "function run() {}",
    }),
    shortcut: await addFile(user, {
      name: "Notes shortcut",
      mimeType: `${GOOGLE}shortcut`,
      shortcutTargetId: target,
    }),
  };
  const auth = harness.jwt(user, [SCOPES.drive]);
  const source = new DriveSource({
    drive: new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }),
    accessToken: async () => (await auth.getAccessToken()).token ?? "",
    resource: { kind: "user", email: user },
    caller: meter(),
  });
  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  catalog.createRun({ runId: "run-1", resourceId: user, cursor: null });

  const result = await runBackup({
    run: { runId: "run-1", resourceId: user },
    source: new ResourceSource([source]),
    blobStore,
    catalog,
    dataKey,
    organizationId: ORG,
  });

  expect(result).toMatchObject({
    outcome: "succeeded",
    itemErrors: 0,
    services: { drive: { state: "succeeded", skipped: { "not-exportable": 4 } } },
  });
  const current = (itemKey: string) => {
    const item = catalog.item(user, itemKey);
    const version = catalog.versions(user, itemKey).find((v) => v.versionId === item?.currentVersionId);
    if (!version) throw new Error(`${itemKey} was not backed up`);
    return version;
  };
  for (const key of [ids.form, ids.site, ids.map, ids.jam]) {
    expect(current(key)).toMatchObject({ size: 0, metadata: { contentSkipped: "not-exportable" } });
  }
  expect(current(ids.form).metadata).toMatchObject({ name: "Survey", mimeType: `${GOOGLE}form` });

  const scope = { organizationId: ORG, keys: deriveKeys(dataKey) };
  const drawing = current(ids.drawing);
  expect(drawing.metadata.native).toMatchObject({
    mimeType: `${GOOGLE}drawing`,
    exportMimeType: "application/pdf",
  });
  expect((await restoreVersion(blobStore, scope, drawing)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const script = current(ids.script);
  expect(script.metadata.native?.exportMimeType).toBe("application/vnd.google-apps.script+json");
  const project = JSON.parse((await restoreVersion(blobStore, scope, script)).toString("utf8")) as unknown;
  expect(project).toEqual(expect.any(Object));

  const shortcut = current(ids.shortcut);
  expect(shortcut.metadata.shortcut).toMatchObject({ targetId: target, targetMimeType: "text/plain" });
  expect(shortcut.metadata.contentSkipped).toBeUndefined();
  expect(shortcut.size).toBe(0);
});
