import { Readable } from "node:stream";
import {
  TEST_ADMIN,
  TEST_DOMAIN,
  TEST_USER,
  googleError,
  startHarness,
  type Harness,
} from "../testing/harness";
import { GOOGLE_DOC, GOOGLE_FOLDER } from "./office";

let harness: Harness;
let driveId: string;
let fileId: string;
let docId: string;
const READER = `reader@${TEST_DOMAIN}`;
const WRITER = `writer@${TEST_DOMAIN}`;
const CONTENT_MANAGER = `content@${TEST_DOMAIN}`;
const OUTSIDER = `outsider@${TEST_DOMAIN}`;
const SHARED = { supportsAllDrives: true } as const;
const ALL = { supportsAllDrives: true, includeItemsFromAllDrives: true } as const;

beforeAll(async () => {
  // Not a timing test: answers come without the latency model.
  harness = await startHarness({ latency: { enabled: false } });
  const { directory, drive } = harness.emulator;
  for (const email of [READER, WRITER, CONTENT_MANAGER, OUTSIDER])
    directory.addUser({ email, givenName: email.split("@")[0] ?? "", familyName: "Test" });
  // The drive is made by an ordinary user: the super admin is not a member.
  const creator = directory.user(TEST_USER)?.id as string;
  driveId = drive.createSharedDrive({ name: "Rechtsdienst", creatorUserId: creator }).id;
  drive.addDriveMember(driveId, { type: "user", role: "reader", emailAddress: READER });
  drive.addDriveMember(driveId, { type: "user", role: "writer", emailAddress: WRITER });
  drive.addDriveMember(driveId, { type: "user", role: "fileOrganizer", emailAddress: CONTENT_MANAGER });
  fileId = drive.createFile({
    userId: creator,
    driveId,
    name: "vertrag.txt",
    mimeType: "text/plain",
    content: Buffer.from("Vertrag"),
  }).id;
  docId = drive.createFile({
    userId: creator,
    driveId,
    name: "Aktennotiz",
    mimeType: GOOGLE_DOC,
    content: Buffer.from("Notiz"),
  }).id;
});
afterAll(() => harness.stop());

