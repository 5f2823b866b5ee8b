/**
 * A mailbox's history (`history.list` from a historyId: messages added and deleted, labels added and
 * removed), one batch per page, collapsed to one change per message.
 */
import type { gmail_v1 } from "@googleapis/gmail";
import { googleStatus } from "../sources/google-errors";
import { bounded } from "../sources/search-text";
import type { Change, ChangeBatch } from "../sources/source";
import type { GmailCall, MailLabels } from "./labels";

const HISTORY_TYPES = ["messageAdded", "messageDeleted", "labelAdded", "labelRemoved"];

/** What the history pages are read with. */
export interface HistoryReader {
  gmail: gmail_v1.Gmail;
  call: GmailCall;
  labels: MailLabels;
  pageSize: number;
}

/** history.list pages from `startHistoryId`; returns true when the history is gone (404). */
export async function* historyPages(
  reader: HistoryReader,
  startHistoryId: string,
): AsyncGenerator<ChangeBatch, boolean> {
  const { gmail, call, pageSize } = reader;
  let pageToken: string | undefined;
  let cursor = startHistoryId;
  for (;;) {
    let page: gmail_v1.Schema$ListHistoryResponse;
    try {
      page = (
        await call("gmail.users.history.list", () =>
          gmail.users.history.list({
            userId: "me",
            startHistoryId,
            historyTypes: HISTORY_TYPES,
            maxResults: pageSize,
            ...(pageToken ? { pageToken } : {}),
          }),
        )
      ).data;
    } catch (error) {
      if (googleStatus(error) === 404) return true;
      throw error;
    }
    const records = page.history ?? [];
    const changes = await collapse(reader.labels, records);
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
async function collapse(labels: MailLabels, records: gmail_v1.Schema$History[]): Promise<Change[]> {
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
      const named = await labels.resolveLabels(state.labelIds);
      changes.push({
        type: "metadata",
        itemKey,
        versionKey: state.historyId,
        metadata: { labels: named, historyId: state.historyId },
        search: { kind: "mail", labels: named.map((label) => bounded(label.name)) },
      });
    }
  }
  return changes;
}
