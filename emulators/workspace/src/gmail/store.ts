/**
 * Gmail mailboxes: messages (raw RFC 822 bytes), labels, threads and history, per user.
 *
 * `insertMessage`, `createLabel`, `snapshot`, `restore` and `dropUser` are the contract the generator and
 * the admin API rely on; the Gmail routes build on the same store. Every change appends a history record
 * with the mailbox's next historyId. History older than the retention window, or from before an "expire
 * history" action, is gone: a `startHistoryId` that needs it is answered 404, as Gmail does.
 */
import { GoogleApiError, badRequest, notFound } from "../http";
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
import { compileQuery } from "./query";
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
  RESERVED_NAMES,
  DEFAULT_HISTORY_RETENTION_MS,
  FIRST_HISTORY_ID,
  labelNotFound,
  threadSubject,
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
    const labelIds = this.checkLabels(mailbox, options.labelIds);
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
    const threadId = this.threadFor(mailbox, mime, options.threadId) ?? id;
    const message = this.materialize(
      { id, threadId, raw, labelIds: new Set(labelIds), internalDate, historyId: 0 },
      mime,
    );
    mailbox.messages.set(id, message);
    if (rfc822MessageId) mailbox.byMessageId.set(rfc822MessageId, id);
    let thread = mailbox.threads.get(threadId);
    if (!thread) {
      thread = new Set();
      mailbox.threads.set(threadId, thread);
    }
    thread.add(id);
    mailbox.sorted = undefined;
    this.record(mailbox, message, "messageAdded");
    return { message, duplicate: false };
  }

  /** Builds the parsed, searchable form of a message. */
  private materialize(
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

  /** Gmail-like ids: 16 hex digits that grow with the internal date. */
  private newMessageId(mailbox: Mailbox, internalDate: number): string {
    for (;;) {
      this.idCounter = (this.idCounter + 1) % 0x100000;
      const value = (BigInt(Math.max(0, Math.floor(internalDate))) << 20n) + BigInt(this.idCounter);
      const id = value.toString(16).padStart(16, "0");
      if (!mailbox.messages.has(id)) return id;
    }
  }

  /**
   * Gmail's threading: a message joins a thread when it refers (References, In-Reply-To) to a message of
   * that thread and its subject, without Re:/Fwd: prefixes, is the same. A requested threadId is honoured
   * on the same conditions.
   */
  private threadFor(mailbox: Mailbox, mime: MimePart, requested: string | undefined): string | undefined {
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
    this.checkLabels(mailbox, [...add, ...remove]);
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
      ? compileQuery(options.q, (name) => this.labelIdByName(mailbox, name))
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
    const mailbox = this.mailbox(userId);
    let messagesTotal = 0;
    let messagesUnread = 0;
    const threads = new Set<string>();
    const unreadThreads = new Set<string>();
    for (const message of mailbox.messages.values()) {
      if (!message.labelIds.has(id)) continue;
      messagesTotal += 1;
      threads.add(message.threadId);
      if (message.labelIds.has("UNREAD")) {
        messagesUnread += 1;
        unreadThreads.add(message.threadId);
      }
    }
    return { messagesTotal, messagesUnread, threadsTotal: threads.size, threadsUnread: unreadThreads.size };
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
    const mailbox = this.mailbox(userId);
    const name = this.checkLabelName(mailbox, input.name, undefined);
    const label: GmailLabel = {
      id: `Label_${mailbox.nextLabelNumber}`,
      name,
      type: "user",
      messageListVisibility: input.messageListVisibility ?? "show",
      labelListVisibility: input.labelListVisibility ?? "labelShow",
      ...(input.color ? { color: input.color } : {}),
    };
    mailbox.nextLabelNumber += 1;
    mailbox.labels.set(label.id, label);
    return label;
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
    const mailbox = this.mailbox(userId);
    if (SYSTEM_BY_ID.has(id)) throw badRequest("Invalid update request", "invalidArgument");
    const label = mailbox.labels.get(id);
    if (!label) throw labelNotFound();
    if (input.name !== undefined || replace) label.name = this.checkLabelName(mailbox, input.name, id);
    if (input.messageListVisibility !== undefined || replace) {
      label.messageListVisibility = input.messageListVisibility ?? "show";
    }
    if (input.labelListVisibility !== undefined || replace) {
      label.labelListVisibility = input.labelListVisibility ?? "labelShow";
    }
    if (input.color !== undefined) label.color = input.color;
    else if (replace) delete label.color;
    return label;
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

  private checkLabelName(mailbox: Mailbox, raw: string | undefined, selfId: string | undefined): string {
    const name = (raw ?? "").trim();
    if (!name || name.length > 225 || RESERVED_NAMES.has(name.toLowerCase())) {
      throw badRequest("Invalid label name", "invalidArgument");
    }
    for (const label of mailbox.labels.values()) {
      if (label.id !== selfId && label.name.toLowerCase() === name.toLowerCase()) {
        throw new GoogleApiError(409, "Label name exists or conflicts", "aborted", { status: "ABORTED" });
      }
    }
    return name;
  }

  private checkLabels(mailbox: Mailbox, ids: string[]): string[] {
    for (const id of ids) {
      if (!SYSTEM_BY_ID.has(id) && !mailbox.labels.has(id)) {
        throw badRequest(`Invalid label: ${id}`, "invalidArgument");
      }
    }
    return [...new Set(ids)];
  }

  /** A label id from a name as a query writes it (case-insensitive; `-` stands for space and `/`). */
  private labelIdByName(mailbox: Mailbox, name: string): string | undefined {
    const wanted = name.toLowerCase();
    const system = SYSTEM_BY_ID.get(name.toUpperCase());
    if (system) return system.id;
    for (const label of mailbox.labels.values()) {
      const lower = label.name.toLowerCase();
      if (lower === wanted || lower.replace(/[\s/]/g, "-") === wanted) return label.id;
    }
    return undefined;
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
      mailboxes: [...this.mailboxes.values()].map((mailbox) => ({
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
      })),
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
        const message = this.materialize({
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
        let thread = mailbox.threads.get(message.threadId);
        if (!thread) {
          thread = new Set();
          mailbox.threads.set(message.threadId, thread);
        }
        thread.add(message.id);
      }
      mailbox.history = saved.history.map((record) => ({ ...record }));
    }
  }

  /** Forgets a deleted user's mailbox. */
  dropUser(userId: string): void {
    this.mailboxes.delete(userId);
  }
}
