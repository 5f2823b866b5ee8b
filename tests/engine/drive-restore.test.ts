/**
 * Restoring Drive items with the production `DriveRestorer` against the Workspace emulator in-process: a
 * Google file Drive cannot recreate from its export is restored as its export, a shortcut is recreated
 * pointing at its target.
 */
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { DriveRestorer } from "../../functions/src/engine/drive/restorer";
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

async function setUp() {
  const user = await mail.newUser("drive-restore");
  const drive = new drive_v3.Drive({
    auth: harness.jwt(user, [SCOPES.drive]),
    rootUrl: `${harness.url}/`,
    retry: false,
  });
  const restorer = new DriveRestorer(drive, { kind: "user", email: user }, meter());
  const parent = await restorer.folderFor("Recovered", "My Drive");
  return { user, drive, restorer, parent };
}

test("when a Drawing is restored, then it comes back as its PDF export, named so, since Drive cannot import a PDF as a Drawing", async () => {
  const { drive, restorer, parent } = await setUp();
  const pdf = Buffer.from("%PDF-1.4\n% drawing\n");
  const id = await restorer.create(
    {
      name: "Org chart",
      mimeType: "application/vnd.google-apps.drawing",
      native: {
        mimeType: "application/vnd.google-apps.drawing",
        exportMimeType: "application/pdf",
        name: "Org chart",
        parents: [],
        path: "My Drive",
      },
    },
    pdf,
    parent,
  );
  const { data } = await drive.files.get({ fileId: id, fields: "name,mimeType,parents" });
  expect(data).toEqual({ name: "Org chart.pdf", mimeType: "application/pdf", parents: [parent] });
  const bytes = await drive.files.get({ fileId: id, alt: "media" }, { responseType: "arraybuffer" });
  expect(Buffer.from(bytes.data as ArrayBuffer).equals(pdf)).toBe(true);
});

test("when a shortcut is restored, then a shortcut to the same target is created", async () => {
  const { user, drive, restorer, parent } = await setUp();
  const target = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/files`, {
    name: "notes.txt",
    mimeType: "text/plain",
    text: "target",
  });
  const id = await restorer.createShortcut(
    {
      name: "Notes shortcut",
      mimeType: "application/vnd.google-apps.shortcut",
      shortcut: { targetId: target.body.id, targetMimeType: "text/plain" },
    },
    parent,
  );
  const { data } = await drive.files.get({
    fileId: id,
    fields: "name,mimeType,shortcutDetails(targetId,targetMimeType)",
  });
  expect(data).toEqual({
    name: "Notes shortcut",
    mimeType: "application/vnd.google-apps.shortcut",
    shortcutDetails: { targetId: target.body.id, targetMimeType: "text/plain" },
  });
});

test("when Google refuses some of a file's sharing, then the others are re-applied and each refusal is reported with to whom, as what and Google's reason", async () => {
  const { drive, restorer, parent } = await setUp();
  const colleague = await mail.newUser("colleague");
  const id = await restorer.create({ name: "shared.txt", mimeType: "text/plain" }, Buffer.from("x"), parent);
  // Google's answer once the user reached a sharing limit (Drive's "Resolve errors": sharingRateLimitExceeded).
  const fault = await harness.admin("POST", "/faults", {
    method: "drive.permissions.create",
    sequence: [
      "ok",
      { kind: "error", status: 403, reason: "sharingRateLimitExceeded", message: "Rate limit exceeded." },
    ],
  });
  expect(fault.status).toBe(200);
  const outcome = await restorer.share(id, [
    { id: "p1", type: "user", role: "writer", emailAddress: colleague },
    { id: "p2", type: "anyone", role: "reader" },
    { id: "p3", type: "user", role: "reader", emailAddress: "inherited@example-test.test", inherited: true },
  ]);
  expect(outcome).toEqual({
    applied: 1,
    refused: [{ to: "anyone", role: "reader", reason: "sharingRateLimitExceeded" }],
  });
  const { data } = await drive.permissions.list({
    fileId: id,
    fields: "permissions(type,role,emailAddress)",
  });
  expect(data.permissions).toContainEqual({ type: "user", role: "writer", emailAddress: colleague });
  expect(data.permissions?.some((permission) => permission.type === "anyone")).toBe(false);
});
