/**
 * Gmail mailboxes: messages (raw RFC 822 bytes), labels, threads and history, per user.
 *
 * `insertMessage`, `createLabel`, `snapshot`, `restore` and `dropUser` are the contract the generator and
 * the admin API rely on; the Gmail routes build on the same store. Every change appends a history record
 * with the mailbox's next historyId. History older than the retention window, or from before an "expire
 * history" action, is gone: a `startHistoryId` that needs it is answered 404, as Gmail does.
 */
import { badRequest, notFound } from "../http";
import { header, messageIds, parseMime } from "./mime";
import { compileQuery } from "./query";
import { addLabelTo, checkLabels, labelCountsOf, labelIdByName, updateLabelOf } from "./store-labels";
import { addToThread, materialize, saveMailbox, threadFor } from "./store-messages";
import {
  type InsertOptions,
  type GmailLabel,
  type HistoryKind,
  type HistoryRecord,
  type StoredMessage,
  type Mailbox,
  type GmailSnapshot,
  SYSTEM_LABELS,
  SYSTEM_BY_ID,
  DEFAULT_HISTORY_RETENTION_MS,
  FIRST_HISTORY_ID,
  labelNotFound,
  dateHeaderMs,
} from "./store-model";

export class GmailStore {
  private readonly mailboxes = new Map<string, Mailbox>();
  private idCounter = 0;
  defaultRetentionMs = DEFAULT_HISTORY_RETENTION_MS;

  constructor(private readonly now: () => number = Date.now) {}

  /** A user's mailbox, created empty on first use. */
  private mailbox(userId: string): Mailbox {
    let mailbox = this.mailboxes.get(userId);
    if (!mailbox) {
      mailbox = {
        userId,
        historyId: FIRST_HISTORY_ID,
        historyFloor: FIRST_HISTORY_ID,
        labels: new Map(),
        nextLabelNumber: 1,
        messages: new Map(),
        byMessageId: new Map(),
        threads: new Map(),
        history: [],
      };
      this.mailboxes.set(userId, mailbox);
    }
    return mailbox;
  }

  // ---------------------------------------------------------------- messages

  /** Adds a message to a user's mailbox (creating the mailbox), recording a messageAdded history record. */
  insertMessage(userId: string, raw: Buffer, options: InsertOptions = {}): { id: string; threadId: string } {
    const { message } = this.addMessage(userId, raw, {
      ...options,
      labelIds: options.labelIds ?? ["INBOX", "UNREAD"],
    });
    return { id: message.id, threadId: message.threadId };
  }

  /**
   * Adds a message as messages.import and messages.insert do.
   *
   * Message-ID de-duplication: Gmail keeps one copy of a message per mailbox. Importing or inserting a
   * message whose Message-ID header is already in the mailbox stores nothing new: Gmail answers with the
   * existing message (same id, thread, date and bytes), merges the requested labels into it and takes it
   * out of the trash when the request does not ask for TRASH (Google's import tools document "if you
   * import the same message twice, Gmail ignores the second one, merging the labels"; re-uploading a
   * trashed message brings it back with its original date). Messages without a Message-ID are never
   * de-duplicated. The emulator does the same, so a restore that imports twice sees what Gmail would do.
   */
  addMessage(
    userId: string,
    raw: Buffer,
    options: InsertOptions & { labelIds: string[] },
  ): { message: StoredMessage; duplicate: boolean } {
    const mailbox = this.mailbox(userId);
    const labelIds = checkLabels(mailbox, options.labelIds);
    const mime = parseMime(raw);
    const rfc822MessageId = messageIds(header(mime.headers, "message-id"))[0] ?? "";
    const existingId = rfc822MessageId ? mailbox.byMessageId.get(rfc822MessageId) : undefined;
    const existing = existingId ? mailbox.messages.get(existingId) : undefined;
    if (existing) {
      const add = labelIds.filter((id) => !existing.labelIds.has(id));
      const remove = existing.labelIds.has("TRASH") && !labelIds.includes("TRASH") ? ["TRASH"] : [];
      this.changeLabels(mailbox, existing, add, remove);
      return { message: existing, duplicate: true };
    }
    const internalDate = options.internalDate ?? dateHeaderMs(mime) ?? this.now();
    const id = this.newMessageId(mailbox, internalDate);
    const threadId = threadFor(mailbox, mime, options.threadId) ?? id;
    const message = materialize(
      { id, threadId, raw, labelIds: new Set(labelIds), internalDate, historyId: 0 },
      mime,
    );
    mailbox.messages.set(id, message);
    if (rfc822MessageId) mailbox.byMessageId.set(rfc822MessageId, id);
    addToThread(mailbox, threadId, id);
    mailbox.sorted = undefined;
    this.record(mailbox, message, "messageAdded");
    return { message, duplicate: false };
  }

