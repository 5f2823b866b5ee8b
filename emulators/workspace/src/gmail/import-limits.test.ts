/**
 * Gmail's size limits on adding messages: a request that is not an upload (JSON `raw`) carries at most
 * 1,048,576 bytes; an upload (`/upload/gmail/v1/...`, media, multipart or resumable) takes messages up to
 * 150 MB. Latency is off for this file's emulator: these tests check answers, not timing.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { SCOPES } from "../auth";
import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { MAX_JSON_PAYLOAD_BYTES, MAX_MESSAGE_BYTES } from "./common";
import { testMessage } from "./testing-messages";

const PAYLOAD_TOO_LARGE = {
  error: {
    code: 400,
    message: "Request payload size exceeds the limit: 1048576 bytes.",
    errors: [
      {
        message: "Request payload size exceeds the limit: 1048576 bytes.",
        domain: "global",
        reason: "badRequest",
      },
    ],
    status: "INVALID_ARGUMENT",
  },
};

function messageOf(subject: string, attachmentBytes: number): Buffer {
  return testMessage({
    subject,
    messageId: `${subject.replace(/\W/g, "")}@example.org`,
    attachments: [
      { filename: "plan.pdf", contentType: "application/pdf", data: randomBytes(attachmentBytes) },
    ],
  });
}

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
});
afterAll(() => harness.stop());

test("when a message is imported or inserted as JSON raw above 1,048,576 bytes of request, then Gmail answers 400 Request payload size exceeds the limit", async () => {
  expect(MAX_JSON_PAYLOAD_BYTES).toBe(1_048_576);
  const gmail = harness.gmail(TEST_USER);
  const large = messageOf("Too large for JSON", 800_000);
  const refusedImport = await googleError(
    gmail.users.messages.import(
      { userId: "me", requestBody: { raw: large.toString("base64url") } },
      { retry: false },
    ),
  );
  expect(refusedImport.body).toEqual(PAYLOAD_TOO_LARGE);
  const refusedInsert = await googleError(
    gmail.users.messages.insert(
      { userId: "me", requestBody: { raw: large.toString("base64url") } },
      { retry: false },
    ),
  );
  expect(refusedInsert.body).toEqual(PAYLOAD_TOO_LARGE);
  // Under the cap, JSON raw is fine.
  const small = messageOf("Fits in JSON", 500_000);
  const { data } = await gmail.users.messages.import({
    userId: "me",
    requestBody: { raw: small.toString("base64url") },
  });
  expect(data.id).toBeTruthy();
});

test("when a 20 MB message is imported by upload, then Gmail keeps it byte for byte", async () => {
  const gmail = harness.gmail(TEST_USER);
  const raw = messageOf("Twenty megabytes", 15_000_000);
  expect(raw.length).toBeGreaterThan(20_000_000);
  const { data } = await gmail.users.messages.import({
    userId: "me",
    requestBody: { labelIds: ["INBOX"] },
    media: { mimeType: "message/rfc822", body: Readable.from([raw]) },
  });
  const { data: stored } = await gmail.users.messages.get({
    userId: "me",
    id: data.id as string,
    format: "raw",
  });
  expect(stored.sizeEstimate).toBe(raw.length);
  expect(Buffer.from(stored.raw as string, "base64url").equals(raw)).toBe(true);
});

test("when an upload declares more than 150 MB, then Gmail refuses it with 413 before the bytes are sent", async () => {
  expect(MAX_MESSAGE_BYTES).toBe(157_286_400);
  const { token } = await harness.jwt(TEST_USER, [SCOPES.gmailInsert]).getAccessToken();
  const response = await fetch(
    `${harness.url}/upload/gmail/v1/users/me/messages/import?uploadType=resumable`,
    {
      method: "POST",
      headers: {
        authorization: `Bearer ${token ?? ""}`,
        "content-type": "application/json",
        "x-upload-content-type": "message/rfc822",
        "x-upload-content-length": String(MAX_MESSAGE_BYTES + 1),
      },
      body: "{}",
    },
  );
  expect(response.status).toBe(413);
  expect(await response.json()).toMatchObject({
    error: { code: 413, errors: [{ reason: "uploadTooLarge" }] },
  });
});
