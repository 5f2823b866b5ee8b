import {
  TEST_ADMIN,
  TEST_DOMAIN,
  TEST_USER,
  googleError,
  startHarness,
  type Harness,
} from "../testing/harness";
import { GOOGLE_FOLDER } from "./office";

let harness: Harness;
let userId: string;
let adminId: string;
const OTHER = `other@${TEST_DOMAIN}`;

beforeAll(async () => {
  // Not a timing test: answers come without the latency model.
  harness = await startHarness({ latency: { enabled: false } });
  harness.emulator.directory.addUser({ email: OTHER, givenName: "Other", familyName: "Person" });
  userId = harness.emulator.directory.user(TEST_USER)?.id as string;
  adminId = harness.emulator.directory.user(TEST_ADMIN)?.id as string;
});
afterAll(() => harness.stop());

const store = () => harness.emulator.drive;

describe("shared drives", () => {
  let driveId: string;
  let fileId: string;
  beforeAll(() => {
    driveId = store().createSharedDrive({ name: "Finance", creatorUserId: adminId }).id;
    store().addDriveMember(driveId, { type: "user", role: "writer", emailAddress: TEST_USER });
    fileId = store().createFile({
      userId: adminId,
      driveId,
      name: "ledger.csv",
      mimeType: "text/csv",
      content: Buffer.from("a,b"),
    }).id;
  });

  test("when both includeItemsFromAllDrives and supportsAllDrives are set, then shared-drive items are listed", async () => {
    const drive = harness.drive(TEST_USER);
    const without = await drive.files.list({ q: "name = 'ledger.csv'" });
    expect(without.data.files).toEqual([]);
    const half = await drive.files.list({ q: "name = 'ledger.csv'", includeItemsFromAllDrives: true });
    expect(half.data.files).toEqual([]);
    const both = await drive.files.list({
      q: "name = 'ledger.csv'",
      includeItemsFromAllDrives: true,
      supportsAllDrives: true,
      fields: "files(id,driveId,owners)",
    });
    expect(both.data.files).toEqual([{ id: fileId, driveId }]);
    const corpus = await drive.files.list({
      corpora: "drive",
      driveId,
      includeItemsFromAllDrives: true,
      supportsAllDrives: true,
    });
    expect(corpus.data.files?.map((file) => file.id)).toEqual([fileId]);
  });

  test("when corpora=drive lacks driveId or includeItemsFromAllDrives, then Drive refuses as Google does", async () => {
    const drive = harness.drive(TEST_USER);
    const noFlag = await googleError(
      drive.files.list({ corpora: "drive", driveId, supportsAllDrives: true }),
    );
    expect(noFlag.status).toBe(403);
    expect(noFlag.message).toBe(
      "The includeItemsFromAllDrives parameter must be set to true when driveId is specified or corpora contains drive or allDrives.",
    );
    const noDrive = await googleError(
      drive.files.list({ corpora: "drive", includeItemsFromAllDrives: true, supportsAllDrives: true }),
    );
    expect(noDrive.status).toBe(400);
    expect(noDrive.reason).toBe("teamDriveIdRequiresTeamDriveCorpora");
    const stranger = await googleError(
      harness
        .drive(OTHER)
        .files.list({ corpora: "drive", driveId, includeItemsFromAllDrives: true, supportsAllDrives: true }),
    );
    expect(stranger.status).toBe(404);
    expect(stranger.message).toBe(`Shared drive not found: ${driveId}`);
  });

  test("when a shared-drive file is read without supportsAllDrives, then it is not found", async () => {
    const drive = harness.drive(TEST_USER);
    expect((await googleError(drive.files.get({ fileId }))).status).toBe(404);
    const { data } = await drive.files.get({
      fileId,
      supportsAllDrives: true,
      fields: "driveId,capabilities/canEdit",
    });
    expect(data).toEqual({ driveId, capabilities: { canEdit: true } });
    expect(
      (await googleError(harness.drive(OTHER).files.get({ fileId, supportsAllDrives: true }))).status,
    ).toBe(404);
  });

  test("when drives are listed, then members see theirs and only admins may use domain admin access", async () => {
    const otherDrive = store().createSharedDrive({ name: "Secret", creatorUserId: userId }).id;
    const mine = await harness.drive(OTHER).drives.list({});
    expect(mine.data).toEqual({ kind: "drive#driveList", drives: [] });
    const member = await harness.drive(TEST_USER).drives.list({});
    expect(member.data.drives?.map((item) => item.id).sort()).toEqual([driveId, otherDrive].sort());
    const admin = await harness.drive(TEST_ADMIN).drives.list({ useDomainAdminAccess: true, pageSize: 1 });
    expect(admin.data.drives).toHaveLength(1);
    expect(admin.data.nextPageToken).toBeTruthy();
    const page2 = await harness.drive(TEST_ADMIN).drives.list({
      useDomainAdminAccess: true,
      pageSize: 1,
      pageToken: admin.data.nextPageToken as string,
    });
    expect(page2.data.drives?.[0]?.kind).toBe("drive#drive");
    const refused = await googleError(harness.drive(TEST_USER).drives.list({ useDomainAdminAccess: true }));
    expect(refused.status).toBe(403);
    const got = await harness.drive(TEST_USER).drives.get({ driveId });
    expect(got.data).toMatchObject({
      kind: "drive#drive",
      id: driveId,
      name: "Finance",
      capabilities: { canEdit: true },
    });
    expect((await googleError(harness.drive(OTHER).drives.get({ driveId }))).status).toBe(404);
  });

  test("when permissions of a shared-drive file are listed, then members carry permissionDetails", async () => {
    const { data } = await harness
      .drive(TEST_USER)
      .permissions.list({ fileId, supportsAllDrives: true, fields: "*" });
    expect(data.permissions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          emailAddress: TEST_USER,
          role: "writer",
          permissionDetails: [
            { permissionType: "member", role: "writer", inheritedFrom: driveId, inherited: true },
          ],
        }),
      ]),
    );
  });
});

