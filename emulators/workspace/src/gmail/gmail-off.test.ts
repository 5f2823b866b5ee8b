/**
 * Users without Gmail (a Drive-only licence, or Gmail turned off for their org unit): their token and
 * Drive work, and every Gmail API call answers Google's 400 failedPrecondition "Mail service not enabled".
 * Latency is off for this file's emulator: these tests check answers, not timing.
 */
import { Readable } from "node:stream";
import { TEST_DOMAIN, TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { testMessage } from "./testing-messages";

const DRIVE_ONLY = `drive.only@${TEST_DOMAIN}`;
const MAIL_SERVICE_NOT_ENABLED = {
  error: {
    code: 400,
    message: "Mail service not enabled",
    errors: [{ message: "Mail service not enabled", domain: "global", reason: "failedPrecondition" }],
    status: "FAILED_PRECONDITION",
  },
};

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({ latency: { enabled: false } });
  await harness.admin("POST", "/users", { email: DRIVE_ONLY, givenName: "Drive", familyName: "Only" });
});
afterEach(() => harness.stop());

test("when Gmail is off for a user, then every Gmail call answers 400 Mail service not enabled while their token and Drive work", async () => {
  const userId = harness.emulator.directory.user(DRIVE_ONLY)?.id as string;
  const { id } = harness.emulator.gmail.insertMessage(userId, testMessage({ subject: "Before" }));
  expect((await harness.admin("PATCH", `/users/${DRIVE_ONLY}`, { gmailEnabled: false })).status).toBe(200);
  const gmail = harness.gmail(DRIVE_ONLY);
  const calls: Array<[string, () => Promise<unknown>]> = [
    ["getProfile", () => gmail.users.getProfile({ userId: "me" })],
    ["labels.list", () => gmail.users.labels.list({ userId: "me" })],
    ["messages.list", () => gmail.users.messages.list({ userId: "me" })],
    ["messages.get", () => gmail.users.messages.get({ userId: DRIVE_ONLY, id, format: "raw" })],
    ["history.list", () => gmail.users.history.list({ userId: "me", startHistoryId: "1" })],
    [
      "messages.import",
      () => gmail.users.messages.import({ userId: "me", requestBody: { raw: "U3ViamVjdDogeA" } }),
    ],
    [
      "messages.insert upload",
      () =>
        gmail.users.messages.insert({
          userId: "me",
          requestBody: {},
          media: { mimeType: "message/rfc822", body: Readable.from([testMessage({ subject: "Up" })]) },
        }),
    ],
  ];
  for (const [name, call] of calls) {
    const failure = await googleError(call());
    expect([name, failure.body]).toEqual([name, MAIL_SERVICE_NOT_ENABLED]);
  }
  // The token was issued, and Drive answers.
  const { data } = await harness.drive(DRIVE_ONLY).files.list({});
  expect(data.files).toEqual([]);
  // Another user's Gmail is not affected.
  await expect(harness.gmail(TEST_USER).users.getProfile({ userId: "me" })).resolves.toMatchObject({
    status: 200,
  });
});

test("when Gmail is turned on again, then the mailbox it had is there again", async () => {
  const userId = harness.emulator.directory.user(DRIVE_ONLY)?.id as string;
  const { id } = harness.emulator.gmail.insertMessage(userId, testMessage({ subject: "Kept" }));
  await harness.admin("PATCH", `/users/${DRIVE_ONLY}`, { gmailEnabled: false });
  const gmail = harness.gmail(DRIVE_ONLY);
  expect((await googleError(gmail.users.messages.list({ userId: "me" }))).status).toBe(400);
  await harness.admin("PATCH", `/users/${DRIVE_ONLY}`, { gmailEnabled: true });
  const { data } = await gmail.users.messages.list({ userId: "me" });
  expect(data.messages?.map((message) => message.id)).toEqual([id]);
});
