/**
 * Gmail as a backup source (one mailbox).
 *
 * - Full listing: `getProfile` for the mailbox's historyId (and its `messagesTotal`, the run's expected
 *   items: the first batch's `expected`) first, then `messages.list` (spam and trash included) page by
 *   page; every message is an upsert. An incremental run never reads the profile. The last batch's cursor is that historyId, so
 *   the next incremental run also sees what changed while the listing ran (repeats are harmless).
 * - Incremental: `history.list` from the saved historyId (messages added and deleted, labels added and
 *   removed), one batch per page, collapsed to one change per message. A 404 (history expired) starts a
 *   full listing marked `resynced`.
 * - Fetch: `messages.get format=raw` (base64url → the RFC 822 bytes) with the labels (ids and names,
 *   names from `labels.list`, cached for the run) and the mail search fields parsed from the header block.
 *   Gmail has no raw form of old Hangouts/Talk chats (label `CHAT`): their `format=raw` answer has no
 *   `raw`. Such a message is fetched again with `format=full` and its RFC 822 bytes are rebuilt from the
 *   payload (`rebuild.ts`; attachments Gmail serves apart through `messages.attachments.get`), every call
 *   through the same caller; the version says `rebuilt: "from-full-format"`. One with no payload either is
 *   the item's error (`no-message-content`), never a 0-byte message.
 * - Label renames: Gmail keeps a renamed label's id and records no history for it, and the message's
 *   historyId does not move, so neither listing can see one. With `labelNames` (the resource's label
 *   names in the catalog), a run reads `labels.list` (1 unit, the run's label cache) and compares the user
 *   labels' names with those the last run saw; renamed ones are renamed in the catalog
 *   (`Catalog.renameMailLabels`) before the first batch is stored. It checks at every full listing, at
 *   every incremental run that has changes, and otherwise once `LABEL_CHECK_MS` has passed since the last
 *   check: an unchanged mailbox's run then costs its `history.list` alone (2 units) nearly always, and a
 *   rename shows within hours even in a mailbox that receives nothing. A rename is a change of the mailbox's label table,
 *   not of any message: no message is fetched again and no version is added (a version keeps the names it
 *   was captured with, as its content and metadata were then). The items' search fields and current labels
 *   take the new name, and restore names a version's labels by id from the resource's label names, so
 *   search and restore use the name the user sees now. A new version for every message under a renamed
 *   label would cost a `messages.list` page per 500 of them plus each message's labels (`messages.get`,
 *   as much quota as fetching it again) and would still leave older versions with the old name.
 *
 * Its parts: `history.ts` (history pages collapsed to changes), `labels.ts` (label names and the rename
 * check), `search-fields.ts` (mail search fields), `raw.ts` and `mail-headers.ts` (the raw message),
 * `rebuild.ts` (a message without a raw form, rebuilt from its payload).
 *
 * Cursors: a historyId (decimal digits) for incremental runs; during a full listing a JSON object
 * `{"gmail":"full","historyId":…,"pageToken":…}` that resumes it.
 */
import type { gmail_v1 } from "@googleapis/gmail";
import type { GoogleCaller } from "../google/caller";
import { readRawMessage } from "./raw";
import { googleStatus } from "../sources/google-errors";
import { listChanges, type ServiceListing } from "../sources/listing";
import {
  ItemGoneError,
  type Change,
  type ChangeBatch,
  type FetchedItem,
  type ItemRef,
  type Source,
} from "../sources/source";
import { historyPages } from "./history";
import { MailLabels, type GmailCall, type LabelNameStore } from "./labels";
import { mailSearchFields } from "./search-fields";
import { REBUILT_FROM_FULL, rebuildMessage } from "./rebuild";

export { LABEL_CHECK_MS } from "./labels";
export { mailSearchFields } from "./search-fields";

