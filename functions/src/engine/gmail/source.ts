/**
 * Gmail as a backup source (one mailbox).
 *
 * - Full listing: `getProfile` for the mailbox's historyId first, then `messages.list` (spam and trash
 *   included) page by page; every message is an upsert. The last batch's cursor is that historyId, so
 *   the next incremental run also sees what changed while the listing ran (repeats are harmless).
 * - Incremental: `history.list` from the saved historyId (messages added and deleted, labels added and
 *   removed), one batch per page, collapsed to one change per message. A 404 (history expired) starts a
 *   full listing marked `resynced`.
 * - Fetch: `messages.get format=raw` (base64url → the RFC 822 bytes) with the labels (ids and names,
 *   names from `labels.list`, cached for the run) and the mail search fields parsed from the header block.
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
 * Cursors: a historyId (decimal digits) for incremental runs; during a full listing a JSON object
 * `{"gmail":"full","historyId":…,"pageToken":…}` that resumes it.
 */
import type { gmail_v1 } from "@googleapis/gmail";
import type { GoogleCaller } from "../google/caller";
import type { Catalog } from "../runner/catalog";
import { readRawMessage } from "./raw";
import { googleStatus } from "../sources/google-errors";
import { listChanges, type ServiceListing } from "../sources/listing";
import { decodeEncodedWords, headerBlock, parseAddressList, parseHeaders } from "./mail-headers";
import { MAX_RECIPIENTS, bounded, displayText, keywordsOf } from "../sources/search-text";
import {
  ItemGoneError,
  type Change,
  type ChangeBatch,
  type FetchedItem,
  type ItemRef,
  type LabelRename,
  type MailLabel,
  type MailSearchFields,
  type Source,
} from "../sources/source";

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
  labelNames?: {
    catalog: Pick<Catalog, "mailLabelNames" | "renameMailLabels" | "mailLabelsCheckedAt">;
    resourceId: string;
  };
  /** Clock for the label check's interval (default Date.now). */
  now?: () => number;
}

/** An unchanged mailbox's labels are compared with Gmail's at most this often (see the header). */
export const LABEL_CHECK_MS = 6 * 60 * 60_000;

/**
 * The user labels whose name is not the one `previous` has (same id), from `labels.list`'s answer. System
 * labels (INBOX, CATEGORY_…) cannot be renamed and are left out.
 */
export function labelRenames(
  previous: Record<string, string>,
  current: Record<string, string>,
): LabelRename[] {
  return Object.entries(current).flatMap(([id, to]) => {
    const from = previous[id];
    return from !== undefined && from !== to ? [{ id, from, to }] : [];
  });
}

const HISTORY_TYPES = ["messageAdded", "messageDeleted", "labelAdded", "labelRemoved"];

const HISTORY_ID = /^\d+$/;

/** The mail search fields of a raw message, from its header block only. */
export function mailSearchFields(
  raw: Buffer | Buffer[],
  size: number,
  options: { labels: string[]; internalDate?: number },
): MailSearchFields {
  const headers = parseHeaders(headerBlock(raw));
  const first = (name: string): string => headers.find((header) => header.name === name)?.value ?? "";
  const all = (name: string): string =>
    headers
      .filter((header) => header.name === name)
      .map((header) => header.value)
      .join(", ");
  const subject = decodeEncodedWords(first("subject"));
  const from = parseAddressList(first("from"))[0] ?? { name: "", email: "" };
  const to = parseAddressList(all("to"));
  const cc = parseAddressList(all("cc"));
  const parsedDate = Date.parse(
    first("date")
      .replace(/\([^)]*\)/g, "")
      .trim(),
  );
  const date = Number.isFinite(parsedDate) ? new Date(parsedDate) : new Date(options.internalDate ?? 0);
  const recipients = [...to, ...cc];
  return {
    kind: "mail",
    display: { subject: displayText(subject), fromName: displayText(from.name) },
    subject: bounded(subject),
    fromName: bounded(from.name),
    fromEmail: bounded(from.email),
    to: [...new Set(to.map((address) => bounded(address.email)))].slice(0, MAX_RECIPIENTS),
    date: date.toISOString(),
    labels: options.labels.map((label) => bounded(label)),
    size,
    keywords: keywordsOf([
      subject,
      from.name,
      from.email,
      ...recipients.flatMap((address) => [address.name, address.email]),
    ]),
  };
}

export class GmailSource implements Source {
  readonly kind = "gmail" as const;
  private readonly gmail: gmail_v1.Gmail;
  private readonly user: string;
  private readonly caller: GoogleCaller;
  private readonly pageSize: number;
  private readonly signal?: AbortSignal;
  /** Label id → name, loaded once per run (and again when a label appears that it does not know). */
  private labelNames?: Map<string, string>;
  /** The user labels' names as `labels.list` last answered (id → name). */
  private userLabels: Record<string, string> = {};
  private readonly labelStore?: GmailSourceOptions["labelNames"];
  private readonly now: () => number;

  constructor(options: GmailSourceOptions) {
    this.gmail = options.gmail;
    this.user = options.user;
    this.caller = options.caller;
    this.signal = options.signal;
    this.pageSize = options.pageSize ?? 500;
    this.labelStore = options.labelNames;
    this.now = options.now ?? Date.now;
  }

  private call<T>(method: string, send: () => Promise<T>): Promise<T> {
    return this.caller.call(
      {
        api: "gmail",
        user: this.user,
        method,
        idempotent: true,
        ...(this.signal ? { signal: this.signal } : {}),
      },
      send,
    );
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
    beforeFullListing: () => this.noticeRenames(),
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
    const history = this.history(historyId);
    for (;;) {
      const next = await history.next();
      if (next.done) return next.value;
      if (!checked && (next.value.changes.length > 0 || (await this.labelCheckDue()))) {
        await this.noticeRenames();
        checked = true;
      }
      yield next.value;
    }
  }

