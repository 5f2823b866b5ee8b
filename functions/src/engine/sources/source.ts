/**
 * What the backup engine backs up from: a source lists what changed in one resource since a cursor and
 * fetches one item's content and metadata. Gmail, Drive, Calendar and Contacts implement it (Chat and
 * Directory later); the engine only depends on this interface.
 *
 * The contract, for every source:
 * - `listChanges(cursor)` yields batches in order. After the engine has stored every change of a batch
 *   (objects first, then catalog) it saves `batch.nextCursor`; a crash repeats at most the batch in hand.
 *   With no cursor (first backup) the source does a full listing: every item as an upsert, with cursors
 *   that resume the listing, and the last batch's cursor is the incremental one for the next run.
 * - A cursor the source's API no longer accepts (Gmail history that expired, a Drive page token that is
 *   not valid any more) is not an error: the source starts a full listing by itself and marks the first
 *   batch of it `resynced: true`. The engine then treats items it has and the listing did not report as
 *   candidates for "deleted at source" only after the full listing finished.
 * - A change may name an item the engine never saw (a delete of a message added and removed between two
 *   runs, a file that belongs to someone else): the engine ignores deletes of unknown items, and fetches
 *   the item for upserts and for metadata changes of items it does not have.
 * - Changes within one batch are collapsed: at most one change per item key, the last state wins.
 * - Every call to Google goes through the source's `GoogleCaller`; the source never retries by itself.
 */

/** A source is one service's stream of a resource (the services registry, contracts/src/services.ts). */
export type SourceKind = ServiceId;

import type { ServiceId } from "@alpvault/contracts/services";
import type { SearchFields } from "./search-fields";

/**
 * A reference to an item that changed, as the listing saw it. `versionKey` and `contentKey` are set when
 * the listing already knows them (Drive), so the engine can skip an item whose version it already has
 * without fetching it; Gmail's listing does not know them (fetch says).
 */
export interface ItemRef {
  itemKey: string;
  /** Changes whenever anything the version keeps changes (content or metadata). */
  versionKey?: string;
  /** Changes only when the content changes: equal content keys mean the chunk list can be reused. */
  contentKey?: string;
  /** Source-specific listing data the fetch can reuse (e.g. Drive file metadata); opaque to the engine. */
  hint?: unknown;
  /**
   * Fetch and store the content again even when the catalog has this version or its content (integrity
   * healing: the stored objects were found damaged and removed).
   */
  refetch?: boolean;
}

/**
 * Gmail labels of a message as a version keeps them: ids and names. The name is the label's name when the
 * version was captured; a label renamed since keeps its id, and the resource's label names
 * (`Catalog.mailLabelNames`) give its current name.
 */
export interface MailLabel {
  id: string;
  name: string;
}

/** A Gmail user label whose name changed since the last run saw it (same id). */
export interface LabelRename {
  id: string;
  from: string;
  to: string;
}

export type Change =
  | { type: "upsert"; item: ItemRef }
  /** The item is gone from the resource (deleted at source, or moved out of it). */
  | { type: "delete"; itemKey: string }
  /**
   * Only metadata changed (Gmail labels): a new version reusing the current version's chunk list, with
   * its metadata merged with these fields (and the search fields named here replaced).
   */
  | {
      type: "metadata";
      itemKey: string;
      /** The new version's key (as `FetchedItem.versionKey` would say). */
      versionKey: string;
      metadata: Partial<ItemMetadata>;
      search?: Partial<SearchFields>;
    };

/**
 * What a listing says of the work its stream has, for the run's totals: at the start of a full listing the
 * stream's whole content as Google counts it (`whole`: Gmail's `messagesTotal`, a My Drive's
 * `usageInDrive`); on an incremental batch, what its own changes hold (added up batch by batch). A figure
 * left out is not known.
 */
export interface ListedWork {
  items?: number;
  bytes?: number;
  whole: boolean;
}

export interface ChangeBatch {
  changes: Change[];
  /** What this batch says of the stream's work (see `ListedWork`); absent: the runner counts the changes. */
  expected?: ListedWork;
  /**
   * The cursor to save once every change of this batch is stored: during a full listing, the position to
   * resume it; after the last batch, the cursor of the next incremental run. Opaque to the engine.
   */
  nextCursor: string;
  /** True on the first batch of a full listing started because the saved cursor was no longer valid. */
  resynced?: boolean;
  /** True on the first batch of a full listing (first backup or resync). */
  fullListing?: boolean;
  /** True on the last batch of a listing (full or incremental): `nextCursor` is the incremental cursor. */
  done?: boolean;
  /**
   * Set by a source made of streams (`ResourceSource`): the stream the batch comes from, and whether it is
   * the last batch of that stream's listing (`done` then only marks the last stream's).
   */
  stream?: SourceKind;
  streamDone?: boolean;
}

