import { TEST_DOMAIN, TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";

let harness: Harness;
let fileId: string;
let start: string;
const EXTERNAL = "lena.meier@bergwerk-partner.test";
const OTHER = `other@${TEST_DOMAIN}`;

beforeAll(async () => {
  // Not a timing test: answers come without the latency model.
  harness = await startHarness({ latency: { enabled: false } });
  harness.emulator.directory.addUser({ email: OTHER, givenName: "Other", familyName: "Person" });
  start = (await harness.drive(TEST_USER).changes.getStartPageToken({})).data.startPageToken as string;
  const created = await harness.admin<{ id: string }>("POST", `/drive/external-users/${EXTERNAL}/files`, {
    name: "Offerte.pdf",
    mimeType: "application/pdf",
    text: "%PDF-1.4 Offerte",
    ownerName: "Lena Meier",
  });
  expect(created.status).toBe(200);
  fileId = created.body.id;
  const shared = await harness.admin("POST", `/drive/files/${fileId}/permissions`, {
    type: "user",
    role: "writer",
    emailAddress: TEST_USER,
  });
  expect(shared.status).toBe(200);
});
afterAll(() => harness.stop());

test("when a file owned outside the domain is shared with a user, then it is in their Shared with me, owned by the outsider", async () => {
  const drive = harness.drive(TEST_USER);
  const { data } = await drive.files.list({
    q: "sharedWithMe = true",
    fields:
      "files(id,ownedByMe,owners(emailAddress,displayName,me),sharingUser(emailAddress),sharedWithMeTime)",
  });
  expect(data.files).toEqual([
    {
      id: fileId,
      ownedByMe: false,
      owners: [{ emailAddress: EXTERNAL, displayName: "Lena Meier", me: false }],
      sharingUser: { emailAddress: EXTERNAL },
      sharedWithMeTime: expect.any(String),
    },
  ]);
  const mine = await drive.files.list({ q: "'me' in owners", fields: "files(id)" });
  expect(mine.data.files?.map((file) => file.id)).not.toContain(fileId);
  const theirs = await drive.files.list({ q: `'${EXTERNAL}' in owners`, fields: "files(id)" });
  expect(theirs.data.files).toEqual([{ id: fileId }]);
  const permissions = await drive.permissions.list({
    fileId,
    fields: "permissions(role,emailAddress,displayName)",
  });
  expect(permissions.data.permissions).toEqual([
    { role: "owner", emailAddress: EXTERNAL, displayName: "Lena Meier" },
    { role: "writer", emailAddress: TEST_USER, displayName: "Test User" },
  ]);
  const media = await drive.files.get({ fileId, alt: "media" }, { responseType: "arraybuffer" });
  expect(Buffer.from(media.data as unknown as ArrayBuffer).toString()).toBe("%PDF-1.4 Offerte");
});

test("when the user's changes are listed, then the shared file is there, and not with restrictToMyDrive", async () => {
  const drive = harness.drive(TEST_USER);
  const all = await drive.changes.list({ pageToken: start, fields: "changes(fileId,file(ownedByMe))" });
  expect(all.data.changes).toContainEqual({ fileId, file: { ownedByMe: false } });
  const myDrive = await drive.changes.list({ pageToken: start, restrictToMyDrive: true });
  expect(myDrive.data.changes?.map((change) => change.fileId)).not.toContain(fileId);
});

test("when another domain user asks for the file, then it is not found", async () => {
  const refused = await googleError(harness.drive(OTHER).files.get({ fileId }));
  expect([refused.status, refused.message]).toEqual([404, `File not found: ${fileId}.`]);
  const seen = await harness.drive(OTHER).files.list({ q: "sharedWithMe = true", fields: "files(id)" });
  expect(seen.data.files).toEqual([]);
});

test("when the outsider is named as a new owner, then the transfer is refused", async () => {
  const refused = await harness.admin("POST", `/users/${EXTERNAL}/drive/files`, { name: "x" });
  expect(refused.status).toBe(404);
  const userFile = harness.emulator.drive.createFile({
    userId: harness.emulator.directory.user(TEST_USER)?.id as string,
    name: "intern.txt",
    mimeType: "text/plain",
    content: Buffer.from("i"),
  }).id;
  const transfer = await googleError(
    harness.drive(TEST_USER).permissions.create({
      fileId: userFile,
      transferOwnership: true,
      requestBody: { type: "user", role: "owner", emailAddress: EXTERNAL },
    }),
  );
  expect([transfer.status, transfer.reason]).toEqual([400, "invalidSharingRequest"]);
});
