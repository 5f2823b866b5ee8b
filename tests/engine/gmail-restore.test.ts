/**
 * Restoring mail with the production `GmailRestorer` against the Workspace emulator in-process: a message
 * far larger than Gmail lets a JSON `raw` request carry is imported by media upload, byte for byte.
 */
import { gmail_v1 } from "@googleapis/gmail";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { GmailRestorer } from "../../functions/src/engine/gmail/restorer";
import { Mailboxes, meter } from "../support/backup";

jest.setTimeout(60_000);

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

test("when a 20 MB message is restored, then it is imported by media upload and the mailbox holds its exact bytes under its labels", async () => {
  const user = await mail.newUser("restore-large");
  const attachment = Buffer.alloc(20 * 1024 * 1024, "Q")
    .toString("base64")
    .replace(/.{76}/g, "$&\r\n");
  const raw = Buffer.from(
    [
      "From: Alice Example <alice@example.org>",
      `To: ${user}`,
      "Subject: Large restore",
      "Date: Thu, 15 Jan 2026 10:00:00 +0000",
      "Message-ID: <large.restore@x.test>",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "See attached.",
      "--b1",
      'Content-Type: application/octet-stream; name="big.bin"',
      "Content-Transfer-Encoding: base64",
      'Content-Disposition: attachment; filename="big.bin"',
      "",
      attachment,
      "--b1--",
      "",
    ].join("\r\n"),
  );
  const gmail = new gmail_v1.Gmail({
    auth: harness.jwt(user, [SCOPES.gmailInsert, SCOPES.gmailLabels, SCOPES.gmailModify]),
    rootUrl: `${harness.url}/`,
    retry: false,
  });
  const restorer = new GmailRestorer(gmail, user, meter());

  const labels = await restorer.labelIds([{ id: "INBOX", name: "INBOX" }], "Recovered");
  const id = await restorer.import(raw, labels);

  expect(raw.length).toBeGreaterThan(20 * 1024 * 1024);
  expect(mail.storedRaw(user, id).equals(raw)).toBe(true);
  expect(await restorer.find("large.restore@x.test")).toBe(id);
});

test("when a recovery failed, then the labels its restorer created and left empty are deleted, and labels it found or filled are kept", async () => {
  const user = await mail.newUser("restore-labels");
  const gmail = new gmail_v1.Gmail({
    auth: harness.jwt(user, [SCOPES.gmailInsert, SCOPES.gmailLabels, SCOPES.gmailModify]),
    rootUrl: `${harness.url}/`,
    retry: false,
  });
  const before = await gmail.users.labels.create({ userId: "me", requestBody: { name: "Already there" } });
  const restorer = new GmailRestorer(gmail, user, meter());
  const found = await restorer.labelId("Already there");
  const empty = await restorer.labelId("Recovered 2026-11-25");
  const filled = await restorer.labelId("Recovered with mail");
  expect(found).toBe(before.data.id);
  const raw = Buffer.from(
    [`To: ${user}`, "Subject: Kept", "Message-ID: <kept@x.test>", "", "Body", ""].join("\r\n"),
  );
  await restorer.import(raw, [filled]);

  expect(await restorer.removeEmptyCreatedLabels()).toBe(1);

  const ids = (await gmail.users.labels.list({ userId: "me" })).data.labels?.map((label) => label.id);
  expect(ids).toContain(found);
  expect(ids).toContain(filled);
  expect(ids).not.toContain(empty);
});
