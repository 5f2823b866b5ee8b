/**
 * The listing loop of a collection whose incremental token comes with the last page of a listing, not
 * before it (Calendar's `events.list`, People's `connections.list`): a full listing's pages end with a
 * `nextSyncToken`, and a listing from that token pages the same way and ends with the next one. The shared
 * loop of `listing.ts` takes its token before the first page (Gmail's historyId, Drive's start page token),
 * which these APIs cannot give, hence this one.
 *
 * A collection answers three questions: one page of its full listing, one page of the changes since a
 * token, and whether an error says the token is no longer accepted (Calendar's 410 `fullSyncRequired`,
 * People's 400 `EXPIRED_SYNC_TOKEN`). The loop yields one step per page with the position to save once the
 * page is stored:
 *
 * - no position, or a full listing's: a full listing (from its page token when resuming); the last page's
 *   sync token is the incremental position;
 * - an incremental position: the changes from its token (and page token, when a run stopped between its
 *   pages); an expired token starts a full listing of the collection, its first step marked `resynced`,
 *   and its pages asked with `resync` (a service may then ask for deleted entries too: the gap's deletes);
 * - a saved page token the API no longer accepts (400): that listing starts again from its beginning, once
 *   (a full listing marked `resynced`; an incremental one from its token). A refused page token of this
 *   run's own listing is an error, not a reason to loop.
 *
 * The next page is asked for as soon as a page is handed out, so it is on its way while the caller stores
 * this one: the pages of a listing come one after another (each needs the previous one's token), and the
 * listing then waits on Google's answers rather than on our own work. A caller that stops between pages
 * leaves that one read unused.
 *
 * A position is plain JSON, kept in the service's own cursor (one per collection it lists).
 */
import { googleStatus } from "./google-errors";
import type { Change } from "./source";

/** Where a collection's listing is: a full listing (at a page), or its changes from a sync token. */
export type SyncTokenPosition =
  | { mode: "full"; pageToken?: string; resync?: boolean }
  | { mode: "incremental"; syncToken: string; pageToken?: string };

export interface SyncTokenPage {
  changes: Change[];
  nextPageToken?: string;
  /** On the last page only. */
  nextSyncToken?: string;
}

export interface SyncTokenCollection {
  /** One page of the full listing; `resync`: it replaces an expired token (the same on every page). */
  fullPage(pageToken: string | undefined, resync: boolean): Promise<SyncTokenPage>;
  /** One page of what changed since `syncToken`. */
  changesPage(syncToken: string, pageToken: string | undefined): Promise<SyncTokenPage>;
  /** Whether `error` (of `changesPage`) says the sync token is no longer accepted. */
  isExpired(error: unknown): boolean;
}

export interface SyncTokenStep {
  changes: Change[];
  /** Where the listing resumes once this page is stored; after the last page, the incremental position. */
  next: SyncTokenPosition;
  /** The first page of a full listing from its beginning. */
  fullListing: boolean;
  /** The first page of a full listing that replaces an expired token or a refused page token. */
  resynced: boolean;
  /** The last page: `next` is the incremental position. */
  done: boolean;
}

/** Reads a position saved as JSON; anything else is undefined (the caller starts a full listing). */
export function readSyncTokenPosition(value: unknown): SyncTokenPosition | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { mode, pageToken, syncToken, resync } = value as Record<string, unknown>;
  const page = typeof pageToken === "string" && pageToken !== "" ? { pageToken } : {};
  if (mode === "full") return { mode, ...page, ...(resync === true ? { resync: true } : {}) };
  if (mode === "incremental" && typeof syncToken === "string" && syncToken !== "") {
    return { mode, syncToken, ...page };
  }
  return undefined;
}

/** The steps of a collection's listing from `from` (undefined: a full listing from the start). */
export async function* syncTokenSteps(
  collection: SyncTokenCollection,
  from: SyncTokenPosition | undefined,
): AsyncGenerator<SyncTokenStep, void> {
  let position: SyncTokenPosition = from ?? { mode: "full" };
  /** The page token read from the saved position: the only one a refusal sends back to the start. */
  let savedPageToken = position.pageToken;
  let first = position.mode === "full" && !position.pageToken;
  let resynced = false;
  const pageAt = (at: SyncTokenPosition): Promise<SyncTokenPage> =>
    at.mode === "full"
      ? collection.fullPage(at.pageToken, at.resync === true)
      : collection.changesPage(at.syncToken, at.pageToken);
  /** The page after the one handed out last, already asked for. */
  let ahead: Promise<SyncTokenPage> | undefined;
  for (;;) {
    let page: SyncTokenPage;
    try {
      const asked = ahead ?? pageAt(position);
      ahead = undefined;
      page = await asked;
    } catch (error) {
      const refusedSavedPage =
        position.pageToken !== undefined &&
        position.pageToken === savedPageToken &&
        googleStatus(error) === 400;
      savedPageToken = undefined;
      if (position.mode === "incremental" && collection.isExpired(error)) {
        position = { mode: "full", resync: true };
        first = resynced = true;
        continue;
      }
      if (refusedSavedPage) {
        position =
          position.mode === "incremental"
            ? { mode: "incremental", syncToken: position.syncToken }
            : { mode: "full", resync: true };
        first = resynced = position.mode === "full";
        continue;
      }
      throw error;
    }
    savedPageToken = undefined;
    let next: SyncTokenPosition;
    if (page.nextPageToken) next = { ...position, pageToken: page.nextPageToken };
    else if (page.nextSyncToken) next = { mode: "incremental", syncToken: page.nextSyncToken };
    else throw new Error("A listing's last page came without a sync token");
    if (page.nextPageToken) {
      ahead = pageAt(next);
      // Awaited at the next step; a caller that stops before it leaves its failure unread.
      ahead.catch(() => undefined);
    }
    yield {
      changes: page.changes,
      next,
      fullListing: first,
      resynced: first && resynced,
      done: !page.nextPageToken,
    };
    if (!page.nextPageToken) return;
    first = false;
    position = next;
  }
}
