/**
 * Old Hangouts/Talk chats (system label CHAT) through the official Gmail client: Gmail has no raw form of
 * them, so `format=raw` answers without `raw`, while `full` and `metadata` give their payload.
 */
import type { gmail_v1 } from "@googleapis/gmail";
import { SCOPES } from "../auth";
import { TEST_USER, startHarness, type Harness } from "../testing/harness";

let harness: Harness;
let gmail: gmail_v1.Gmail;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  gmail = harness.gmail(TEST_USER, [SCOPES.gmailReadonly]);
});
afterAll(() => harness.stop());
afterEach(async () => {
  await harness.admin("DELETE", "/faults");
});

let counter = 0;
/** A chat as Gmail shows old Hangouts messages: a short text/plain part under a few headers. */
function chatBytes(text: string): Buffer {
  counter += 1;
  return Buffer.from(
    [
      "From: Alice Example <alice@example.org>",
      `To: ${TEST_USER}`,
      `Subject: Chat with Alice ${counter}`,
      "Date: Tue, 03 Mar 2015 09:15:00 +0000",
      `Message-ID: <chat.${counter}@example.org>`,
      "MIME-Version: 1.0",
      'Content-Type: text/plain; charset="UTF-8"',
      "",
      text,
      "",
    ].join("\r\n"),
  );
}

async function addMessage(raw: Buffer, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await harness.admin<{ id: string; labelIds: string[] }>(
    "POST",
    `/users/${TEST_USER}/gmail/messages`,
    { raw: raw.toString("base64"), encoding: "base64", ...extra },
  );
  expect(answer.status).toBe(200);
  return answer.body.id;
}

test("when a chat is fetched with format=raw, then the answer has every field of the message but raw", async () => {
  const id = await addMessage(chatBytes("see you at ten"), { chat: true });

  const { data } = await gmail.users.messages.get({ userId: "me", id, format: "raw" });

  expect(data).toEqual({
    id,
    threadId: expect.any(String),
    labelIds: ["CHAT"],
    snippet: "see you at ten",
    sizeEstimate: expect.any(Number),
    historyId: expect.stringMatching(/^\d+$/),
    internalDate: String(Date.parse("2015-03-03T09:15:00Z")),
  });
  expect(data.raw).toBeUndefined();
  expect(data.payload).toBeUndefined();
});

test("when a chat is fetched with format=raw through a fields selection or while a fault rule is set, then raw is absent there too", async () => {
  const id = await addMessage(chatBytes("fields too"), { chat: true });

  const selected = await gmail.users.messages.get({ userId: "me", id, format: "raw", fields: "id,raw" });
  expect(selected.data).toEqual({ id });

  await harness.admin("POST", "/faults", { method: "gmail.users.labels.list", action: { kind: "reset" } });
  const faulted = await gmail.users.messages.get({ userId: "me", id, format: "raw" });
  expect(faulted.data.id).toBe(id);
  expect(faulted.data.raw).toBeUndefined();
});

test("when a chat is fetched with format=full or metadata, then its payload has its headers and body as for any message", async () => {
  const id = await addMessage(chatBytes("lunch at noon?"), { chat: true });

  const full = (await gmail.users.messages.get({ userId: "me", id, format: "full" })).data;
  const metadata = (
    await gmail.users.messages.get({
      userId: "me",
      id,
      format: "metadata",
      metadataHeaders: ["Subject", "From"],
    })
  ).data;

  expect(full.raw).toBeUndefined();
  expect(full.payload?.mimeType).toBe("text/plain");
  expect(full.payload?.headers).toEqual(
    expect.arrayContaining([
      { name: "From", value: "Alice Example <alice@example.org>" },
      { name: "Subject", value: `Chat with Alice ${counter}` },
    ]),
  );
  expect(Buffer.from(full.payload?.body?.data ?? "", "base64url").toString("utf8")).toBe(
    "lunch at noon?\r\n",
  );
  expect(metadata.payload?.headers?.map((header) => header.name).sort()).toEqual(["From", "Subject"]);
});

test("when a message is not a chat, then format=raw still carries its exact bytes", async () => {
  const raw = chatBytes("an ordinary mail");
  const id = await addMessage(raw);

  const { data } = await gmail.users.messages.get({ userId: "me", id, format: "raw" });

  expect(data.labelIds).toEqual(["INBOX", "UNREAD"]);
  expect(Buffer.from(data.raw ?? "", "base64url").equals(raw)).toBe(true);
});

test("when the admin API adds a chat with labels of its own, then CHAT joins them; a chat flag that is not a boolean is refused", async () => {
  const answer = await harness.admin<{ labelIds: string[] }>("POST", `/users/${TEST_USER}/gmail/messages`, {
    raw: chatBytes("starred chat").toString("base64"),
    encoding: "base64",
    labelIds: ["STARRED"],
    chat: true,
  });
  const refused = await harness.admin("POST", `/users/${TEST_USER}/gmail/messages`, {
    raw: chatBytes("bad flag").toString("base64"),
    chat: "yes",
  });

  expect(answer.body.labelIds.sort()).toEqual(["CHAT", "STARRED"]);
  expect(refused.status).toBe(400);
});
