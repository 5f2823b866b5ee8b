/**
 * Shared drives the organisation's super admin is not a member of, as Google has them (the Workspace
 * emulator in-process): the admin sees the drive's members through `useDomainAdminAccess` but not its files,
 * so the engine backs the drive up as one of its own members, never adding anyone.
 */
import { drive_v3 } from "@googleapis/drive";
import {
  type Harness,
  SCOPES,
  startHarness,
  TEST_ADMIN,
  TEST_DOMAIN,
} from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { newDataKey } from "../../functions/src/engine/format/keys";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { DriveSource, findDriveMember } from "../../functions/src/engine/drive/source";
import { ResourceSource } from "../../functions/src/engine/sources/resource-source";
import { NoAccessError, failingSource } from "../../functions/src/engine/sources/source";
import { Mailboxes, meter } from "../support/backup";

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

const client = (user: string) =>
  new drive_v3.Drive({ auth: harness.jwt(user, [SCOPES.drive]), rootUrl: `${harness.url}/`, retry: false });

/** A shared drive made by `owner` (its organizer), with members and two files, the admin not among them. */
async function sharedDrive(
  owner: string,
  members: { emailAddress?: string; type?: string; role: string; domain?: string }[],
) {
  const created = await harness.admin<{ id: string }>("POST", `/users/${owner}/drive/drives`, {
    name: "Legal",
  });
  expect(created.status).toBe(200);
  const driveId = created.body.id;
  for (const member of members) {
    expect((await harness.admin("POST", `/drive/drives/${driveId}/members`, member)).status).toBe(200);
  }
  for (const name of ["contract.txt", "memo.txt"]) {
    const file = await harness.admin("POST", `/users/${owner}/drive/files`, {
      name,
      mimeType: "text/plain",
      text: name,
      driveId,
    });
    expect(file.status).toBe(200);
  }
  return driveId;
}

async function backUp(driveId: string, source: DriveSource | ReturnType<typeof failingSource>) {
  const catalog = new MemoryCatalog();
  catalog.createRun({ runId: "run-1", resourceId: `drive-${driveId}`, cursor: null });
  const result = await runBackup({
    run: { runId: "run-1", resourceId: `drive-${driveId}` },
    source: new ResourceSource([source]),
    blobStore: new MemoryBlobStore(),
    catalog,
    dataKey: newDataKey(),
    organizationId: "org-shared-drives",
  });
  return { result, items: catalog.items(`drive-${driveId}`) };
}

test("when the admin is not a member of a shared drive, then reading it as the admin is refused, and the engine reads it as its best member instead", async () => {
  const organizer = await mail.newUser("organizer");
  const reader = await mail.newUser("reader");
  const driveId = await sharedDrive(organizer, [
    { type: "user", emailAddress: reader, role: "reader" },
    { type: "user", emailAddress: "partner@elsewhere.example", role: "organizer" },
  ]);

  // Google's answer to the admin: the drive's files are not theirs to read.
  await expect(
    client(TEST_ADMIN).files.list({
      corpora: "drive",
      driveId,
      includeItemsFromAllDrives: true,
      supportsAllDrives: true,
    }),
  ).rejects.toMatchObject({ response: { status: 404 } });

  const member = await findDriveMember({
    drive: client(TEST_ADMIN),
    caller: meter(),
    admin: TEST_ADMIN,
    driveId,
    domain: TEST_DOMAIN,
  });
  // The organizer of the domain first; the outside organizer is never chosen.
  expect(member).toBe(organizer);
  expect(
    await findDriveMember({
      drive: client(TEST_ADMIN),
      caller: meter(),
      admin: TEST_ADMIN,
      driveId,
      domain: TEST_DOMAIN,
      minimum: "writer",
    }),
  ).toBe(organizer);

  const auth = harness.jwt(member!, [SCOPES.drive]);
  const { result, items } = await backUp(
    driveId,
    new DriveSource({
      drive: new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }),
      accessToken: async () => (await auth.getAccessToken()).token ?? "",
      resource: { kind: "shared-drive", driveId, actAs: member! },
      caller: meter(),
    }),
  );
  expect(result).toMatchObject({ outcome: "succeeded", services: { drive: { state: "succeeded" } } });
  expect(items).toHaveLength(2);
  // Nobody was added to the drive.
  const permissions = await client(TEST_ADMIN).permissions.list({
    fileId: driveId,
    useDomainAdminAccess: true,
    supportsAllDrives: true,
    fields: "permissions(emailAddress)",
  });
  expect((permissions.data.permissions ?? []).map((permission) => permission.emailAddress).sort()).toEqual(
    [organizer, reader, "partner@elsewhere.example"].sort(),
  );
});

test("when a shared drive has no member of the organisation's domain, then there is nobody to read it as, and its backup fails saying so", async () => {
  const organizer = await mail.newUser("lonely");
  const driveId = await sharedDrive(organizer, [
    { type: "user", emailAddress: "partner@elsewhere.example", role: "organizer" },
  ]);
  // The domain's organizer leaves: only the outside member remains.
  const removed = await client(TEST_ADMIN).permissions.list({
    fileId: driveId,
    useDomainAdminAccess: true,
    supportsAllDrives: true,
    fields: "permissions(id,emailAddress)",
  });
  const own = removed.data.permissions?.find((permission) => permission.emailAddress === organizer);
  await client(TEST_ADMIN).permissions.delete({
    fileId: driveId,
    permissionId: own!.id!,
    useDomainAdminAccess: true,
    supportsAllDrives: true,
  });

  expect(
    await findDriveMember({
      drive: client(TEST_ADMIN),
      caller: meter(),
      admin: TEST_ADMIN,
      driveId,
      domain: TEST_DOMAIN,
    }),
  ).toBeUndefined();
  const { result } = await backUp(driveId, failingSource("drive", new NoAccessError("no-drive-member")));
  expect(result).toMatchObject({
    outcome: "failed",
    failureReason: "backup-not-completed",
    services: { drive: { state: "failed", detail: "no-drive-member" } },
  });
});