  /** Gmail-like ids: 16 hex digits that grow with the internal date. */
  private newMessageId(mailbox: Mailbox, internalDate: number): string {
    for (;;) {
      this.idCounter = (this.idCounter + 1) % 0x100000;
      const value = (BigInt(Math.max(0, Math.floor(internalDate))) << 20n) + BigInt(this.idCounter);
      const id = value.toString(16).padStart(16, "0");
      if (!mailbox.messages.has(id)) return id;
    }
  }

  /** The dates (internalDate, ms) of a mailbox's messages, oldest first. */
  messageDates(userId: string): number[] {
    const messages = this.mailboxes.get(userId)?.messages.values() ?? [];
    return [...messages].map((message) => message.internalDate).sort((a, b) => a - b);
  }

  message(userId: string, id: string): StoredMessage {
    const message = this.mailboxes.get(userId)?.messages.get(id);
    if (!message) throw notFound();
    return message;
  }

  /** `raw` as Gmail serves it (base64url). Encoding is cheap (~10 µs for 50 KB), so nothing is cached. */
  rawBase64url(message: StoredMessage): string {
    return message.raw.toString("base64url");
  }

  /** Adds and removes labels, recording labelAdded / labelRemoved history. */
  modifyMessage(userId: string, id: string, add: string[], remove: string[]): StoredMessage {
    const mailbox = this.mailbox(userId);
    const message = this.message(userId, id);
    checkLabels(mailbox, [...add, ...remove]);
    this.changeLabels(mailbox, message, add, remove);
    return message;
  }

  private changeLabels(mailbox: Mailbox, message: StoredMessage, add: string[], remove: string[]): void {
    const added = [...new Set(add)].filter((id) => !message.labelIds.has(id) && !remove.includes(id));
    const removed = [...new Set(remove)].filter((id) => message.labelIds.has(id));
    for (const id of added) message.labelIds.add(id);
    for (const id of removed) message.labelIds.delete(id);
    if (added.length > 0) this.record(mailbox, message, "labelAdded", added);
    if (removed.length > 0) this.record(mailbox, message, "labelRemoved", removed);
  }

  /** Permanently deletes a message (messages.delete), recording messageDeleted. */
  deleteMessage(userId: string, id: string): void {
    const mailbox = this.mailbox(userId);
    const message = this.message(userId, id);
    mailbox.messages.delete(id);
    if (message.rfc822MessageId && mailbox.byMessageId.get(message.rfc822MessageId) === id) {
      mailbox.byMessageId.delete(message.rfc822MessageId);
    }
    const thread = mailbox.threads.get(message.threadId);
    thread?.delete(id);
    if (thread?.size === 0) mailbox.threads.delete(message.threadId);
    mailbox.sorted = undefined;
    this.record(mailbox, message, "messageDeleted");
  }