describe("a super admin who is not a member", () => {
  test("when drives are listed and read, then only useDomainAdminAccess shows the drive", async () => {
    const admin = harness.drive(TEST_ADMIN);
    expect((await admin.drives.list({})).data.drives?.map((drive) => drive.id)).not.toContain(driveId);
    const asAdmin = await admin.drives.list({ useDomainAdminAccess: true });
    expect(asAdmin.data.drives?.map((drive) => drive.id)).toContain(driveId);
    const hidden = await googleError(admin.drives.get({ driveId }));
    expect(hidden.status).toBe(404);
    expect(hidden.message).toBe(`Shared drive not found: ${driveId}`);
    const seen = await admin.drives.get({ driveId, useDomainAdminAccess: true });
    expect(seen.data).toMatchObject({ id: driveId, name: "Rechtsdienst" });
  });

  test("when the drive's permissions are listed with useDomainAdminAccess, then its members come back; without it, 404", async () => {
    const admin = harness.drive(TEST_ADMIN);
    const { data } = await admin.permissions.list({
      fileId: driveId,
      useDomainAdminAccess: true,
      ...SHARED,
      fields: "permissions(id,emailAddress,role,permissionDetails)",
    });
    expect(data.permissions?.map((permission) => [permission.emailAddress, permission.role])).toEqual([
      [TEST_USER, "organizer"],
      [READER, "reader"],
      [WRITER, "writer"],
      [CONTENT_MANAGER, "fileOrganizer"],
    ]);
    expect(data.permissions?.[0]?.permissionDetails).toEqual([
      { permissionType: "member", role: "organizer", inherited: false },
    ]);
    const refused = await googleError(admin.permissions.list({ fileId: driveId, ...SHARED }));
    expect(refused.status).toBe(404);
    expect(refused.message).toBe(`File not found: ${driveId}.`);
    const single = await admin.permissions.get({
      fileId: driveId,
      permissionId: data.permissions?.[0]?.id as string,
      useDomainAdminAccess: true,
      ...SHARED,
      fields: "emailAddress,role",
    });
    expect(single.data).toEqual({ emailAddress: TEST_USER, role: "organizer" });
  });

  test("when the drive's files are asked for, then every call answers Google's 404, useDomainAdminAccess or not", async () => {
    const admin = harness.drive(TEST_ADMIN);
    const listing = await googleError(admin.files.list({ corpora: "drive", driveId, ...ALL }));
    expect(listing.status).toBe(404);
    expect(listing.message).toBe(`Shared drive not found: ${driveId}`);
    const get = await googleError(admin.files.get({ fileId, ...SHARED }));
    expect([get.status, get.message]).toEqual([404, `File not found: ${fileId}.`]);
    const media = await googleError(admin.files.get({ fileId, alt: "media", ...SHARED }));
    expect(media.status).toBe(404);
    const exported = await googleError(admin.files.export({ fileId: docId, mimeType: "text/plain" }));
    expect([exported.status, exported.message]).toEqual([404, `File not found: ${docId}.`]);
    const token = await googleError(admin.changes.getStartPageToken({ driveId, ...SHARED }));
    expect([token.status, token.message]).toEqual([404, `Shared drive not found: ${driveId}`]);
    const changes = await googleError(admin.changes.list({ pageToken: "1", driveId, ...ALL }));
    expect(changes.status).toBe(404);
    const filePermissions = await googleError(
      admin.permissions.list({ fileId, useDomainAdminAccess: true, ...SHARED }),
    );
    expect([filePermissions.status, filePermissions.message]).toEqual([404, `File not found: ${fileId}.`]);
    const everywhere = await admin.files.list({ corpora: "allDrives", ...ALL, q: "name = 'vertrag.txt'" });
    expect(everywhere.data.files).toEqual([]);
  });

  test("when members are managed with useDomainAdminAccess, then create, update and delete work and decide access", async () => {
    const admin = harness.drive(TEST_ADMIN);
    const outsider = harness.drive(OUTSIDER);
    expect((await googleError(outsider.files.get({ fileId, ...SHARED }))).status).toBe(404);
    const withoutFlag = await googleError(
      admin.permissions.create({
        fileId: driveId,
        ...SHARED,
        requestBody: { type: "user", role: "reader", emailAddress: OUTSIDER },
      }),
    );
    expect(withoutFlag.status).toBe(404);
    const created = await admin.permissions.create({
      fileId: driveId,
      useDomainAdminAccess: true,
      ...SHARED,
      requestBody: { type: "user", role: "reader", emailAddress: OUTSIDER },
    });
    expect(created.data).toMatchObject({ type: "user", role: "reader", emailAddress: OUTSIDER });
    const file = await outsider.files.get({ fileId, ...SHARED, fields: "id,capabilities(canEdit)" });
    expect(file.data).toEqual({ id: fileId, capabilities: { canEdit: false } });
    const updated = await admin.permissions.update({
      fileId: driveId,
      permissionId: created.data.id as string,
      useDomainAdminAccess: true,
      ...SHARED,
      requestBody: { role: "writer" },
    });
    expect(updated.data.role).toBe("writer");
    const nowWriter = await outsider.files.get({ fileId, ...SHARED, fields: "capabilities(canEdit)" });
    expect(nowWriter.data.capabilities?.canEdit).toBe(true);
    await admin.permissions.delete({
      fileId: driveId,
      permissionId: created.data.id as string,
      useDomainAdminAccess: true,
      ...SHARED,
    });
    expect((await googleError(outsider.files.get({ fileId, ...SHARED }))).status).toBe(404);
  });

  test("when someone who is not an administrator sets useDomainAdminAccess, then Drive answers 403", async () => {
    const refused = await googleError(
      harness.drive(READER).permissions.list({ fileId: driveId, useDomainAdminAccess: true, ...SHARED }),
    );
    expect(refused.status).toBe(403);
    expect(refused.reason).toBe("insufficientAdministratorPrivileges");
  });
});