describe("permissions", () => {
  test("when a file is shared with a user, then they see it and it lists the permission", async () => {
    const fileId = store().createFile({
      userId,
      name: "share.txt",
      mimeType: "text/plain",
      content: Buffer.from("s"),
    }).id;
    const drive = harness.drive(TEST_USER);
    expect((await googleError(harness.drive(OTHER).files.get({ fileId }))).status).toBe(404);
    const created = await drive.permissions.create({
      fileId,
      sendNotificationEmail: false,
      requestBody: { type: "user", role: "reader", emailAddress: OTHER },
    });
    expect(created.data).toMatchObject({
      kind: "drive#permission",
      type: "user",
      role: "reader",
      emailAddress: OTHER,
    });
    const list = await drive.permissions.list({ fileId });
    expect(list.data.permissions?.map((permission) => [permission.role, permission.emailAddress])).toEqual([
      ["owner", TEST_USER],
      ["reader", OTHER],
    ]);
    const single = await drive.permissions.get({
      fileId,
      permissionId: created.data.id as string,
      fields: "displayName,role",
    });
    expect(single.data).toEqual({ displayName: "Other Person", role: "reader" });
    const seen = await harness
      .drive(OTHER)
      .files.list({ q: "sharedWithMe = true", fields: "files(id,ownedByMe)" });
    expect(seen.data.files).toEqual([{ id: fileId, ownedByMe: false }]);
    const owner = await googleError(
      drive.permissions.create({ fileId, requestBody: { type: "user", role: "owner", emailAddress: OTHER } }),
    );
    expect(owner.status).toBe(403);
    const transferred = await drive.permissions.create({
      fileId,
      transferOwnership: true,
      requestBody: { type: "user", role: "owner", emailAddress: OTHER },
    });
    expect(transferred.data).toMatchObject({ role: "owner", emailAddress: OTHER });
    const after = await harness.drive(OTHER).files.get({ fileId, fields: "owners(emailAddress),ownedByMe" });
    expect(after.data).toEqual({ owners: [{ emailAddress: OTHER }], ownedByMe: true });
    const missing = await googleError(drive.permissions.get({ fileId, permissionId: "nope" }));
    expect(missing.message).toBe("Permission not found: nope.");
  });
});

