/**
 * Old Hangouts/Talk chats (label CHAT), which Gmail keeps no raw form of, backed up and restored against the
 * Workspace emulator in-process: the runner with the Gmail source through the official client, the
 * in-memory blob store and catalog, and the production `GmailRestorer`. A chat's RFC 822 bytes are rebuilt
 * from its `format=full` payload; a message with no payload either is the item's error.
 */
import { gmail_v1 } from "@googleapis/gmail";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { catalogVersionSchema } from "../../functions/src/backups/catalog/documents";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { GmailRestorer } from "../../functions/src/engine/gmail/restorer";
import { GmailSource } from "../../functions/src/engine/gmail/source";
import type { CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import type { MailSearchFields } from "../../functions/src/engine/sources/source";
import { Mailboxes, meter, restoreVersion } from "../support/backup";

const ORG = "org-gmail-chats";

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

const word = (text: string): string => `=?UTF-8?B?${Buffer.from(text).toString("base64")}?=`;
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

/**
 * A chat as Gmail shows old Hangouts messages, with what a rebuild must get right: encoded words, a
 * quoted-printable and an 8-bit part, and an attachment Gmail serves apart.
 */
function chatBytes(user: string): Buffer {
  return Buffer.from(
    [
      `From: ${word("Zoë Berger")} <zoe@example.org>`,
      `To: ${user}`,
      `Subject: ${word("Chat mit Zoë")}`,
      "Date: Tue, 03 Mar 2015 09:15:00 +0000",
      "Message-ID: <chat.zoe.1@example.org>",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="outer"',
      "",
      "--outer",
      'Content-Type: multipart/alternative; boundary="inner"',
      "",
      "--inner",
      "Content-Type: text/plain; charset=UTF-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Zo=C3=AB: Mittag um zw=C3=B6lf?",
      "--inner",
      "Content-Type: text/html; charset=UTF-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      "<div>Zoë: Mittag um zwölf?</div>",
      "--inner--",
      "--outer",
      'Content-Type: image/png; name="dot.png"',
      'Content-Disposition: attachment; filename="dot.png"',
      "Content-Transfer-Encoding: base64",
      "",
      PNG.toString("base64"),
      "--outer--",
      "",
    ].join("\r\n"),
    "utf8",
  );
}

async function addChat(user: string): Promise<string> {
  const answer = await harness.admin<{ id: string }>("POST", `/users/${user}/gmail/messages`, {
    raw: chatBytes(user).toString("base64"),
    encoding: "base64",
    chat: true,
  });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

function client(user: string, scopes: string[]): gmail_v1.Gmail {
  return new gmail_v1.Gmail({ auth: harness.jwt(user, scopes), rootUrl: `${harness.url}/`, retry: false });
}

/** A mailbox's backup (one run) into a fresh catalog and blob store. */
async function backUp(user: string, gmail: gmail_v1.Gmail) {
  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  catalog.createRun({ runId: "run-1", resourceId: user, cursor: null });
  const result = await runBackup({
    run: { runId: "run-1", resourceId: user },
    source: new GmailSource({ gmail, user, caller: meter(), pageSize: 2 }),
    blobStore,
    catalog,
    dataKey,
    organizationId: ORG,
  });
  const scope = { organizationId: ORG, keys: deriveKeys(dataKey) };
  const current = (itemKey: string): CatalogVersion | undefined =>
    catalog
      .versions(user)
      .find((version) => version.versionId === catalog.item(user, itemKey)?.currentVersionId);
  return {
    catalog,
    result,
    current,
    content: (version: CatalogVersion) => restoreVersion(blobStore, scope, version),
  };
}

type Part = gmail_v1.Schema$MessagePart;
const partsOf = (part: Part | undefined): Part[] =>
  part ? [part, ...(part.parts ?? []).flatMap(partsOf)] : [];
const headerOf = (part: Part | undefined, name: string): string | undefined =>
  part?.headers?.find((header) => header.name?.toLowerCase() === name)?.value ?? undefined;
const textOf = (payload: Part | undefined, mimeType: string): string =>
  Buffer.from(
    partsOf(payload).find((part) => part.mimeType === mimeType)?.body?.data ?? "",
    "base64url",
  ).toString("utf8");

test("when a mailbox holds a mail and a chat, then both are stored, the chat as RFC 822 bytes rebuilt from its payload that restore imports back with its subject and text", async () => {
  const user = await mail.newUser("chats");
  const mailId = await mail.addMessage(user, "Ordinary mail");
  const chatId = await addChat(user);
  const backup = await backUp(user, client(user, [SCOPES.gmailReadonly]));

  expect(backup.result).toMatchObject({ outcome: "succeeded", itemErrors: 0 });
  const mailVersion = backup.current(mailId);
  const chatVersion = backup.current(chatId);
  if (!mailVersion || !chatVersion) throw new Error("an item was not stored");
  expect((await backup.content(mailVersion)).equals(mail.storedRaw(user, mailId))).toBe(true);
  expect(mailVersion.metadata.rebuilt).toBeUndefined();

  // The chat: its metadata says it was rebuilt, and the stored version decodes with the catalog's schema.
  expect(chatVersion.metadata).toMatchObject({
    rebuilt: "from-full-format",
    labels: [{ id: "CHAT", name: "CHAT" }],
  });
  expect(catalogVersionSchema.parse(chatVersion).metadata.rebuilt).toBe("from-full-format");
  const bytes = await backup.content(chatVersion);
  expect(bytes.length).toBeGreaterThan(500);
  expect(chatVersion.size).toBe(bytes.length);
  const text = bytes.toString("utf8");
  const [head = "", ...body] = text.split("\r\n\r\n");
  expect(head).toMatch(/^Subject: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/m);
  expect(head).toMatch(/^From: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <zoe@example\.org>$/m);
  expect(head).toMatch(/^Message-ID: <chat\.zoe\.1@example\.org>$/m);
  expect(head).toMatch(/^Content-Type: multipart\/mixed; boundary="rebuilt-[0-9a-f]+"$/m);
  expect(body.join("\r\n\r\n")).toContain(PNG.toString("base64"));

  // Its search fields come from its headers.
  const search = chatVersion.search as MailSearchFields;
  expect(search).toMatchObject({
    display: { subject: "Chat mit Zoë", fromName: "Zoë Berger" },
    fromEmail: "zoe@example.org",
    date: "2015-03-03T09:15:00.000Z",
    subject: "chat mit zoë",
    labels: ["chat"],
    size: bytes.length,
  });

  // Restored into another mailbox with the production restorer: Gmail parses it back to the same message.
  const target = await mail.newUser("chat-target");
  const targetGmail = client(target, [SCOPES.gmailInsert, SCOPES.gmailLabels, SCOPES.gmailModify]);
  const restorer = new GmailRestorer(targetGmail, target, meter());
  const restoredId = await restorer.import(
    bytes,
    await restorer.labelIds(chatVersion.metadata.labels ?? [], "Recovered"),
  );
  const original = (
    await client(user, [SCOPES.gmailReadonly]).users.messages.get({ userId: "me", id: chatId })
  ).data;
  const restored = (await targetGmail.users.messages.get({ userId: "me", id: restoredId, format: "full" }))
    .data;

  expect(headerOf(restored.payload, "subject")).toBe("Chat mit Zoë");
  expect(headerOf(restored.payload, "from")).toBe(headerOf(original.payload, "from"));
  expect(textOf(restored.payload, "text/plain")).toBe("Zoë: Mittag um zwölf?");
  expect(textOf(restored.payload, "text/html")).toBe(textOf(original.payload, "text/html"));
  const attachment = partsOf(restored.payload).find((part) => part.filename === "dot.png");
  const data = await targetGmail.users.messages.attachments.get({
    userId: "me",
    messageId: restoredId,
    id: attachment?.body?.attachmentId ?? "",
  });
  expect(Buffer.from(data.data.data ?? "", "base64url").equals(PNG)).toBe(true);
  // The restorer leaves the chat label out, as it does spam, trash and drafts.
  expect(restored.labelIds).not.toContain("CHAT");
});

test("when Gmail answers a message with neither raw nor a payload, then it is the item's error with its reason, never a 0-byte message, and the run succeeds", async () => {
  const user = await mail.newUser("chat-empty");
  const mailId = await mail.addMessage(user, "Ordinary mail");
  const chatId = await addChat(user);
  const gmail = client(user, [SCOPES.gmailReadonly]);
  // Gmail's answer as it would be with nothing to rebuild from: the full format without its payload.
  const get = gmail.users.messages.get.bind(gmail.users.messages) as (
    params: gmail_v1.Params$Resource$Users$Messages$Get,
    options?: object,
  ) => Promise<{ data: gmail_v1.Schema$Message }>;
  gmail.users.messages.get = (async (
    params: gmail_v1.Params$Resource$Users$Messages$Get,
    options?: object,
  ) => {
    const answer = await get(params, options);
    if (params.format === "full") delete answer.data.payload;
    return answer;
  }) as unknown as typeof gmail.users.messages.get;

  const backup = await backUp(user, gmail);

  expect(backup.result).toMatchObject({
    outcome: "succeeded",
    itemErrors: 1,
    services: { gmail: { state: "succeeded", skipped: { "no-message-content": 1 } } },
  });
  expect(backup.catalog.run("run-1")?.itemErrors).toEqual([
    expect.objectContaining({ itemKey: chatId, reason: "no-message-content" }),
  ]);
  expect(backup.catalog.item(user, chatId)).toBeUndefined();
  expect(backup.current(mailId)).toBeDefined();
});