export interface GmailSourceOptions {
  /** The mailbox's client (delegated to `user`). */
  gmail: gmail_v1.Gmail;
  /** The mailbox owner's address: whose quota the calls spend. */
  user: string;
  caller: GoogleCaller;
  /** Aborts the run's calls (the worker nears its deadline): passed to the caller with every request. */
  signal?: AbortSignal;
  /** Page size of messages.list and history.list (Gmail's maximum, 500, unless a test asks for less). */
  pageSize?: number;
  /**
   * Where the resource's label names are kept (the run's catalog and the resource): renames are noticed
   * and recorded there at the start of every listing. Without it, renames go unnoticed.
   */
  labelNames?: LabelNameStore;
  /** Clock for the label check's interval (default Date.now). */
  now?: () => number;
}

/** Messages per `messages.list` and `history.list` page: Gmail's maximum. */
export const GMAIL_LIST_PAGE_SIZE = 500;

const HISTORY_ID = /^\d+$/;

export class GmailSource implements Source {
  readonly kind = "gmail" as const;
  private readonly gmail: gmail_v1.Gmail;
  private readonly user: string;
  private readonly caller: GoogleCaller;
  private readonly pageSize: number;
  private readonly signal?: AbortSignal;
  /** The mailbox's labels for this run (names, and the rename check). */
  private readonly labels: MailLabels;
  /** One Gmail call as the mailbox owner. */
  private readonly call: GmailCall;
  /** The mailbox's message count, as the profile read at the start of a full listing said. */
  private messagesTotal: number | undefined;

  constructor(options: GmailSourceOptions) {
    this.gmail = options.gmail;
    this.user = options.user;
    this.caller = options.caller;
    this.signal = options.signal;
    this.pageSize = options.pageSize ?? GMAIL_LIST_PAGE_SIZE;
    this.call = (method, send) =>
      this.caller.call(
        {
          api: "gmail",
          user: this.user,
          method,
          idempotent: true,
          ...(this.signal ? { signal: this.signal } : {}),
        },
        send,
      );
    this.labels = new MailLabels(this.gmail, this.call, options.labelNames, options.now ?? Date.now);
  }

  /** What the shared cursor and resync loop needs from Gmail (see `../listing.ts`). */
  private readonly listing: ServiceListing = {
    service: "gmail",
    tokenField: "historyId",
    isToken: (token) => HISTORY_ID.test(token),
    parseIncremental: (cursor) =>
      HISTORY_ID.test(cursor) ? { mode: "incremental", token: cursor } : { mode: "invalid" },
    startToken: () => this.startHistoryId(),
    listPage: (pageToken) => this.listPage(pageToken),
    incremental: (historyId) => this.incremental(historyId),
    beforeFullListing: () => this.labels.noticeRenames(),
    // The profile read for the listing's historyId also counts the mailbox's messages: no call of its own.
    startExpectation: async () =>
      this.messagesTotal === undefined ? undefined : { items: this.messagesTotal },
  };

  listChanges(cursor: string | null): AsyncIterable<ChangeBatch> {
    return listChanges(this.listing, cursor);
  }

  /**
   * The history from `historyId`; returns true when it has expired. The labels are checked before the
   * first batch with changes, or before any batch once they are due.
   */
  private async *incremental(historyId: string): AsyncGenerator<ChangeBatch, boolean> {
    let checked = false;
    const history = historyPages(
      { gmail: this.gmail, call: this.call, labels: this.labels, pageSize: this.pageSize },
      historyId,
    );
    for (;;) {
      const next = await history.next();
      if (next.done) return next.value;
      if (!checked && (next.value.changes.length > 0 || (await this.labels.labelCheckDue()))) {
        await this.labels.noticeRenames();
        checked = true;
      }
      yield next.value;
    }
  }

