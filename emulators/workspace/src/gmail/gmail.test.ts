import { Readable } from "node:stream";
import type { gmail_v1 } from "@googleapis/gmail";
import { DEFAULT_GRANTED_SCOPES, SCOPES } from "../auth";
import {
  TEST_ADMIN,
  TEST_DOMAIN,
  TEST_USER,
  googleError,
  startHarness,
  type Harness,
} from "../testing/harness";
import { testMessage } from "./testing-messages";

let harness: Harness;
let gmail: gmail_v1.Gmail;
let userId: string;

beforeAll(async () => {
  // These tests check Gmail's answers, not timing: the latency model is off for this file's emulator
  // (latency.test.ts checks the model).
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  // Delegation also grants the full-mailbox and metadata scopes, so both can be tested.
  await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:install`, {
    scopes: [...DEFAULT_GRANTED_SCOPES, SCOPES.mail, SCOPES.gmailMetadata],
  });
  gmail = harness.gmail(TEST_USER, [SCOPES.mail, SCOPES.gmailInsert]);
  userId = harness.emulator.directory.user(TEST_USER)?.id ?? "";
});
afterAll(() => harness.stop());

let counter = 0;
/** A fresh mailbox for one test: the test user's mailbox is emptied first. */
function resetMailbox(): void {
  harness.emulator.gmail.dropUser(userId);
}
function seed(
  subject: string,
  options: Partial<Parameters<typeof testMessage>[0]> & { labelIds?: string[] } = {},
): { id: string; threadId: string } {
  counter += 1;
  const { labelIds, ...message } = options;
  return harness.emulator.gmail.insertMessage(
    userId,
    testMessage({ subject, messageId: `m${counter}@example.org`, ...message }),
    labelIds ? { labelIds } : {},
  );
}
function day(n: number): Date {
  return new Date(Date.UTC(2026, 0, n, 12));
}
const b64 = (buffer: Buffer): string => buffer.toString("base64url");

describe("profile and access", () => {
  beforeEach(resetMailbox);

  test("when the mailbox has messages, then getProfile reports address, totals and the current historyId", async () => {
    const first = seed("One");
    seed("Re: One", { inReplyTo: `m${counter}@example.org` });
    seed("Two");
    const { data } = await gmail.users.getProfile({ userId: "me" });
    expect(data).toEqual({
      emailAddress: TEST_USER,
      messagesTotal: 3,
      threadsTotal: 2,
      historyId: expect.any(String),
    });
    const { data: message } = await gmail.users.messages.get({
      userId: TEST_USER,
      id: first.id,
      format: "minimal",
    });
    expect(Number(data.historyId)).toBeGreaterThan(Number(message.historyId));
  });

  test("when messages are in spam and trash, then messagesTotal counts them, as a listing with includeSpamTrash does", async () => {
    seed("Inbox");
    seed("Spam", { labelIds: ["SPAM"] });
    seed("Trash", { labelIds: ["TRASH"] });
    // Only the field asked for (a caller reading the count alone), as a number: messagesTotal is an int32.
    const { data } = await gmail.users.getProfile({ userId: "me", fields: "messagesTotal" });
    expect(data).toEqual({ messagesTotal: 3 });
    const listed = await gmail.users.messages.list({ userId: "me", includeSpamTrash: true });
    expect(listed.data.messages).toHaveLength(3);
    expect((await gmail.users.messages.list({ userId: "me" })).data.messages).toHaveLength(1);
  });

  test("when userId names another user, then Gmail answers 403 Delegation denied", async () => {
    const failure = await googleError(gmail.users.messages.list({ userId: TEST_ADMIN }));
    expect(failure.status).toBe(403);
    expect(failure.reason).toBe("forbidden");
    expect(failure.message).toBe(`Delegation denied for ${TEST_USER}`);
  });

  test("when the token has no Gmail scope, then the call is 403 insufficient scopes", async () => {
    const failure = await googleError(
      harness.gmail(TEST_USER, [SCOPES.drive]).users.getProfile({ userId: "me" }),
    );
    expect(failure.status).toBe(403);
    expect(failure.reason).toBe("insufficientPermissions");
  });

  test("when a message id is unknown, then messages.get is 404 notFound", async () => {
    const failure = await googleError(gmail.users.messages.get({ userId: "me", id: "18c0000000000000" }));
    expect(failure).toMatchObject({
      status: 404,
      reason: "notFound",
      message: "Requested entity was not found.",
    });
  });

  test("when the token only has gmail.metadata, then full, raw and q are refused and metadata works", async () => {
    const { id } = seed("Metadata only");
    const metadataClient = harness.gmail(TEST_USER, [SCOPES.gmailMetadata]);
    const full = await googleError(metadataClient.users.messages.get({ userId: "me", id, format: "full" }));
    expect(full).toMatchObject({ status: 403, message: "Metadata scope doesn't allow format FULL" });
    const query = await googleError(metadataClient.users.messages.list({ userId: "me", q: "subject:x" }));
    expect(query).toMatchObject({ status: 403, message: "Metadata scope does not support 'q' parameter" });
    const { data } = await metadataClient.users.messages.get({ userId: "me", id, format: "metadata" });
    expect(data.payload?.headers?.find((item) => item.name === "Subject")?.value).toBe("Metadata only");
  });
});

describe("labels", () => {
  beforeEach(resetMailbox);

  test("when labels are listed, then the system labels are there with Gmail's shape", async () => {
    const { data } = await gmail.users.labels.list({ userId: "me" });
    const ids = data.labels?.map((label) => label.id);
    for (const id of [
      "INBOX",
      "SENT",
      "DRAFT",
      "SPAM",
      "TRASH",
      "UNREAD",
      "STARRED",
      "IMPORTANT",
      "CATEGORY_SOCIAL",
    ]) {
      expect(ids).toContain(id);
    }
    expect(data.labels?.find((label) => label.id === "INBOX")).toEqual({
      id: "INBOX",
      name: "INBOX",
      type: "system",
    });
    expect(data.labels?.find((label) => label.id === "SPAM")).toMatchObject({
      labelListVisibility: "labelHide",
    });
  });

  test("when a user label is created, patched, updated and deleted, then Gmail's answers and conflicts follow", async () => {
    const { data: created } = await gmail.users.labels.create({
      userId: "me",
      requestBody: { name: "Projects" },
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^Label_\d+$/),
      name: "Projects",
      type: "user",
      messageListVisibility: "show",
      labelListVisibility: "labelShow",
    });
    const duplicate = await googleError(
      gmail.users.labels.create({ userId: "me", requestBody: { name: "projects" } }),
    );
    expect(duplicate).toMatchObject({ status: 409, message: "Label name exists or conflicts" });
    const id = created.id as string;
    const { data: patched } = await gmail.users.labels.patch({
      userId: "me",
      id,
      requestBody: { labelListVisibility: "labelHide" },
    });
    expect(patched).toMatchObject({ name: "Projects", labelListVisibility: "labelHide" });
    const { data: updated } = await gmail.users.labels.update({
      userId: "me",
      id,
      requestBody: { name: "Work" },
    });
    expect(updated).toMatchObject({ name: "Work", labelListVisibility: "labelShow" });

    const message = seed("Labelled", { labelIds: ["INBOX", "UNREAD", id] });
    await gmail.users.labels.delete({ userId: "me", id });
    expect((await googleError(gmail.users.labels.get({ userId: "me", id }))).status).toBe(404);
    const { data: after } = await gmail.users.messages.get({
      userId: "me",
      id: message.id,
      format: "minimal",
    });
    expect(after.labelIds).toEqual(["INBOX", "UNREAD"]);
    const system = await googleError(gmail.users.labels.delete({ userId: "me", id: "INBOX" }));
    expect(system.status).toBe(400);
  });

  test("when labels.get is called, then it counts messages and threads, total and unread", async () => {
    const first = seed("Thread A", { labelIds: ["INBOX", "UNREAD"] });
    seed("Re: Thread A", { inReplyTo: `m${counter}@example.org`, labelIds: ["INBOX"] });
    seed("Thread B", { labelIds: ["INBOX"] });
    seed("Sent", { labelIds: ["SENT"] });
    const { data } = await gmail.users.labels.get({ userId: "me", id: "INBOX" });
    expect(data).toMatchObject({ messagesTotal: 3, messagesUnread: 1, threadsTotal: 2, threadsUnread: 1 });
    expect(first.threadId).toBeTruthy();
  });
});

describe("messages.list", () => {
  beforeEach(resetMailbox);

  test("when there are more messages than maxResults, then pages come newest first with resultSizeEstimate", async () => {
    const ids = Array.from({ length: 7 }, (_, index) => seed(`Page ${index}`, { date: day(index + 1) }).id);
    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const { data } = await gmail.users.messages.list({ userId: "me", maxResults: 3, pageToken });
      expect(data.resultSizeEstimate).toBe(7);
      for (const message of data.messages ?? []) {
        expect(message).toEqual({ id: expect.any(String), threadId: expect.any(String) });
        seen.push(message.id as string);
      }
      pageToken = data.nextPageToken ?? undefined;
      pages += 1;
    } while (pageToken);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  test("when the mailbox is empty, then the answer only has resultSizeEstimate 0", async () => {
    const { data } = await gmail.users.messages.list({ userId: "me" });
    expect(data).toEqual({ resultSizeEstimate: 0 });
  });

  test("when labelIds and includeSpamTrash are given, then all labels must match and spam/trash only come on request", async () => {
    const inbox = seed("Inbox unread", { labelIds: ["INBOX", "UNREAD"] });
    const read = seed("Inbox read", { labelIds: ["INBOX"] });
    const spam = seed("Spam", { labelIds: ["SPAM"] });
    const trash = seed("Trash", { labelIds: ["TRASH", "INBOX"] });
    const list = async (params: gmail_v1.Params$Resource$Users$Messages$List) =>
      ((await gmail.users.messages.list({ userId: "me", ...params })).data.messages ?? [])
        .map((m) => m.id)
        .sort();
    expect(await list({ labelIds: ["INBOX", "UNREAD"] })).toEqual([inbox.id]);
    expect(await list({ labelIds: ["INBOX"] })).toEqual([inbox.id, read.id].sort());
    expect(await list({})).toEqual([inbox.id, read.id].sort());
    expect(await list({ includeSpamTrash: true })).toEqual([inbox.id, read.id, spam.id, trash.id].sort());
  });

  test("when q uses Gmail operators, then the matching messages come back", async () => {
    const bob = seed("Quarterly report", {
      from: "Bob <bob@example.org>",
      date: day(2),
      text: "numbers inside",
      messageId: "quarterly-2026@example.org",
    });
    const carol = seed("Lunch plans", {
      from: "carol@example.net",
      to: "team@example-test.test",
      date: day(10),
      labelIds: ["INBOX"],
      attachments: [
        { filename: "menu.pdf", contentType: "application/pdf", data: Buffer.from("%PDF-1.4 menu") },
      ],
    });
    const label = await gmail.users.labels.create({ userId: "me", requestBody: { name: "Finance Team" } });
    const dave = seed("Invoice 42", {
      from: "dave@example.com",
      date: day(20),
      labelIds: ["INBOX", "UNREAD", label.data.id as string],
    });
    const trashed = seed("Old invoice", { from: "dave@example.com", date: day(1), labelIds: ["TRASH"] });
    const search = async (q: string) =>
      ((await gmail.users.messages.list({ userId: "me", q })).data.messages ?? []).map((m) => m.id).sort();
    expect(await search("from:bob@example.org")).toEqual([bob.id]);
    expect(await search("to:team@example-test.test")).toEqual([carol.id]);
    expect(await search("subject:invoice")).toEqual([dave.id]);
    expect(await search("subject:invoice in:anywhere")).toEqual([dave.id, trashed.id].sort());
    expect(await search("in:trash")).toEqual([trashed.id]);
    expect(await search("after:2026/01/05 before:2026/01/15")).toEqual([carol.id]);
    expect(await search(`after:${Math.floor(day(15).getTime() / 1000)}`)).toEqual([dave.id]);
    expect(await search("has:attachment")).toEqual([carol.id]);
    expect(await search("label:finance-team")).toEqual([dave.id]);
    expect(await search("is:unread")).toEqual([bob.id, dave.id].sort());
    expect(await search("in:inbox -is:unread")).toEqual([carol.id]);
    expect(await search("numbers")).toEqual([bob.id]);
    expect(await search("lunch OR quarterly")).toEqual([bob.id, carol.id].sort());
    expect(await search("rfc822msgid:quarterly-2026@example.org")).toEqual([bob.id]);
    expect(await search("rfc822msgid:<quarterly-2026@example.org>")).toEqual([bob.id]);
  });
});

describe("messages.get formats and attachments", () => {
  beforeEach(resetMailbox);
  const pdf = Buffer.from("%PDF-1.4\n" + "x".repeat(3000));
  const raw = testMessage({
    subject: "=?UTF-8?B?R3LDvMOfZSBhdXMgWsO8cmljaA==?=",
    messageId: "formats@example.org",
    text: "Tea & biscuits at 'four'",
    attachments: [{ filename: "report.pdf", contentType: "application/pdf", data: pdf }],
    date: day(3),
  });

  test("when format=raw, then raw is the exact message as base64url with Gmail's other fields", async () => {
    const { id, threadId } = harness.emulator.gmail.insertMessage(userId, raw);
    const { data } = await gmail.users.messages.get({ userId: "me", id, format: "raw" });
    expect(Object.keys(data)).toEqual([
      "id",
      "threadId",
      "labelIds",
      "snippet",
      "sizeEstimate",
      "raw",
      "historyId",
      "internalDate",
    ]);
    expect(data).toMatchObject({ id, threadId, labelIds: ["INBOX", "UNREAD"], sizeEstimate: raw.length });
    expect(Buffer.from(data.raw as string, "base64url").equals(raw)).toBe(true);
    expect(data.raw).not.toMatch(/[+/=]/);
    expect(data.internalDate).toBe(String(day(3).getTime()));
    expect(data.snippet).toBe("Tea &amp; biscuits at &#39;four&#39;");
  });

  test("when format=raw has a fields selection or a fault is set, then the dispatcher's answer is the same JSON", async () => {
    const { id } = harness.emulator.gmail.insertMessage(userId, raw);
    const { data: partial } = await gmail.users.messages.get({
      userId: "me",
      id,
      format: "raw",
      fields: "id,raw",
    });
    expect(Object.keys(partial)).toEqual(["id", "raw"]);
    const { data: fast } = await gmail.users.messages.get({ userId: "me", id, format: "raw" });
    const fault = await harness.admin<{ id: string }>("POST", "/faults", {
      method: "gmail.users.messages.list",
      action: { kind: "latency", ms: 1 },
    });
    expect(fault.status).toBe(200);
    const { data: slow } = await gmail.users.messages.get({ userId: "me", id, format: "raw" });
    await harness.admin("DELETE", `/faults/${fault.body.id}`);
    expect(slow).toEqual(fast);
  });

  test("when format=minimal or metadata, then there is no body and metadataHeaders selects headers", async () => {
    const { id } = harness.emulator.gmail.insertMessage(userId, raw);
    const { data: minimal } = await gmail.users.messages.get({ userId: "me", id, format: "minimal" });
    expect(Object.keys(minimal)).toEqual([
      "id",
      "threadId",
      "labelIds",
      "snippet",
      "sizeEstimate",
      "historyId",
      "internalDate",
    ]);
    const { data: metadata } = await gmail.users.messages.get({
      userId: "me",
      id,
      format: "metadata",
      metadataHeaders: ["Subject", "From"],
    });
    expect(metadata.payload).toEqual({
      mimeType: "multipart/mixed",
      headers: [
        { name: "From", value: "Alice Example <alice@example.org>" },
        { name: "Subject", value: "Grüße aus Zürich" },
      ],
    });
  });

  test("when format=full, then payload is Gmail's MIME tree and attachments.get serves the attachment", async () => {
    const { id } = harness.emulator.gmail.insertMessage(userId, raw);
    const { data } = await gmail.users.messages.get({ userId: "me", id });
    const payload = data.payload as gmail_v1.Schema$MessagePart;
    expect(payload).toMatchObject({
      partId: "",
      mimeType: "multipart/mixed",
      filename: "",
      body: { size: 0 },
    });
    expect(payload.headers?.find((item) => item.name === "Subject")?.value).toBe("Grüße aus Zürich");
    const [alternative, attachment] = payload.parts ?? [];
    expect(alternative).toMatchObject({ partId: "0", mimeType: "multipart/alternative" });
    const [plain, html] = alternative?.parts ?? [];
    expect(plain).toMatchObject({ partId: "0.0", mimeType: "text/plain", filename: "" });
    expect(Buffer.from(plain?.body?.data as string, "base64url").toString()).toBe("Tea & biscuits at 'four'");
    expect(plain?.body?.size).toBe(Buffer.byteLength("Tea & biscuits at 'four'"));
    expect(html).toMatchObject({ partId: "0.1", mimeType: "text/html" });
    expect(attachment).toMatchObject({
      partId: "1",
      mimeType: "application/pdf",
      filename: "report.pdf",
      body: { attachmentId: expect.any(String), size: pdf.length },
    });
    expect(attachment?.body?.data).toBeUndefined();
    const { data: served } = await gmail.users.messages.attachments.get({
      userId: "me",
      messageId: id,
      id: attachment?.body?.attachmentId as string,
    });
    expect(served.size).toBe(pdf.length);
    expect(Buffer.from(served.data as string, "base64url").equals(pdf)).toBe(true);
  });
});

describe("history", () => {
  beforeEach(resetMailbox);

  test("when messages are added, relabelled and deleted, then history.list reports each change in order", async () => {
    const { data: profile } = await gmail.users.getProfile({ userId: "me" });
    const start = profile.historyId as string;
    const added = seed("History");
    await gmail.users.messages.modify({
      userId: "me",
      id: added.id,
      requestBody: { addLabelIds: ["STARRED"], removeLabelIds: ["UNREAD"] },
    });
    await gmail.users.messages.delete({ userId: "me", id: added.id });
    const { data } = await gmail.users.history.list({ userId: "me", startHistoryId: start });
    const message = { id: added.id, threadId: added.threadId };
    expect(data.history).toEqual([
      {
        id: expect.any(String),
        messages: [message],
        messagesAdded: [{ message: { ...message, labelIds: ["INBOX", "UNREAD"] } }],
      },
      {
        id: expect.any(String),
        messages: [message],
        labelsAdded: [{ message: { ...message, labelIds: ["INBOX", "STARRED"] }, labelIds: ["STARRED"] }],
      },
      {
        id: expect.any(String),
        messages: [message],
        labelsRemoved: [{ message: { ...message, labelIds: ["INBOX", "STARRED"] }, labelIds: ["UNREAD"] }],
      },
      {
        id: expect.any(String),
        messages: [message],
        messagesDeleted: [{ message: { ...message, labelIds: ["INBOX", "STARRED"] } }],
      },
    ]);
    const ids = (data.history ?? []).map((record) => Number(record.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(data.historyId).toBe(String(ids[ids.length - 1]));

    const { data: onlyAdded } = await gmail.users.history.list({
      userId: "me",
      startHistoryId: start,
      historyTypes: ["messageAdded"],
    });
    expect(onlyAdded.history?.map((record) => Object.keys(record).sort())).toEqual([
      ["id", "messages", "messagesAdded"],
    ]);
  });

  test("when there are more records than maxResults, then history pages follow nextPageToken", async () => {
    const start = (await gmail.users.getProfile({ userId: "me" })).data.historyId as string;
    for (let index = 0; index < 5; index += 1) seed(`H${index}`);
    const first = await gmail.users.history.list({ userId: "me", startHistoryId: start, maxResults: 3 });
    expect(first.data.history).toHaveLength(3);
    const second = await gmail.users.history.list({
      userId: "me",
      startHistoryId: start,
      maxResults: 3,
      pageToken: first.data.nextPageToken as string,
    });
    expect(second.data.history).toHaveLength(2);
    expect(second.data.nextPageToken).toBeUndefined();
  });

  test("when labelId is given, then only records of messages with that label come back", async () => {
    const start = (await gmail.users.getProfile({ userId: "me" })).data.historyId as string;
    seed("Inbox", { labelIds: ["INBOX"] });
    const sent = seed("Sent", { labelIds: ["SENT"] });
    const { data } = await gmail.users.history.list({ userId: "me", startHistoryId: start, labelId: "SENT" });
    expect(data.history?.map((record) => record.messages?.[0]?.id)).toEqual([sent.id]);
  });

  test("when history was expired through the admin API, then an earlier startHistoryId is 404", async () => {
    const start = (await gmail.users.getProfile({ userId: "me" })).data.historyId as string;
    seed("Before expiry");
    const expired = await harness.admin<{ historyId: string }>(
      "POST",
      `/users/${TEST_USER}/gmail/history:expire`,
    );
    expect(expired.status).toBe(200);
    const failure = await googleError(gmail.users.history.list({ userId: "me", startHistoryId: start }));
    expect(failure).toMatchObject({
      status: 404,
      reason: "notFound",
      message: "Requested entity was not found.",
    });
    const { data } = await gmail.users.history.list({ userId: "me", startHistoryId: expired.body.historyId });
    expect(data).toEqual({ historyId: expired.body.historyId });
  });

  test("when records are older than the retention window, then a startHistoryId before them is 404", async () => {
    const start = (await gmail.users.getProfile({ userId: "me" })).data.historyId as string;
    seed("Ages ago");
    const set = await harness.admin("PATCH", `/users/${TEST_USER}/gmail/history`, { retentionSeconds: 0 });
    expect(set.body).toEqual({ retentionSeconds: 0 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const failure = await googleError(gmail.users.history.list({ userId: "me", startHistoryId: start }));
    expect(failure.status).toBe(404);
    await harness.admin("PATCH", `/users/${TEST_USER}/gmail/history`, { retentionSeconds: null });
  });

  test("when startHistoryId is missing, then history.list is 400", async () => {
    const failure = await googleError(gmail.users.history.list({ userId: "me" }));
    expect(failure).toMatchObject({ status: 400, reason: "required" });
  });
});

describe("import and insert", () => {
  beforeEach(resetMailbox);

  test("when a message is imported as JSON raw, then it gets the labels and the Date header as internal date", async () => {
    const raw = testMessage({ subject: "Imported", messageId: "import-json@example.org", date: day(5) });
    const { data } = await gmail.users.messages.import({
      userId: "me",
      requestBody: { raw: b64(raw), labelIds: ["INBOX", "STARRED"] },
    });
    expect(data).toEqual({ id: expect.any(String), threadId: data.id, labelIds: ["INBOX", "STARRED"] });
    const { data: stored } = await gmail.users.messages.get({
      userId: "me",
      id: data.id as string,
      format: "raw",
    });
    expect(stored.internalDate).toBe(String(day(5).getTime()));
    expect(Buffer.from(stored.raw as string, "base64url").equals(raw)).toBe(true);

    const before = Date.now();
    const { data: received } = await gmail.users.messages.import({
      userId: "me",
      internalDateSource: "receivedTime",
      requestBody: { raw: b64(testMessage({ subject: "Now", date: day(5) })) },
    });
    const { data: now } = await gmail.users.messages.get({
      userId: "me",
      id: received.id as string,
      format: "minimal",
    });
    expect(Number(now.internalDate)).toBeGreaterThanOrEqual(before);
    expect(now.labelIds).toBeUndefined();
  });

  test("when messages.insert is called, then the internal date is the time it arrived unless dateHeader is asked", async () => {
    const raw = testMessage({ subject: "Inserted", date: day(6) });
    const before = Date.now();
    const { data } = await gmail.users.messages.insert({
      userId: "me",
      requestBody: { raw: b64(raw), labelIds: ["INBOX"] },
    });
    const { data: stored } = await gmail.users.messages.get({
      userId: "me",
      id: data.id as string,
      format: "minimal",
    });
    expect(Number(stored.internalDate)).toBeGreaterThanOrEqual(before);
    const { data: dated } = await gmail.users.messages.insert({
      userId: "me",
      internalDateSource: "dateHeader",
      requestBody: { raw: b64(testMessage({ subject: "Dated", date: day(6) })) },
    });
    const { data: datedStored } = await gmail.users.messages.get({
      userId: "me",
      id: dated.id as string,
      format: "minimal",
    });
    expect(datedStored.internalDate).toBe(String(day(6).getTime()));
  });

  test("when the raw message is missing, then import is 400 with Google's message", async () => {
    const failure = await googleError(
      gmail.users.messages.import({ userId: "me", requestBody: { labelIds: ["INBOX"] } }),
    );
    expect(failure).toMatchObject({
      status: 400,
      message: "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
    });
  });

  test("when a message is uploaded as media or multipart, then it is stored with the metadata's labels and thread", async () => {
    const original = testMessage({
      subject: "Upload thread",
      messageId: "upload-1@example.org",
      date: day(7),
    });
    const { data: media } = await gmail.users.messages.import({
      userId: "me",
      media: { mimeType: "message/rfc822", body: original },
    });
    expect(media.labelIds).toBeUndefined();
    const reply = testMessage({
      subject: "RE: Upload thread",
      messageId: "upload-2@example.org",
      inReplyTo: "upload-1@example.org",
      date: day(8),
    });
    const { data: multipart } = await gmail.users.messages.import({
      userId: "me",
      requestBody: { labelIds: ["INBOX", "UNREAD"], threadId: media.threadId },
      // The client streams multipart bodies.
      media: { mimeType: "message/rfc822", body: Readable.from([reply]) },
    });
    expect(multipart).toEqual({
      id: expect.any(String),
      threadId: media.threadId,
      labelIds: ["INBOX", "UNREAD"],
    });
    const { data: stored } = await gmail.users.messages.get({
      userId: "me",
      id: multipart.id as string,
      format: "raw",
    });
    expect(Buffer.from(stored.raw as string, "base64url").equals(reply)).toBe(true);
  });

  test("when a message is uploaded resumably in chunks, then each chunk is 308 with Range and the last one imports it", async () => {
    const raw = testMessage({
      subject: "Resumable",
      messageId: "resumable@example.org",
      attachments: [
        { filename: "big.bin", contentType: "application/octet-stream", data: Buffer.alloc(600_000, 7) },
      ],
    });
    const jwt = harness.jwt(TEST_USER, [SCOPES.gmailInsert]);
    const start = await jwt.request({
      url: `${harness.url}/upload/gmail/v1/users/me/messages/import`,
      method: "POST",
      params: { uploadType: "resumable", internalDateSource: "dateHeader" },
      headers: { "X-Upload-Content-Type": "message/rfc822", "X-Upload-Content-Length": String(raw.length) },
      data: { labelIds: ["INBOX"] },
    });
    const headers = start.headers as unknown as { get?: (name: string) => string | null; location?: string };
    const location = (
      typeof headers.get === "function" ? headers.get("location") : headers.location
    ) as string;
    expect(location).toContain("upload_id=");
    const chunk = 256 * 1024;
    let result: Response | undefined;
    for (let offset = 0; offset < raw.length; offset += chunk) {
      const end = Math.min(offset + chunk, raw.length);
      result = await fetch(location, {
        method: "PUT",
        redirect: "manual",
        headers: { "content-range": `bytes ${offset}-${end - 1}/${raw.length}` },
        body: raw.subarray(offset, end),
      });
      if (end < raw.length) {
        expect(result.status).toBe(308);
        expect(result.headers.get("range")).toBe(`bytes=0-${end - 1}`);
      }
    }
    expect(result?.status).toBe(200);
    const imported = (await result?.json()) as { id: string; labelIds: string[] };
    expect(imported.labelIds).toEqual(["INBOX"]);
    const { data } = await gmail.users.messages.get({ userId: "me", id: imported.id, format: "raw" });
    expect(Buffer.from(data.raw as string, "base64url").equals(raw)).toBe(true);
  });

  test("when the upload is not a message/* type, then Gmail refuses it", async () => {
    const failure = await googleError(
      gmail.users.messages.import({
        userId: "me",
        media: { mimeType: "application/pdf", body: Buffer.from("%PDF") },
      }),
    );
    expect(failure.status).toBe(400);
    expect(failure.message).toBe(
      "Media type 'application/pdf' is not supported. Valid media types: [message/*]",
    );
  });

  test("when a message with a Message-ID already in the mailbox is imported, then Gmail keeps one copy and merges labels", async () => {
    const raw = testMessage({ subject: "Once", messageId: "dedupe@example.org", date: day(9) });
    const { data: first } = await gmail.users.messages.import({
      userId: "me",
      requestBody: { raw: b64(raw), labelIds: ["INBOX"] },
    });
    await gmail.users.messages.trash({ userId: "me", id: first.id as string });
    const { data: second } = await gmail.users.messages.import({
      userId: "me",
      requestBody: { raw: b64(raw), labelIds: ["STARRED"] },
    });
    expect(second.id).toBe(first.id);
    expect(second.labelIds?.sort()).toEqual(["INBOX", "STARRED"]);
    const { data } = await gmail.users.messages.list({ userId: "me", includeSpamTrash: true });
    expect(data.resultSizeEstimate).toBe(1);
  });

  test("when a reply has another subject, then it starts its own thread", async () => {
    const { threadId } = seed("Original subject", { messageId: "orig@example.org" });
    const reply = seed("Re: Original subject", {
      messageId: "reply@example.org",
      inReplyTo: "orig@example.org",
    });
    const other = seed("Something else", { messageId: "other@example.org", inReplyTo: "orig@example.org" });
    expect(reply.threadId).toBe(threadId);
    expect(other.threadId).not.toBe(threadId);
  });
});

describe("modify, trash and delete", () => {
  beforeEach(resetMailbox);

  test("when a message is modified, trashed, untrashed and deleted, then labels follow and it is gone at the end", async () => {
    const { id } = seed("Changes");
    const { data: modified } = await gmail.users.messages.modify({
      userId: "me",
      id,
      requestBody: { addLabelIds: ["STARRED"], removeLabelIds: ["UNREAD"] },
    });
    expect(modified).toEqual({ id, threadId: expect.any(String), labelIds: ["INBOX", "STARRED"] });
    const { data: trashed } = await gmail.users.messages.trash({ userId: "me", id });
    expect(trashed.labelIds).toContain("TRASH");
    expect((await gmail.users.messages.list({ userId: "me" })).data.resultSizeEstimate).toBe(0);
    const { data: untrashed } = await gmail.users.messages.untrash({ userId: "me", id });
    expect(untrashed.labelIds).not.toContain("TRASH");
    const bad = await googleError(
      gmail.users.messages.modify({ userId: "me", id, requestBody: { addLabelIds: ["Label_999"] } }),
    );
    expect(bad.status).toBe(400);
    const deleted = await gmail.users.messages.delete({ userId: "me", id });
    expect(deleted.status).toBe(204);
    expect((await googleError(gmail.users.messages.get({ userId: "me", id }))).status).toBe(404);
  });

  test("when messages.delete is called with only gmail.modify, then it is 403 (it needs mail.google.com)", async () => {
    const { id } = seed("Keep me");
    const failure = await googleError(
      harness.gmail(TEST_USER, [SCOPES.gmailModify]).users.messages.delete({ userId: "me", id }),
    );
    expect(failure).toMatchObject({ status: 403, reason: "insufficientPermissions" });
  });

  test("when batchModify and batchDelete are called, then every listed message changes", async () => {
    const ids = [seed("B1").id, seed("B2").id, seed("B3").id];
    await gmail.users.messages.batchModify({ userId: "me", requestBody: { ids, removeLabelIds: ["INBOX"] } });
    expect(
      (await gmail.users.messages.list({ userId: "me", labelIds: ["INBOX"] })).data.resultSizeEstimate,
    ).toBe(0);
    await gmail.users.messages.batchDelete({ userId: "me", requestBody: { ids: ids.slice(0, 2) } });
    expect((await gmail.users.messages.list({ userId: "me" })).data.messages?.map((m) => m.id)).toEqual([
      ids[2],
    ]);
  });
});

describe("admin state changes", () => {
  beforeEach(resetMailbox);

  test("when the admin API adds, relabels and deletes a message, then the Gmail API and its history see it", async () => {
    const start = (await gmail.users.getProfile({ userId: "me" })).data.historyId as string;
    const plain = testMessage({ subject: "From the admin API", messageId: "admin@example.org" }).toString(
      "utf8",
    );
    const added = await harness.admin<{ id: string; threadId: string; labelIds: string[] }>(
      "POST",
      `/users/${TEST_USER}/gmail/messages`,
      { raw: plain, labelIds: ["INBOX"] },
    );
    expect(added.status).toBe(200);
    const { data } = await gmail.users.messages.get({
      userId: "me",
      id: added.body.id,
      format: "metadata",
      metadataHeaders: ["Subject"],
    });
    expect(data.payload?.headers).toEqual([{ name: "Subject", value: "From the admin API" }]);
    const base64 = await harness.admin<{ id: string }>("POST", `/users/${userId}/gmail/messages`, {
      raw: testMessage({ subject: "Base64" }).toString("base64"),
    });
    expect(base64.status).toBe(200);
    const relabelled = await harness.admin<{ labelIds: string[] }>(
      "POST",
      `/users/${TEST_USER}/gmail/messages/${added.body.id}:modify`,
      { addLabelIds: ["IMPORTANT"], removeLabelIds: ["INBOX"] },
    );
    expect(relabelled.body.labelIds).toEqual(["IMPORTANT"]);
    expect(
      (await harness.admin("DELETE", `/users/${TEST_USER}/gmail/messages/${added.body.id}`)).status,
    ).toBe(204);
    const { data: history } = await gmail.users.history.list({ userId: "me", startHistoryId: start });
    expect(
      history.history?.map((record) => Object.keys(record).find((key) => key !== "id" && key !== "messages")),
    ).toEqual(["messagesAdded", "messagesAdded", "labelsAdded", "labelsRemoved", "messagesDeleted"]);
  });

  test("when the store is snapshotted and restored, then messages, labels and history survive", async () => {
    const label = harness.emulator.gmail.createLabel(userId, "Archive");
    const { id } = seed("Snapshot", { labelIds: ["INBOX", label.id] });
    const snapshot = JSON.parse(JSON.stringify(harness.emulator.gmail.snapshot())) as ReturnType<
      typeof harness.emulator.gmail.snapshot
    >;
    resetMailbox();
    harness.emulator.gmail.restore(snapshot);
    const { data } = await gmail.users.messages.get({ userId: "me", id, format: "minimal" });
    expect(data.labelIds).toEqual(["INBOX", label.id]);
    expect((await gmail.users.labels.get({ userId: "me", id: label.id })).data.messagesTotal).toBe(1);
  });
});
