/**
 * What a Gmail mailbox keeps (messages, labels, history records, snapshots), the system labels and
 * reserved names, and the rules for threads and dates the store applies.
 */
import { GoogleApiError, notFound } from "../http";
import { header, type MimePart } from "./mime";
import { type SearchableMessage } from "./query";

export interface InsertOptions {
  /** Label ids (system ids like INBOX, SENT, UNREAD, or ids of user labels). Default: INBOX, UNREAD. */
  labelIds?: string[];
  /** Milliseconds since the epoch; default: the Date header, else now. */
  internalDate?: number;
  /** A thread the message should join (Gmail's rules apply: it must be a reply with the same subject). */
  threadId?: string;
}

export interface GmailLabel {
  id: string;
  name: string;
  type: "system" | "user";
  messageListVisibility?: "show" | "hide";
  labelListVisibility?: "labelShow" | "labelShowIfUnread" | "labelHide";
  color?: { textColor?: string; backgroundColor?: string };
}

export type HistoryKind = "messageAdded" | "messageDeleted" | "labelAdded" | "labelRemoved";
export const HISTORY_KINDS: readonly HistoryKind[] = [
  "messageAdded",
  "messageDeleted",
  "labelAdded",
  "labelRemoved",
];

export interface HistoryRecord {
  id: number;
  /** When it happened (ms), for the retention window. */
  time: number;
  kind: HistoryKind;
  message: { id: string; threadId: string };
  /** The message's labels after the change. */
  labelIds: string[];
  /** The labels added or removed (label changes). */
  changed?: string[];
}

export interface StoredMessage {
  id: string;
  threadId: string;
  raw: Buffer;
  labelIds: Set<string>;
  internalDate: number;
  historyId: number;
  mime: MimePart;
  snippet: string;
  rfc822MessageId: string;
  search: SearchableMessage;
}

export interface Mailbox {
  userId: string;
  historyId: number;
  /** startHistoryIds below this are no longer answerable. */
  historyFloor: number;
  /** Per-mailbox retention window (ms); default: the store's. */
  retentionMs?: number;
  labels: Map<string, GmailLabel>;
  nextLabelNumber: number;
  messages: Map<string, StoredMessage>;
  /** RFC 822 Message-ID → Gmail message id. */
  byMessageId: Map<string, string>;
  threads: Map<string, Set<string>>;
  history: HistoryRecord[];
  /** Messages newest first (cache, rebuilt after inserts and deletes). */
  sorted?: StoredMessage[];
}

export interface GmailSnapshot {
  defaultRetentionMs?: number;
  mailboxes?: {
    userId: string;
    historyId: number;
    historyFloor: number;
    retentionMs?: number;
    nextLabelNumber: number;
    labels: GmailLabel[];
    messages: {
      id: string;
      threadId: string;
      /** base64 */
      raw: string;
      labelIds: string[];
      internalDate: number;
      historyId: number;
    }[];
    history: HistoryRecord[];
  }[];
}

export const hidden = { messageListVisibility: "hide", labelListVisibility: "labelHide" } as const;

/** Gmail's system labels, as labels.list shows them. */
export const SYSTEM_LABELS: readonly GmailLabel[] = [
  { id: "CHAT", name: "CHAT", type: "system", ...hidden },
  { id: "SENT", name: "SENT", type: "system" },
  { id: "INBOX", name: "INBOX", type: "system" },
  { id: "IMPORTANT", name: "IMPORTANT", type: "system", ...hidden },
  { id: "TRASH", name: "TRASH", type: "system", ...hidden },
  { id: "DRAFT", name: "DRAFT", type: "system" },
  { id: "SPAM", name: "SPAM", type: "system", ...hidden },
  { id: "CATEGORY_FORUMS", name: "CATEGORY_FORUMS", type: "system", ...hidden },
  { id: "CATEGORY_UPDATES", name: "CATEGORY_UPDATES", type: "system", ...hidden },
  { id: "CATEGORY_PERSONAL", name: "CATEGORY_PERSONAL", type: "system", ...hidden },
  { id: "CATEGORY_PROMOTIONS", name: "CATEGORY_PROMOTIONS", type: "system", ...hidden },
  { id: "CATEGORY_SOCIAL", name: "CATEGORY_SOCIAL", type: "system", ...hidden },
  { id: "STARRED", name: "STARRED", type: "system" },
  { id: "UNREAD", name: "UNREAD", type: "system" },
];
export const SYSTEM_BY_ID = new Map(SYSTEM_LABELS.map((label) => [label.id, label]));
/** Names a user label may not take (Gmail reserves them, in any case). */
export const RESERVED_NAMES = new Set([
  ...SYSTEM_LABELS.map((label) => label.name.toLowerCase()),
  "drafts",
  "sent mail",
  "all mail",
  "starred",
  "important",
  "chats",
  "bin",
  "muted",
]);

/** Gmail keeps history "at least a week"; the emulator keeps it a week unless told otherwise. */
export const DEFAULT_HISTORY_RETENTION_MS = 7 * 24 * 3600 * 1000;
export const FIRST_HISTORY_ID = 1000;

export function labelNotFound(): GoogleApiError {
  return notFound("Requested entity was not found.");
}

/** Subject without reply/forward prefixes, for threading. */
export function threadSubject(subject: string): string {
  let value = subject.trim();
  for (;;) {
    const next = value.replace(/^(re|fw|fwd|aw|wg|sv|vs|antw|tr|rif|r)\s*(\[\d+\])?\s*:\s*/i, "");
    if (next === value) break;
    value = next;
  }
  return value.replace(/\s+/g, " ").toLowerCase();
}

export function dateHeaderMs(mime: MimePart): number | undefined {
  const value = header(mime.headers, "date");
  if (!value) return undefined;
  const parsed = Date.parse(value.replace(/\([^)]*\)/g, "").trim());
  return Number.isFinite(parsed) ? parsed : undefined;
}