  /** Messages newest first, filtered as messages.list filters. */
  listMessages(
    userId: string,
    options: { labelIds?: string[]; q?: string; includeSpamTrash?: boolean },
  ): StoredMessage[] {
    const mailbox = this.mailbox(userId);
    mailbox.sorted ??= [...mailbox.messages.values()].sort(
      (a, b) => b.internalDate - a.internalDate || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
    const labelIds = options.labelIds ?? [];
    const query = options.q?.trim()
      ? compileQuery(options.q, (name) => labelIdByName(mailbox, name))
      : undefined;
    const spamTrash =
      options.includeSpamTrash ||
      query?.includesSpamTrash ||
      labelIds.includes("SPAM") ||
      labelIds.includes("TRASH");
    return mailbox.sorted.filter(
      (message) =>
        (spamTrash || (!message.labelIds.has("SPAM") && !message.labelIds.has("TRASH"))) &&
        labelIds.every((id) => message.labelIds.has(id)) &&
        (!query || query.matches(message.search)),
    );
  }

  profile(userId: string): { messagesTotal: number; threadsTotal: number; historyId: number } {
    const mailbox = this.mailbox(userId);
    return {
      messagesTotal: mailbox.messages.size,
      threadsTotal: mailbox.threads.size,
      historyId: mailbox.historyId,
    };
  }

  // ---------------------------------------------------------------- labels

  labels(userId: string): GmailLabel[] {
    return [...SYSTEM_LABELS, ...this.mailbox(userId).labels.values()];
  }

  label(userId: string, id: string): GmailLabel {
    const label = SYSTEM_BY_ID.get(id) ?? this.mailbox(userId).labels.get(id);
    if (!label) throw labelNotFound();
    return label;
  }

  labelCounts(
    userId: string,
    id: string,
  ): { messagesTotal: number; messagesUnread: number; threadsTotal: number; threadsUnread: number } {
    return labelCountsOf(this.mailbox(userId), id);
  }

  /** Creates a user label (or returns the existing one with that name). */
  createLabel(userId: string, name: string): { id: string } {
    const mailbox = this.mailbox(userId);
    const existing = [...mailbox.labels.values()].find(
      (label) => label.name.toLowerCase() === name.toLowerCase(),
    );
    if (existing) return { id: existing.id };
    return this.addLabel(userId, { name });
  }

  /** labels.create: a new user label, 409 when the name is taken. */
  addLabel(userId: string, input: Partial<Omit<GmailLabel, "id" | "type">> & { name?: string }): GmailLabel {
    return addLabelTo(this.mailbox(userId), input);
  }

  /**
   * labels.patch (only given fields) and labels.update (everything given replaces). A rename keeps the
   * label's id, so messages keep it; Gmail records no history for it (history has only message added or
   * deleted and label added or removed on a message), so the mailbox's historyId does not move.
   */
  updateLabel(
    userId: string,
    id: string,
    input: Partial<Omit<GmailLabel, "id" | "type">>,
    replace: boolean,
  ): GmailLabel {
    return updateLabelOf(this.mailbox(userId), id, input, replace);
  }

  /** labels.delete: the label goes, and with it from every message (labelRemoved history). */
  deleteLabel(userId: string, id: string): void {
    const mailbox = this.mailbox(userId);
    if (SYSTEM_BY_ID.has(id)) throw badRequest("Invalid delete request", "invalidArgument");
    if (!mailbox.labels.delete(id)) throw labelNotFound();
    for (const message of mailbox.messages.values()) {
      if (message.labelIds.has(id)) this.changeLabels(mailbox, message, [], [id]);
    }
  }

  // ---------------------------------------------------------------- history

  private record(mailbox: Mailbox, message: StoredMessage, kind: HistoryKind, changed?: string[]): void {
    mailbox.historyId += 1;
    message.historyId = mailbox.historyId;
    mailbox.history.push({
      id: mailbox.historyId,
      time: this.now(),
      kind,
      message: { id: message.id, threadId: message.threadId },
      labelIds: [...message.labelIds],
      ...(changed ? { changed } : {}),
    });
  }

  /** Drops records older than the retention window; the floor moves up past them. */
  private prune(mailbox: Mailbox): void {
    const oldest = this.now() - (mailbox.retentionMs ?? this.defaultRetentionMs);
    let drop = 0;
    while (drop < mailbox.history.length && (mailbox.history[drop] as HistoryRecord).time < oldest) drop += 1;
    if (drop === 0) return;
    const last = mailbox.history[drop - 1] as HistoryRecord;
    mailbox.historyFloor = Math.max(mailbox.historyFloor, last.id);
    mailbox.history.splice(0, drop);
  }

  /**
   * Records after `startHistoryId`, oldest first. 404 when history that far back is gone (expired, or
   * older than the retention window), as Gmail answers; the client then does a full sync.
   */
  history(userId: string, startHistoryId: number): { records: HistoryRecord[]; historyId: number } {
    const mailbox = this.mailbox(userId);
    this.prune(mailbox);
    if (startHistoryId < mailbox.historyFloor) throw notFound();
    const records = mailbox.history.filter((record) => record.id > startHistoryId);
    return { records, historyId: mailbox.historyId };
  }

  /** Every startHistoryId before the current one becomes 404. Returns the current historyId. */
  expireHistory(userId: string): number {
    const mailbox = this.mailbox(userId);
    mailbox.historyFloor = mailbox.historyId;
    mailbox.history = [];
    return mailbox.historyId;
  }

  /** Sets a mailbox's history retention window (undefined: the store's default). */
  setHistoryRetention(userId: string, retentionMs: number | undefined): void {
    this.mailbox(userId).retentionMs = retentionMs;
  }

  // ---------------------------------------------------------------- state

  snapshot(): GmailSnapshot {
    return {
      defaultRetentionMs: this.defaultRetentionMs,
      mailboxes: [...this.mailboxes.values()].map(saveMailbox),
    };
  }

  restore(snapshot: GmailSnapshot): void {
    this.mailboxes.clear();
    this.defaultRetentionMs = snapshot.defaultRetentionMs ?? DEFAULT_HISTORY_RETENTION_MS;
    for (const saved of snapshot.mailboxes ?? []) {
      const mailbox = this.mailbox(saved.userId);
      mailbox.historyId = saved.historyId;
      mailbox.historyFloor = saved.historyFloor;
      mailbox.retentionMs = saved.retentionMs;
      mailbox.nextLabelNumber = saved.nextLabelNumber;
      for (const label of saved.labels) mailbox.labels.set(label.id, { ...label });
      for (const item of saved.messages) {
        const message = materialize({
          id: item.id,
          threadId: item.threadId,
          raw: Buffer.from(item.raw, "base64"),
          labelIds: new Set(item.labelIds),
          internalDate: item.internalDate,
          historyId: item.historyId,
        });
        mailbox.messages.set(message.id, message);
        if (message.rfc822MessageId && !mailbox.byMessageId.has(message.rfc822MessageId)) {
          mailbox.byMessageId.set(message.rfc822MessageId, message.id);
        }
        addToThread(mailbox, message.threadId, message.id);
      }
      mailbox.history = saved.history.map((record) => ({ ...record }));
    }
  }

  /** Forgets a deleted user's mailbox. */
  dropUser(userId: string): void {
    this.mailboxes.delete(userId);
  }
}
