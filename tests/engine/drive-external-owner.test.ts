/**
 * Files owned outside the organisation and shared with a user: backed up with the user's Drive, marked with
 * their owner, counted on the run's Drive outcome, and restored as the user's own copy. A colleague's file
 * shared with the user stays an item of its owner's Drive only. Against the Workspace emulator in-process
 * (its external owners), with the runner, the in-memory catalog and blob store, and the production
 * `DriveRestorer`.
 */
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness, TEST_DOMAIN } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { DriveSource } from "../../functions/src/engine/drive/source";
import { DriveRestorer } from "../../functions/src/engine/drive/restorer";
import { Mailboxes, meter, restoreVersion } from "../support/backup";

jest.setTimeout(60_000);

const ORG = "org-external-owner";
const OUTSIDER = "lena.meier@bergwerk-partner.test";

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

function driveOf(user: string): drive_v3.Drive {
  return new drive_v3.Drive({
    auth: harness.jwt(user, [SCOPES.drive]),
    rootUrl: `${harness.url}/`,
    retry: false,
  });
}

function driveSource(user: string): DriveSource {
  const auth = harness.jwt(user, [SCOPES.drive]);
  return new DriveSource({
    drive: driveOf(user),
    accessToken: async () => (await auth.getAccessToken()).token ?? "",
    resource: { kind: "user", email: user, domains: [TEST_DOMAIN] },
    caller: meter(),
    pageSize: 2,
  });
}

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const answer = await harness.admin<{ id: string }>("POST", path, body);
  expect(answer.status).toBe(200);
  return answer.body.id;
}

async function shareWith(fileId: string, email: string): Promise<void> {
  const answer = await harness.admin("POST", `/drive/files/${fileId}/permissions`, {
    type: "user",
    role: "writer",
    emailAddress: email,
  });
  expect(answer.status).toBe(200);
}

/** Backs up a user's Drive into `catalog`, run after run from the last cursor. */
function backups(user: string, catalog: MemoryCatalog) {
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  let runs = 0;
  let cursor: string | null = null;
  return {
    blobStore,
    dataKey,
    async run() {
      runs += 1;
      const runId = `${user}-run-${runs}`;
      catalog.createRun({ runId, resourceId: user, cursor });
      const result = await runBackup({
        run: { runId, resourceId: user },
        source: driveSource(user),
        blobStore,
        catalog,
        dataKey,
        organizationId: ORG,
      });
      cursor = catalog.run(runId)?.cursor ?? null;
      return result;
    },
  };
}

test("when a file owned outside the organisation is shared with a user, then the user's backups keep it marked with its owner and count it, a colleague's shared file is left to its owner's backup, and a restore makes the user's own copy", async () => {
  const user = await mail.newUser("external");
  const colleague = await mail.newUser("colleague");
  const own = await created(`/users/${user}/drive/files`, {
    name: "own.txt",
    mimeType: "text/plain",
    text: "own",
  });
  const external = await created(`/drive/external-users/${OUTSIDER}/files`, {
    name: "Offerte.pdf",
    mimeType: "application/pdf",
    text: "%PDF-1.4 Offerte v1",
    ownerName: "Lena Meier",
  });
  await shareWith(external, user);
  const colleagues = await created(`/users/${colleague}/drive/files`, {
    name: "Budget.txt",
    mimeType: "text/plain",
    text: "budget",
  });
  await shareWith(colleagues, user);

  const catalog = new MemoryCatalog();
  const userBackups = backups(user, catalog);
  const first = await userBackups.run();
  expect(first).toMatchObject({
    outcome: "succeeded",
    services: { drive: { state: "succeeded", skipped: {}, notes: { "external-owner": 1 } } },
  });
  expect(
    catalog
      .items(user)
      .map((item) => item.itemKey)
      .sort(),
  ).toEqual([own, external].sort());
  const item = catalog.item(user, external);
  expect(item?.current.metadata).toMatchObject({ externalOwner: OUTSIDER, path: "Shared with me" });
  expect(catalog.item(user, own)?.current.metadata.externalOwner).toBeUndefined();
  expect(item?.search).toMatchObject({ kind: "drive", createdBy: OUTSIDER, path: "shared with me" });

  // The colleague's file is backed up once, from the colleague's own Drive.
  await backups(colleague, catalog).run();
  expect(catalog.items(colleague).map((entry) => entry.itemKey)).toEqual([colleagues]);

  // The outsider changes the file: the user's next (incremental) run keeps the new content, still marked.
  const revised = await harness.admin("POST", `/drive/files/${external}/content`, {
    text: "%PDF-1.4 Offerte v2",
  });
  expect(revised.status).toBe(200);
  const second = await userBackups.run();
  expect(second).toMatchObject({
    outcome: "succeeded",
    services: { drive: { notes: { "external-owner": 1 } } },
  });
  const versions = catalog.versions(user, external);
  expect(versions).toHaveLength(2);
  const latest = catalog.item(user, external)?.currentVersionId;
  const version = versions.find((entry) => entry.versionId === latest);
  expect(version?.metadata.externalOwner).toBe(OUTSIDER);
  const content = await restoreVersion(
    userBackups.blobStore,
    { organizationId: ORG, keys: deriveKeys(userBackups.dataKey) },
    version as NonNullable<typeof version>,
  );
  expect(content.toString()).toBe("%PDF-1.4 Offerte v2");

  // Restored as the user's own copy at the top of their Drive; the outsider's file is left as it is.
  const drive = driveOf(user);
  const restorer = new DriveRestorer(drive, { kind: "user", email: user }, meter());
  const metadata = version?.metadata ?? {};
  const copy = await restorer.create(metadata, content, await restorer.parentFor([]));
  await restorer.share(copy, metadata.permissions);
  expect(copy).not.toBe(external);
  const restored = (
    await drive.files.get({ fileId: copy, fields: "name,ownedByMe,owners(emailAddress),parents" })
  ).data;
  const root = (await drive.files.get({ fileId: "root", fields: "id" })).data.id;
  expect(restored).toEqual({
    name: "Offerte.pdf",
    ownedByMe: true,
    owners: [{ emailAddress: user }],
    parents: [root],
  });
  const original = (await drive.files.get({ fileId: external, fields: "owners(emailAddress)" })).data;
  expect(original.owners).toEqual([{ emailAddress: OUTSIDER }]);
});