  /** history.list pages from `startHistoryId`; returns true when the history is gone (404). */
  private async *history(startHistoryId: string): AsyncGenerator<ChangeBatch, boolean> {
    let pageToken: string | undefined;
    let cursor = startHistoryId;
    for (;;) {
      let page: gmail_v1.Schema$ListHistoryResponse;
      try {
        page = (
          await this.call("gmail.users.history.list", () =>
            this.gmail.users.history.list({
              userId: "me",
              startHistoryId,
              historyTypes: HISTORY_TYPES,
              maxResults: this.pageSize,
              ...(pageToken ? { pageToken } : {}),
            }),
          )
        ).data;
      } catch (error) {
        if (googleStatus(error) === 404) return true;
        throw error;
      }
      const records = page.history ?? [];
      const changes = await this.collapse(records);
      pageToken = page.nextPageToken ?? undefined;
      // Mid-listing, the last record read is where a repeat would resume; at the end, the mailbox's
      // current historyId (records of other types since then need no reading).
      if (pageToken) cursor = records[records.length - 1]?.id ?? cursor;
      else cursor = page.historyId ?? cursor;
      yield { changes, nextCursor: cursor, ...(pageToken ? {} : { done: true }) };
      if (!pageToken) return false;
    }
  }

  /** One change per message: the last state of the page wins (deleted beats everything before it). */
  private async collapse(records: gmail_v1.Schema$History[]): Promise<Change[]> {
    /** `historyId`: the last record that changed the message (its historyId after the change). */
    type State = { kind: "upsert" | "delete" | "metadata"; labelIds: string[]; historyId: string };
    const states = new Map<string, State>();
    const touch = (
      message: gmail_v1.Schema$Message | undefined,
      kind: State["kind"],
      historyId: string,
    ): void => {
      const id = message?.id;
      if (!id) return;
      const labelIds = message.labelIds ?? [];
      const previous = states.get(id);
      if (kind === "metadata" && previous && previous.kind !== "metadata") {
        previous.labelIds = labelIds;
        previous.historyId = historyId;
        return;
      }
      states.delete(id); // re-inserted: the batch keeps the order of each message's last change
      states.set(id, { kind, labelIds, historyId });
    };
    for (const record of records) {
      const historyId = record.id ?? "";
      for (const added of record.messagesAdded ?? []) touch(added.message, "upsert", historyId);
      for (const changed of record.labelsAdded ?? []) touch(changed.message, "metadata", historyId);
      for (const changed of record.labelsRemoved ?? []) touch(changed.message, "metadata", historyId);
      for (const deleted of record.messagesDeleted ?? []) touch(deleted.message, "delete", historyId);
    }
    const changes: Change[] = [];
    for (const [itemKey, state] of states) {
      if (state.kind === "upsert") changes.push({ type: "upsert", item: { itemKey } });
      else if (state.kind === "delete") changes.push({ type: "delete", itemKey });
      else {
        const labels = await this.resolveLabels(state.labelIds);
        changes.push({
          type: "metadata",
          itemKey,
          versionKey: state.historyId,
          metadata: { labels, historyId: state.historyId },
          search: { kind: "mail", labels: labels.map((label) => bounded(label.name)) },
        });
      }
    }
    return changes;
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
    return profile.historyId;
  }

  private async loadLabels(): Promise<Map<string, string>> {
    const labels = (
      await this.call("gmail.users.labels.list", () => this.gmail.users.labels.list({ userId: "me" }))
    ).data.labels;
    this.labelNames = new Map(
      (labels ?? []).flatMap((label) => (label.id ? [[label.id, label.name ?? label.id] as const] : [])),
    );
    this.userLabels = Object.fromEntries(
      (labels ?? []).flatMap((label) =>
        label.id && label.name && label.type !== "system" ? [[label.id, label.name] as const] : [],
      ),
    );
    return this.labelNames;
  }

  /**
   * Compares the user labels' names with those the last run saw and records renames in the catalog (see
   * the header). The names are saved only when they differ, so an unchanged mailbox writes nothing.
   */
  private async noticeRenames(): Promise<void> {
    const store = this.labelStore;
    if (!store) return;
    await this.loadLabels();
    const current = this.userLabels;
    const previous = await store.catalog.mailLabelNames(store.resourceId);
    const same =
      previous !== undefined &&
      Object.keys(previous).length === Object.keys(current).length &&
      Object.entries(current).every(([id, name]) => previous[id] === name);
    const checkedAt = new Date(this.now()).toISOString();
    // Unchanged names are written again only to record the check (once per LABEL_CHECK_MS at most).
    await store.catalog.renameMailLabels(
      store.resourceId,
      same ? [] : labelRenames(previous ?? {}, current),
      current,
      checkedAt,
    );
  }

  /** True when the mailbox's labels were never checked, or not for `LABEL_CHECK_MS`. */
  private async labelCheckDue(): Promise<boolean> {
    const store = this.labelStore;
    if (!store) return false;
    const at = await store.catalog.mailLabelsCheckedAt(store.resourceId);
    return at === undefined || this.now() - Date.parse(at) >= LABEL_CHECK_MS;
  }

  private async resolveLabels(ids: string[]): Promise<MailLabel[]> {
    const cached = this.labelNames;
    let names = cached ?? (await this.loadLabels());
    if (cached && ids.some((id) => !names.has(id))) names = await this.loadLabels();
    return ids.map((id) => ({ id, name: names.get(id) ?? id }));
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
    const labels = await this.resolveLabels(message.labelIds ?? []);
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
      },
      search: mailSearchFields(parts, size, { labels: labels.map((label) => label.name), internalDate }),
    };
  }
}
