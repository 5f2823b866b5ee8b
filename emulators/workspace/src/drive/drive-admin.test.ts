import { TEST_ADMIN, TEST_USER, startHarness, type Harness } from "../testing/harness";
import { GOOGLE_DOC } from "./office";
import { DriveStore } from "./store";

let harness: Harness;

beforeAll(async () => {
  // Not a timing test: answers come without the latency model.
  harness = await startHarness({ latency: { enabled: false } });
});
afterAll(() => harness.stop());

test("when the admin API adds, changes and deletes a file, then the user sees each state and its changes", async () => {
  const drive = harness.drive(TEST_USER);
  const start = (await drive.changes.getStartPageToken({})).data.startPageToken as string;
  const added = await harness.admin<{ id: string; size: string }>("POST", `/users/${TEST_USER}/drive/files`, {
    name: "seeded.txt",
    mimeType: "text/plain",
    content: Buffer.from("first").toString("base64"),
  });
  expect(added.status).toBe(200);
  expect(added.body.size).toBe("5");
  const changed = await harness.admin("POST", `/drive/files/${added.body.id}/content`, { text: "second!" });
  expect(changed.status).toBe(200);
  const media = await drive.files.get(
    { fileId: added.body.id, alt: "media" },
    { responseType: "arraybuffer" },
  );
  expect(Buffer.from(media.data as unknown as ArrayBuffer).toString()).toBe("second!");
  const revisions = await drive.revisions.list({ fileId: added.body.id });
  expect(revisions.data.revisions).toHaveLength(2);
  expect((await harness.admin("DELETE", `/drive/files/${added.body.id}`)).status).toBe(204);
  const changes = await drive.changes.list({ pageToken: start });
  expect(changes.data.changes?.map((change) => [change.fileId, change.removed])).toEqual([
    [added.body.id, true],
  ]);
});

test("when the admin API adds a shared drive and a member, then the member lists it", async () => {
  const created = await harness.admin<{ id: string; name: string }>(
    "POST",
    `/users/${TEST_ADMIN}/drive/drives`,
    { name: "Legal" },
  );
  expect(created.body.name).toBe("Legal");
  expect(
    (
      await harness.admin("POST", `/drive/drives/${created.body.id}/members`, {
        emailAddress: TEST_USER,
        role: "reader",
      })
    ).status,
  ).toBe(200);
  const doc = await harness.admin<{ id: string }>("POST", `/users/${TEST_ADMIN}/drive/files`, {
    name: "Contract",
    mimeType: GOOGLE_DOC,
    text: "Terms",
    driveId: created.body.id,
  });
  const { data } = await harness.drive(TEST_USER).drives.list({});
  expect(data.drives?.map((item) => item.name)).toEqual(["Legal"]);
  const file = await harness
    .drive(TEST_USER)
    .files.get({ fileId: doc.body.id, supportsAllDrives: true, fields: "driveId,capabilities(canEdit)" });
  expect(file.data).toEqual({ driveId: created.body.id, capabilities: { canEdit: false } });
  expect((await harness.admin("POST", "/users/nobody@nowhere.test/drive/files", { name: "x" })).status).toBe(
    404,
  );
});

test("when the store is snapshotted and restored, then files, bytes, drives and changes survive a JSON round trip", () => {
  const source = harness.emulator.drive;
  const copy = new DriveStore();
  copy.restore(JSON.parse(JSON.stringify(source.snapshot())) as ReturnType<DriveStore["snapshot"]>);
  expect(copy.snapshot()).toEqual(source.snapshot());
  const file = [...source.allFiles()][0];
  expect(
    copy
      .file(file?.id ?? "")
      ?.revisions.at(-1)
      ?.content.equals(file?.revisions.at(-1)?.content ?? Buffer.alloc(1)),
  ).toBe(true);
  const userId = harness.emulator.directory.user(TEST_USER)?.id as string;
  const owned = () => [...copy.allFiles()].filter((item) => item.ownerId === userId && !item.driveId);
  copy.createFile({ userId, name: "left.txt", mimeType: "text/plain" });
  expect(owned().length).toBeGreaterThan(0);
  copy.dropUser(userId);
  expect(owned()).toEqual([]);
});