describe("members of the shared drive", () => {
  test("when a member reads the drive, then its files, their bytes and the drive's permissions come back", async () => {
    const reader = harness.drive(READER);
    const listing = await reader.files.list({ corpora: "drive", driveId, ...ALL, fields: "files(id)" });
    expect(listing.data.files?.map((file) => file.id).sort()).toEqual([fileId, docId].sort());
    const media = await reader.files.get(
      { fileId, alt: "media", ...SHARED },
      { responseType: "arraybuffer" },
    );
    expect(Buffer.from(media.data as unknown as ArrayBuffer).toString()).toBe("Vertrag");
    const exported = await reader.files.export(
      { fileId: docId, mimeType: "text/plain" },
      { responseType: "arraybuffer" },
    );
    expect(Buffer.from(exported.data as unknown as ArrayBuffer).toString("utf8")).toContain("Notiz");
    const permissions = await reader.permissions.list({ fileId: driveId, ...SHARED });
    expect(permissions.data.permissions).toHaveLength(4);
    const start = await reader.changes.getStartPageToken({ driveId, ...SHARED });
    expect(start.data.startPageToken).toMatch(/^\d+$/);
  });

  test("when members upload, then writers and above may and readers get 403", async () => {
    const upload = (email: string) =>
      harness.drive(email).files.create({
        ...SHARED,
        requestBody: { name: `von ${email}.txt`, parents: [driveId] },
        media: { mimeType: "text/plain", body: Readable.from([Buffer.from("x")]) },
        fields: "id,driveId",
      });
    const refused = await googleError(upload(READER));
    expect([refused.status, refused.reason]).toEqual([403, "insufficientFilePermissions"]);
    expect((await upload(WRITER)).data.driveId).toBe(driveId);
    expect((await upload(TEST_USER)).data.driveId).toBe(driveId);
    const manage = await googleError(
      harness.drive(WRITER).permissions.create({
        fileId: driveId,
        ...SHARED,
        requestBody: { type: "user", role: "reader", emailAddress: OUTSIDER },
      }),
    );
    expect(manage.status).toBe(403);
  });

  test("when items are moved within the drive, then content managers may and writers get 403", async () => {
    const creator = harness.emulator.directory.user(TEST_USER)?.id as string;
    const folder = harness.emulator.drive.createFile({
      userId: creator,
      driveId,
      name: "Archiv",
      mimeType: GOOGLE_FOLDER,
    }).id;
    const move = (email: string) =>
      harness.drive(email).files.update({ fileId, addParents: folder, removeParents: driveId, ...SHARED });
    const refused = await googleError(move(WRITER));
    expect([refused.status, refused.reason]).toEqual([403, "insufficientFilePermissions"]);
    const moved = await move(CONTENT_MANAGER);
    expect(moved.status).toBe(200);
    const file = await harness.drive(WRITER).files.get({ fileId, ...SHARED, fields: "parents,capabilities" });
    expect(file.data.parents).toEqual([folder]);
    expect(file.data.capabilities?.canMoveItemWithinDrive).toBe(false);
  });

  test("when a super admin of another customer asks with useDomainAdminAccess, then the drive is not found", async () => {
    harness.emulator.directory.addCustomer({ domain: "other-customer.test", installed: true, scopes: [] });
    const customer = harness.emulator.directory.customer("other-customer.test");
    customer?.grantedScopes.push("https://www.googleapis.com/auth/drive");
    harness.emulator.directory.addUser({
      email: "admin@other-customer.test",
      givenName: "Other",
      familyName: "Admin",
      isAdmin: true,
    });
    const stranger = harness.drive("admin@other-customer.test");
    expect((await googleError(stranger.drives.get({ driveId, useDomainAdminAccess: true }))).status).toBe(
      404,
    );
    const permissions = await googleError(
      stranger.permissions.list({ fileId: driveId, useDomainAdminAccess: true, ...SHARED }),
    );
    expect(permissions.status).toBe(404);
  });
});
