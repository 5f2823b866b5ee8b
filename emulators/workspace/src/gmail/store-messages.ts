/**
 * A mailbox's messages as the Gmail store keeps them: the parsed, searchable form of a message, Gmail's
 * threading, thread membership, and a mailbox as a snapshot saves it.
 */
import {
  bodyText,
  decodeWords,
  header,
  isAttachment,
  messageIds,
  parseMime,
  snippetOf,
  walkParts,
  type MimePart,
} from "./mime";
import { type GmailSnapshot, type Mailbox, type StoredMessage, threadSubject } from "./store-model";

export type SavedMailbox = NonNullable<GmailSnapshot["mailboxes"]>[number];

/** Builds the parsed, searchable form of a message. */
export function materialize(
  base: Pick<StoredMessage, "id" | "threadId" | "raw" | "labelIds" | "internalDate" | "historyId">,
  mime = parseMime(base.raw),
): StoredMessage {
  const text = bodyText(mime);
  const filenames: string[] = [];
  let hasAttachment = false;
  walkParts(mime, (part) => {
    if (part.filename) filenames.push(part.filename.toLowerCase());
    if (isAttachment(part) && part.filename) hasAttachment = true;
  });
  const get = (name: string): string => decodeWords(header(mime.headers, name) ?? "");
  const rfc822MessageId = messageIds(header(mime.headers, "message-id"))[0] ?? "";
  return {
    ...base,
    mime,
    snippet: snippetOf(text),
    rfc822MessageId,
    search: {
      from: get("from").toLowerCase(),
      to: get("to").toLowerCase(),
      cc: get("cc").toLowerCase(),
      bcc: get("bcc").toLowerCase(),
      subject: get("subject").toLowerCase(),
      text: text.toLowerCase(),
      labelIds: base.labelIds,
      internalDate: base.internalDate,
      filenames,
      hasAttachment,
      size: base.raw.length,
      rfc822MessageId,
    },
  };
}

/**
 * Gmail's threading: a message joins a thread when it refers (References, In-Reply-To) to a message of
 * that thread and its subject, without Re:/Fwd: prefixes, is the same. A requested threadId is honoured
 * on the same conditions.
 */
export function threadFor(
  mailbox: Mailbox,
  mime: MimePart,
  requested: string | undefined,
): string | undefined {
  const references = [
    ...messageIds(header(mime.headers, "in-reply-to")),
    ...messageIds(header(mime.headers, "references")).reverse(),
  ];
  if (references.length === 0) return undefined;
  const subject = threadSubject(decodeWords(header(mime.headers, "subject") ?? ""));
  const sameSubject = (messageId: string | undefined): boolean => {
    const other = messageId ? mailbox.messages.get(messageId) : undefined;
    return !!other && threadSubject(decodeWords(header(other.mime.headers, "subject") ?? "")) === subject;
  };
  if (requested) {
    const thread = mailbox.threads.get(requested);
    if (thread && [...thread].some((id) => sameSubject(id))) return requested;
  }
  for (const reference of references) {
    const id = mailbox.byMessageId.get(reference);
    if (id && sameSubject(id)) return mailbox.messages.get(id)?.threadId;
  }
  return undefined;
}

/** Adds a message to its thread (the thread starts with it when new). */
export function addToThread(mailbox: Mailbox, threadId: string, messageId: string): void {
  let thread = mailbox.threads.get(threadId);
  if (!thread) {
    thread = new Set();
    mailbox.threads.set(threadId, thread);
  }
  thread.add(messageId);
}

/** A mailbox as a snapshot saves it: raw bytes as base64; the parsed form is rebuilt on restore. */
export function saveMailbox(mailbox: Mailbox): SavedMailbox {
  return {
    userId: mailbox.userId,
    historyId: mailbox.historyId,
    historyFloor: mailbox.historyFloor,
    ...(mailbox.retentionMs !== undefined ? { retentionMs: mailbox.retentionMs } : {}),
    nextLabelNumber: mailbox.nextLabelNumber,
    labels: [...mailbox.labels.values()].map((label) => ({ ...label })),
    messages: [...mailbox.messages.values()].map((message) => ({
      id: message.id,
      threadId: message.threadId,
      raw: message.raw.toString("base64"),
      labelIds: [...message.labelIds],
      internalDate: message.internalDate,
      historyId: message.historyId,
    })),
    history: mailbox.history.map((record) => ({ ...record })),
  };
}