  /** One page of `messages.list` (spam and trash included): every message is an upsert. */
  private async listPage(
    pageToken: string | undefined,
  ): Promise<{ changes: Change[]; nextPageToken?: string }> {
    const page = (
      await this.call("gmail.users.messages.list", () =>
        this.gmail.users.messages.list({
          userId: "me",
          includeSpamTrash: true,
          maxResults: this.pageSize,
          ...(pageToken ? { pageToken } : {}),
        }),
      )
    ).data;
    return {
      changes: (page.messages ?? [])
        .filter((message): message is { id: string } => typeof message.id === "string")
        .map((message) => ({ type: "upsert", item: { itemKey: message.id } })),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  }

  private async startHistoryId(): Promise<string> {
    const profile = (
      await this.call("gmail.users.getProfile", () => this.gmail.users.getProfile({ userId: "me" }))
    ).data;
    if (!profile.historyId) throw new Error("Gmail profile without a historyId");
    // Spam and trash included, as the full listing lists them (`includeSpamTrash`).
    this.messagesTotal = typeof profile.messagesTotal === "number" ? profile.messagesTotal : undefined;
    return profile.historyId;
  }

  async fetch(item: ItemRef): Promise<FetchedItem> {
    let message: gmail_v1.Schema$Message;
    let parts: Buffer[];
    let size: number;
    try {
      // Streamed and split as it arrives: the raw string is decoded without holding the JSON text.
      ({
        message,
        raw: parts,
        rawLength: size,
      } = await this.call("gmail.users.messages.get", async () => {
        const response = await this.gmail.users.messages.get(
          { userId: "me", id: item.itemKey, format: "raw" },
          { responseType: "stream" },
        );
        const read = await readRawMessage(response.data as unknown as AsyncIterable<Buffer>);
        return { ...read, message: read.message as gmail_v1.Schema$Message };
      }));
    } catch (error) {
      if (googleStatus(error) === 404) throw new ItemGoneError(item.itemKey);
      throw error;
    }
    // No raw form (an old chat): the bytes are rebuilt from the full payload, never kept as 0 bytes.
    const rebuilt = size === 0;
    if (rebuilt) {
      ({ message, raw: parts } = await this.rebuildFromFull(item.itemKey));
      size = parts.reduce((total, part) => total + part.length, 0);
    }
    const labels = await this.labels.resolveLabels(message.labelIds ?? []);
    const internalDate = message.internalDate ? Number(message.internalDate) : undefined;
    const historyId = message.historyId ?? "";
    return {
      itemKey: item.itemKey,
      versionKey: historyId,
      // A message's bytes never change: the id names its content.
      contentKey: item.itemKey,
      content: (async function* () {
        yield* parts;
      })(),
      size,
      metadata: {
        labels,
        ...(message.threadId ? { threadId: message.threadId } : {}),
        ...(internalDate !== undefined ? { internalDate } : {}),
        historyId,
        ...(rebuilt ? { rebuilt: REBUILT_FROM_FULL } : {}),
      },
      search: mailSearchFields(parts, size, { labels: labels.map((label) => label.name), internalDate }),
    };
  }

  /** The message as `format=full` has it, its RFC 822 bytes rebuilt from the payload (`rebuild.ts`). */
  private async rebuildFromFull(id: string): Promise<{ message: gmail_v1.Schema$Message; raw: Buffer[] }> {
    try {
      const message = (
        await this.call("gmail.users.messages.get", () =>
          this.gmail.users.messages.get({ userId: "me", id, format: "full" }),
        )
      ).data;
      const raw = await rebuildMessage(id, message.payload, async (attachmentId) => {
        const { data } = await this.call("gmail.users.messages.attachments.get", () =>
          this.gmail.users.messages.attachments.get({ userId: "me", messageId: id, id: attachmentId }),
        );
        return Buffer.from(data.data ?? "", "base64url");
      });
      return { message, raw: [raw] };
    } catch (error) {
      if (googleStatus(error) === 404) throw new ItemGoneError(id);
      throw error;
    }
  }
}