/**
 * One page of a full listing as a batch: while pages follow, its cursor resumes the listing at the next
 * page (`resumeAt`); the last page hands over the incremental cursor and says `done`.
 */
export function fullListingBatch(
  changes: Change[],
  page: {
    nextPageToken: string | undefined;
    resumeAt: (pageToken: string) => string;
    incrementalCursor: string;
    first: boolean;
    resynced: boolean;
  },
): ChangeBatch {
  const { nextPageToken } = page;
  return {
    changes,
    nextCursor: nextPageToken ? page.resumeAt(nextPageToken) : page.incrementalCursor,
    ...(page.first ? { fullListing: true } : {}),
    ...(page.resynced ? { resynced: true } : {}),
    ...(nextPageToken ? {} : { done: true }),
  };
}

/** A Drive permission as a version keeps it. */
export interface DrivePermission {
  id: string;
  type: string;
  role: string;
  emailAddress?: string;
  domain?: string;
  displayName?: string;
  allowFileDiscovery?: boolean;
  /** True when it comes from a shared drive membership or a parent folder. */
  inherited?: boolean;
}

/** What a Google Docs/Sheets/Slides/Drawings file needs to be recreated as a Google file on restore. */
export interface DriveNativeInfo {
  /** The Google type (`application/vnd.google-apps.document`, …). */
  mimeType: string;
  /** The office type the content was exported to (restore uploads it with conversion to `mimeType`). */
  exportMimeType: string;
  name: string;
  description?: string;
  properties?: Record<string, string>;
  appProperties?: Record<string, string>;
  parents: string[];
  /** Folder path at the time (same as `ItemMetadata.path`). */
  path: string;
}

/** A version's metadata (catalog `versions/{id}.metadata`). Gmail fills the mail fields, Drive the rest. */
export interface ItemMetadata {
  // Gmail
  labels?: MailLabel[];
  threadId?: string;
  /** Gmail's internal date (ms since the epoch). */
  internalDate?: number;
  historyId?: string;
  /**
   * Gmail has no raw form of the message (an old Hangouts/Talk chat, label `CHAT`): its RFC 822 bytes were
   * rebuilt from the `format=full` payload (its headers, parts and decoded bodies), not Google's own.
   */
  rebuilt?: "from-full-format";
  // Drive
  name?: string;
  mimeType?: string;
  /** Folder path, root first ("My Drive/Projects" or "<shared drive name>/Projects"). */
  path?: string;
  parents?: string[];
  driveId?: string;
  headRevisionId?: string;
  version?: string;
  modifiedTime?: string;
  createdTime?: string;
  trashed?: boolean;
  md5Checksum?: string;
  description?: string;
  properties?: Record<string, string>;
  appProperties?: Record<string, string>;
  permissions?: DrivePermission[];
  /** Set for Google Docs/Sheets/Slides/Drawings (content is the office export). */
  native?: DriveNativeInfo;
  /** A Drive shortcut: what it points to (it has no content of its own; restore recreates the link). */
  shortcut?: { targetId: string; targetMimeType?: string; targetResourceKey?: string };
  /**
   * Why this version holds no content although the item has some at Google: "not-exportable" (a Form, a
   * Site, a My Map, a Jamboard: Google offers no export). The metadata is all that is kept; the item is
   * shown and counted as such, never as a 0-byte backup.
   */
  contentSkipped?: "not-exportable";
  /**
   * A file of a user's My Drive view owned by someone outside the organisation and shared with the user:
   * its owner's address. Backed up because its owner can take it away; a restore makes a copy owned by the
   * user (it cannot be given back to its owner).
   */
  externalOwner?: string;
  // Calendar
  /** What a Calendar item is: a calendar (its settings, list entry and sharing) or one of its events. */
  calendarEntry?: "calendar" | "event";
  calendarId?: string;
  eventId?: string;
  iCalUID?: string;
  /** A changed or cancelled instance of a recurring series: the series' event id. */
  recurringEventId?: string;
  // Contacts
  /** What a Contacts item is: a contact, a contact group, or an "other contact" (saved from mail). */
  contactEntry?: "contact" | "group" | "other-contact";
  /** The People API's resource name (`people/c123`, `contactGroups/abc`, `otherContacts/c456`). */
  resourceName?: string;
}