describe("changes", () => {
  test("when files are created, updated, trashed, shared and deleted, then changes.list reports them", async () => {
    const drive = harness.drive(TEST_USER);
    const other = harness.drive(OTHER);
    const start = (await drive.changes.getStartPageToken({})).data.startPageToken as string;
    const otherStart = (await other.changes.getStartPageToken({})).data.startPageToken as string;
    expect(start).toMatch(/^\d+$/);
    const created = await drive.files.create({
      requestBody: { name: "tracked.txt" },
      media: { mimeType: "text/plain", body: "v1" },
    });
    const id = created.data.id as string;
    const folder = await drive.files.create({
      requestBody: { name: "tracked-folder", mimeType: GOOGLE_FOLDER },
    });
    let result = await drive.changes.list({ pageToken: start, fields: "*" });
    expect(result.data.kind).toBe("drive#changeList");
    expect(result.data.newStartPageToken).toMatch(/^\d+$/);
    expect(result.data.changes?.map((change) => [change.changeType, change.fileId, change.removed])).toEqual([
      ["file", id, false],
      ["file", folder.data.id, false],
    ]);
    expect(result.data.changes?.[0]?.file).toMatchObject({ id, name: "tracked.txt" });
    const next = result.data.newStartPageToken as string;
    await drive.files.update({ fileId: id, requestBody: { trashed: true } });
    await drive.permissions.create({
      fileId: folder.data.id as string,
      requestBody: { type: "user", role: "reader", emailAddress: OTHER },
    });
    result = await drive.changes.list({ pageToken: next, fields: "changes(fileId,removed,file(trashed))" });
    expect(result.data.changes).toEqual([
      { fileId: id, removed: false, file: { trashed: true } },
      { fileId: folder.data.id, removed: false, file: { trashed: false } },
    ]);
    const seenByOther = await other.changes.list({ pageToken: otherStart });
    expect(seenByOther.data.changes?.map((change) => change.fileId)).toEqual([folder.data.id]);
    const beforeDelete = (await drive.changes.getStartPageToken({})).data.startPageToken as string;
    await drive.files.delete({ fileId: id });
    result = await drive.changes.list({ pageToken: beforeDelete, pageSize: 1 });
    expect(result.data.changes).toEqual([expect.objectContaining({ fileId: id, removed: true })]);
    const withoutRemoved = await drive.changes.list({ pageToken: beforeDelete, includeRemoved: false });
    expect(withoutRemoved.data.changes).toEqual([]);
  });

  test("when changes span several pages, then nextPageToken chains them", async () => {
    const drive = harness.drive(TEST_USER);
    const start = (await drive.changes.getStartPageToken({})).data.startPageToken as string;
    for (let index = 0; index < 3; index += 1) {
      store().createFile({
        userId,
        name: `paged-${index}`,
        mimeType: "text/plain",
        content: Buffer.from("p"),
      });
    }
    const first = await drive.changes.list({ pageToken: start, pageSize: 2 });
    expect(first.data.changes).toHaveLength(2);
    expect(first.data.newStartPageToken).toBeUndefined();
    const second = await drive.changes.list({ pageToken: first.data.nextPageToken as string, pageSize: 2 });
    expect(second.data.changes).toHaveLength(1);
    expect(second.data.newStartPageToken).toBeTruthy();
  });

  test("when a shared-drive file changes, then members see it with driveId and all-drives flags", async () => {
    const driveId = store().createSharedDrive({ name: "Ops", creatorUserId: adminId }).id;
    store().addDriveMember(driveId, { type: "user", role: "reader", emailAddress: OTHER });
    const other = harness.drive(OTHER);
    const start = (await other.changes.getStartPageToken({ driveId, supportsAllDrives: true })).data
      .startPageToken as string;
    const fileId = store().createFile({
      userId: adminId,
      driveId,
      name: "ops.txt",
      mimeType: "text/plain",
      content: Buffer.from("o"),
    }).id;
    const scoped = await other.changes.list({
      pageToken: start,
      driveId,
      supportsAllDrives: true,
      includeItemsFromAllDrives: true,
    });
    expect(scoped.data.changes?.map((change) => change.fileId)).toEqual([fileId]);
    const userLevel = await other.changes.list({ pageToken: start });
    expect(userLevel.data.changes).toEqual([]);
    const stranger = await googleError(
      harness.drive(TEST_USER).changes.list({ pageToken: start, driveId, supportsAllDrives: true }),
    );
    expect(stranger.status).toBe(404);
  });

  test("when the page token is malformed or unknown, then Drive answers 400 or 404", async () => {
    const drive = harness.drive(TEST_USER);
    const malformed = await googleError(drive.changes.list({ pageToken: "abc" }));
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      error: { errors: [{ reason: "invalid", location: "pageToken" }] },
    });
    const unknown = await googleError(drive.changes.list({ pageToken: "99999999" }));
    expect(unknown.status).toBe(404);
  });
});
