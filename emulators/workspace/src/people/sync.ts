/**
 * Paging and sync tokens of the People API's lists (connections.list, otherContacts.list,
 * contactGroups.list), as their reference pages describe them:
 * - "When the pageToken or syncToken is specified, all other request parameters must match the first
 *   call": both tokens carry a hash of the parameters, and a mismatch is 400 INVALID_ARGUMENT.
 * - "Writes may have a propagation delay of several minutes for sync requests": a sync request sees the
 *   writes older than `propagationDelayMs` on the emulator's clock (its horizon); the next sync token
 *   starts at that horizon, so a write shows up in a later incremental sync.
 * - "resources deleted since the last sync will be returned … with PersonMetadata.deleted set to true".
 * - "Sync tokens expire 7 days after the full sync … EXPIRED_SYNC_TOKEN" (see `PeopleSettings`).
 * A plain list (no sync token requested or given) reads the current state.
 */
import { createHash } from "node:crypto";
import { expiredSyncToken, peopleError } from "./errors";
import type { PeopleSettings } from "./model";

export interface Syncable {
  id: string;
  seq: number;
  createdAt: number;
  updatedAt: number;
  deleted?: boolean;
}

interface Cursor {
  /** List kind and user: a token is good for the list and user it came from only. */
  k: string;
  u: string;
  /** Hash of the other request parameters. */
  q: string;
  /** Mode: plain list, full sync, incremental sync. */
  m: "plain" | "full" | "delta";
  /**
   * Changes reported so far end at sequence `from` (exclusive lower bound of a delta); `h` is the horizon
   * (changes up to this instant are seen).
   */
  from: number;
  h: number;
  /** When the full sync of this chain started, and when this token was issued. */
  f: number;
  i: number;
  /** Page tokens: position (offset). */
  o?: number;
}

export interface ListRequest {
  kind: string;
  userId: string;
  /** The parameters that must match across pages and syncs. */
  params: unknown[];
  pageSize: number;
  pageToken?: string | null;
  syncToken?: string | null;
  /** Sync requested (requestSyncToken; contactGroups.list always). */
  requestSyncToken: boolean;
  /**
   * A full listing that returns a sync token reads the state as of the propagation delay ago (true,
   * connections and other contacts) or the current state (false: contactGroups.list, which answers a
   * sync token on every listing).
   */
  delayFull?: boolean;
  /** Order of a full listing (default: last modified, ascending). */
  compare?: (a: Syncable, b: Syncable) => number;
}

export interface ListPage<T> {
  items: T[];
  total: number;
  /** The first page of a full listing (Google's extra fixed quota applies). */
  firstFullPage: boolean;
  nextPageToken?: string;
  nextSyncToken?: string;
}

const hashOf = (params: unknown[]): string =>
  createHash("sha1").update(JSON.stringify(params)).digest("base64url").slice(0, 12);

const encode = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString("base64url");

function decode(token: string, kind: "pageToken" | "syncToken"): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Cursor;
    if (typeof cursor.k === "string" && typeof cursor.h === "number") return cursor;
  } catch {
    // below
  }
  throw peopleError(400, `Invalid ${kind}.`);
}

/** The last change sequence at or before the horizon: where the next delta starts. */
const reported = (all: Syncable[], h: number): number =>
  all.reduce((max, item) => (item.updatedAt <= h ? Math.max(max, item.seq ?? 0) : max), 0);

const byModified = (a: Syncable, b: Syncable): number =>
  a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function listPage<T extends Syncable>(
  all: T[],
  request: ListRequest,
  settings: PeopleSettings,
  now: number,
  tokensExpiredAt: number,
): ListPage<T> {
  const q = hashOf(request.params);
  const mismatch = (cursor: Cursor): boolean => cursor.k !== request.kind || cursor.u !== request.userId;
  let cursor: Cursor;
  if (request.pageToken) {
    cursor = decode(request.pageToken, "pageToken");
    if (mismatch(cursor)) throw peopleError(400, "Invalid pageToken.");
    const syncChanged = cursor.m !== "delta" && (cursor.m === "full") !== request.requestSyncToken;
    if (cursor.q !== q || syncChanged) {
      throw peopleError(400, "Request parameters must match the first call that provided the page token.");
    }
  } else if (request.syncToken) {
    const token = decode(request.syncToken, "syncToken");
    if (mismatch(token)) throw peopleError(400, "Invalid syncToken.");
    if (token.q !== q)
      throw peopleError(400, "Request parameters must match the call that provided the sync token.");
    const anchor = settings.syncTokenExpiry === "fullSync" ? token.f : token.i;
    if (now - anchor > settings.syncTokenLifetimeMs || token.i < tokensExpiredAt) throw expiredSyncToken();
    const horizon = Math.max(token.h, now - settings.propagationDelayMs);
    cursor = { ...token, m: "delta", h: horizon, i: now, o: 0 };
  } else if (request.requestSyncToken) {
    cursor = {
      k: request.kind,
      u: request.userId,
      q,
      m: "full",
      from: 0,
      h: now - (request.delayFull === false ? 0 : settings.propagationDelayMs),
      f: now,
      i: now,
      o: 0,
    };
  } else {
    cursor = { k: request.kind, u: request.userId, q, m: "plain", from: 0, h: now, f: now, i: now, o: 0 };
  }
  const { m, from, h } = cursor;
  const selected =
    m === "delta"
      ? all.filter((item) => (item.seq ?? 0) > from && item.updatedAt <= h).sort(byModified)
      : all.filter((item) => !item.deleted && item.createdAt <= h).sort(request.compare ?? byModified);
  const offset = cursor.o ?? 0;
  const items = selected.slice(offset, offset + request.pageSize);
  const more = offset + request.pageSize < selected.length;
  return {
    items,
    total: selected.length,
    firstFullPage: !request.pageToken && !request.syncToken,
    ...(more ? { nextPageToken: encode({ ...cursor, o: offset + request.pageSize }) } : {}),
    ...(!more && m !== "plain"
      ? { nextSyncToken: encode({ ...cursor, m: "delta", from: reported(all, h), o: 0, i: now }) }
      : {}),
  };
}