export type {
  CalendarSearchFields,
  ContactSearchFields,
  DriveSearchFields,
  MailSearchFields,
  SearchFields,
} from "./search-fields";

export interface FetchedItem {
  itemKey: string;
  /** See `ItemRef.versionKey`. */
  versionKey: string;
  /** See `ItemRef.contentKey`. */
  contentKey: string;
  /**
   * The item's bytes, streamed: never the whole of a large file in memory. Lazy where the source can make
   * it so (Drive): nothing is downloaded until it is iterated, so an engine that already has this
   * `contentKey` reuses its chunk list and never iterates it. Iterate it at most once.
   */
  content: AsyncIterable<Buffer>;
  /**
   * The content from byte `offset` on (a Range request), for a large item a later task delivery goes on
   * with; only sources that can ask for a range have it.
   */
  contentFrom?(offset: number): AsyncIterable<Buffer>;
  /**
   * What the whole content must match (Drive: the head revision's md5 and size): the runner checks it as the
   * bytes pass and throws `ContentMismatchError` when they do not (nothing of the version is recorded).
   */
  expected?: { md5?: string; size?: number };
  /** Expected content size in bytes when the source knows it before streaming (exports: unknown). */
  size?: number;
  metadata: ItemMetadata;
  search: SearchFields;
}

/**
 * The item is gone (deleted between listing and fetch, or no longer visible): the engine records a
 * delete instead of an item error.
 */
export class ItemGoneError extends Error {
  constructor(readonly itemKey: string) {
    super(`Item ${itemKey} no longer exists at the source`);
    this.name = "ItemGoneError";
  }
}

/**
 * The bytes read do not match what the item's metadata says (Drive's md5 and size of the head revision):
 * the file changed between listing and download, or the download was cut short. Nothing of it may be
 * stored; the engine fetches the item again without the listing's hint (fresh metadata).
 */
export class ContentMismatchError extends Error {
  constructor(readonly itemKey: string) {
    super(`The content of ${itemKey} does not match its metadata`);
    this.name = "ContentMismatchError";
  }
}

/**
 * The source could not read the item this time for a reason of its own, not an answer of Google's about
 * it (a download operation that failed or did not finish): the engine records it on the item with
 * `reason`, the run goes on, and the next run fetches the item again.
 */
export class ItemNotReadError extends Error {
  constructor(
    readonly itemKey: string,
    readonly reason: string,
  ) {
    super(`Item ${itemKey} could not be read (${reason})`);
    this.name = "ItemNotReadError";
  }
}

/**
 * The resource cannot be read by anyone we may act as (a shared drive with no member of the organisation's
 * domain): that service's part of the run fails with `detail`, the others go on.
 */
export class NoAccessError extends Error {
  constructor(readonly detail: string) {
    super(`No one may read this resource (${detail})`);
    this.name = "NoAccessError";
  }
}

/** A stream that cannot run: its listing fails at once with `error` (the runner ends that service). */
export function failingSource(kind: SourceKind, error: Error): Source {
  return {
    kind,
    // eslint-disable-next-line require-yield
    async *listChanges() {
      throw error;
    },
    fetch: () => Promise.reject(error),
  };
}

/**
 * A stream of a source made of several (`ResourceSource`) failed while listing: the error, and which stream.
 * The runner ends that stream's part of the run and goes on with the next one.
 */
export class StreamError extends Error {
  constructor(
    readonly stream: SourceKind,
    override readonly cause: unknown,
  ) {
    super(`The ${stream} stream failed`, { cause });
    this.name = "StreamError";
  }
}

export interface Source {
  readonly kind: SourceKind;
  listChanges(cursor: string | null): AsyncIterable<ChangeBatch>;
  fetch(item: ItemRef): Promise<FetchedItem>;
  /**
   * For a source made of streams: the cursor that resumes after `stream` (its own saved cursor kept, so
   * its next run goes on from it), and whether no stream is left after it in this run.
   */
  cursorAfter?(cursor: string | null, stream: SourceKind): { cursor: string; done: boolean };
}
