/**
 * The cursor and resync loop every service's source shares (Gmail's history, Drive's changes).
 *
 * A service answers four questions: how its saved cursor reads (`parse`), where an incremental listing
 * would start now (`startToken`: Gmail's historyId, Drive's start page token), one page of its full
 * listing (`listPage`), and the incremental batches from a token (`incremental`, which says when the
 * token has expired). The loop does the rest, the same way for every service:
 *
 * - no cursor: a full listing, its cursor taken before the first page so the next incremental run also
 *   sees what changed while the listing ran (repeats are harmless);
 * - a full listing's cursor (`{"gmail":"full","historyId":…,"pageToken":…}`,
 *   `{"drive":"full","startPageToken":…,"pageToken":…}`): that listing resumes at its page;
 * - an incremental cursor: the incremental batches; an expired token starts a full listing marked
 *   `resynced`;
 * - an unreadable cursor, or a resumed listing whose saved page token the service no longer accepts (400):
 *   a full listing from the start, marked `resynced` (a refused token of the run's own listing is an error).
 *
 * Full listings only upsert; deletions are seen by the incremental listings.
 */
import { googleStatus } from "./google-errors";
import { fullListingBatch, type Change, type ChangeBatch } from "./source";

/** A saved cursor as a service reads it. */
export type ListingCursor =
  | { mode: "incremental"; token: string }
  | { mode: "full"; token: string; pageToken?: string }
  | { mode: "invalid" };

export interface ServiceListing {
  /** The service's name in a full listing's cursor (`{"gmail":"full",…}`). */
  readonly service: string;
  /** The name the incremental token has in a full listing's cursor (`historyId`, `startPageToken`). */
  readonly tokenField: string;
  /** Whether a token read from a full listing's cursor is well formed (default: any string). */
  isToken?(token: string): boolean;
  /** Reads a cursor that is not a full listing's (the incremental token, or `invalid`). */
  parseIncremental(cursor: string): ListingCursor;
  /** Where an incremental listing would start now. */
  startToken(): Promise<string>;
  /** One page of the full listing (the resource's items only). */
  listPage(pageToken: string | undefined): Promise<{ changes: Change[]; nextPageToken?: string }>;
  /** The incremental batches from `token`; returns true when the token has expired. */
  incremental(token: string): AsyncGenerator<ChangeBatch, boolean>;
  /** Runs before a full listing starts or resumes (Gmail compares its label names). */
  beforeFullListing?(): Promise<void>;
  /**
   * What the stream holds as Google counts it, asked when a full listing starts (not when one resumes), after
   * `startToken`: its figures go on the listing's first batch (`ChangeBatch.expected`, whole).
   */
  startExpectation?(): Promise<{ items?: number; bytes?: number } | undefined>;
}

/** Reads a saved cursor: a full listing's JSON, or what the service makes of it. */
export function parseListingCursor(listing: ServiceListing, cursor: string): ListingCursor {
  if (cursor.startsWith("{")) {
    try {
      const value = JSON.parse(cursor) as Record<string, unknown>;
      const token = value[listing.tokenField];
      if (value[listing.service] === "full" && typeof token === "string") {
        if (listing.isToken && !listing.isToken(token)) return { mode: "invalid" };
        return {
          mode: "full",
          token,
          ...(typeof value.pageToken === "string" ? { pageToken: value.pageToken } : {}),
        };
      }
    } catch {
      // answered by the service below
    }
  }
  return listing.parseIncremental(cursor);
}

/** The cursor that resumes a full listing at `pageToken`. */
export function fullListingCursor(listing: ServiceListing, token: string, pageToken: string): string {
  return JSON.stringify({ [listing.service]: "full", [listing.tokenField]: token, pageToken });
}

/** A source's `listChanges`: the batches from `cursor` on (see the header). */
export async function* listChanges(
  listing: ServiceListing,
  cursor: string | null,
): AsyncIterable<ChangeBatch> {
  const parsed = cursor === null ? undefined : parseListingCursor(listing, cursor);
  if (parsed?.mode === "incremental") {
    const expired = yield* listing.incremental(parsed.token);
    if (expired) yield* fullListing(listing, undefined, true);
    return;
  }
  yield* fullListing(listing, parsed?.mode === "full" ? parsed : undefined, parsed?.mode === "invalid");
}

async function* fullListing(
  listing: ServiceListing,
  resume: { token: string; pageToken?: string } | undefined,
  resynced: boolean,
): AsyncGenerator<ChangeBatch, void> {
  await listing.beforeFullListing?.();
  let token = resume?.token ?? (await listing.startToken());
  let pageToken = resume?.pageToken;
  /** The page token read from the saved cursor: the only one a refusal sends back to the start. */
  let savedPageToken = resume?.pageToken;
  let first = !resume;
  let resyncedFlag = resynced;
  for (;;) {
    let page: { changes: Change[]; nextPageToken?: string };
    try {
      page = await listing.listPage(pageToken);
    } catch (error) {
      // A resumed listing whose page token is no longer accepted starts over (once: a token of this run's
      // own listing that is refused is an error, not a reason to loop).
      if (pageToken && pageToken === savedPageToken && googleStatus(error) === 400) {
        token = await listing.startToken();
        pageToken = undefined;
        savedPageToken = undefined;
        first = true;
        resyncedFlag = true;
        continue;
      }
      throw error;
    }
    pageToken = page.nextPageToken;
    const incrementalCursor = token;
    const expected = first ? await listing.startExpectation?.() : undefined;
    yield {
      ...fullListingBatch(page.changes, {
        nextPageToken: pageToken,
        resumeAt: (next) => fullListingCursor(listing, incrementalCursor, next),
        incrementalCursor,
        first,
        resynced: resyncedFlag,
      }),
      ...(expected ? { expected: { ...expected, whole: true } } : {}),
    };
    first = false;
    resyncedFlag = false;
    if (!pageToken) return;
  }
}
