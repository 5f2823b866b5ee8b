/**
 * What every Calendar route needs: the scopes each method accepts (the Calendar v3 Discovery document's
 * `scopes` per method; `calendar.app.created` and the `.owned` scopes are not modelled, so a token with
 * only those is refused, the stricter reading), the user a call acts for, the calendar `calendarId` names
 * (`primary` is the user's own) with their role on it, and page tokens bound to their query.
 */
import { createHash } from "node:crypto";
import type { DirectoryUser } from "../directory/store";
import type { WorkspaceEmulator } from "../emulator";
import { GoogleApiError, type RequestContext } from "../http";
import type { Principal } from "../principal";
import { calendarNotFound, forbiddenCalendar, invalidPageToken } from "./errors";
import type { CalendarStore } from "./store";
import { type Role, type StoredCalendar, roleRank } from "./store-model";

const AUTH = "https://www.googleapis.com/auth/";
export const CALENDAR_SCOPES = {
  calendar: `${AUTH}calendar`,
  readonly: `${AUTH}calendar.readonly`,
  events: `${AUTH}calendar.events`,
  eventsReadonly: `${AUTH}calendar.events.readonly`,
  calendarList: `${AUTH}calendar.calendarlist`,
  calendarListReadonly: `${AUTH}calendar.calendarlist.readonly`,
  calendars: `${AUTH}calendar.calendars`,
  calendarsReadonly: `${AUTH}calendar.calendars.readonly`,
  acls: `${AUTH}calendar.acls`,
  aclsReadonly: `${AUTH}calendar.acls.readonly`,
} as const;

const S = CALENDAR_SCOPES;
export const LIST_READ = [S.calendar, S.readonly, S.calendarList, S.calendarListReadonly];
export const LIST_WRITE = [S.calendar, S.calendarList];
export const CALENDAR_READ = [S.calendar, S.readonly, S.calendars, S.calendarsReadonly];
export const CALENDAR_WRITE = [S.calendar, S.calendars];
export const ACL_READ = [S.calendar, S.acls, S.aclsReadonly];
export const ACL_WRITE = [S.calendar, S.acls];
export const EVENTS_READ = [S.calendar, S.readonly, S.events, S.eventsReadonly];
export const EVENTS_WRITE = [S.calendar, S.events];

export const BASE = "/calendar/v3";

/** A call on behalf of a user: the service account's own token has no calendars. */
function actingUser(principal: Principal): DirectoryUser {
  if (!principal.user) throw calendarNotFound();
  return principal.user;
}

export interface CalendarAccess {
  user: DirectoryUser;
  calendar: StoredCalendar;
  role: Role;
}

export interface CalendarRoutes {
  emulator: WorkspaceEmulator;
  store: CalendarStore;
  route(
    method: string,
    path: string,
    id: string,
    scopes: readonly string[],
    handler: (context: RequestContext, user: DirectoryUser) => unknown,
  ): void;
  /** The calendar `calendarId` names, for a user with at least `minimum` on it; else 404 (or 403). */
  access(context: RequestContext, user: DirectoryUser, minimum: Role): CalendarAccess;
}

export function calendarRoutes(emulator: WorkspaceEmulator): CalendarRoutes {
  const store = emulator.calendar;
  return {
    emulator,
    store,
    route: (method, path, id, scopes, handler) =>
      emulator.router.add({
        method,
        path: `${BASE}${path}`,
        id,
        scopes,
        renderError: calendarError,
        handler: (context, principal: Principal) => {
          const user = actingUser(principal);
          store.userCalendars(user);
          return handler(context, user);
        },
      }),
    access: (context, user, minimum) => {
      const raw = context.params.calendarId ?? "";
      const id = raw === "primary" ? user.primaryEmail : raw;
      const calendar = store.calendar(id);
      if (!calendar) throw calendarNotFound();
      const role = store.accessRole(calendar, user);
      // A calendar the user cannot see at all is Not Found; one they see but may not change is Forbidden.
      if (role === "none") throw calendarNotFound();
      if (roleRank(role) < roleRank(minimum)) throw forbiddenCalendar();
      return { user, calendar, role };
    },
  };
}

/**
 * The quota tracker's refusals in Calendar's words: a user over 600 requests a minute gets the "403: Rate
 * Limit Exceeded" body of the Calendar "Handle API errors" page (usageLimits, rateLimitExceeded), and the
 * project's limit names Calendar's service as Google does, `calendar-json.googleapis.com`.
 */
export function calendarError(error: GoogleApiError): GoogleApiError {
  if (error.domain === "usageLimits" && error.reason === "userRateLimitExceeded") {
    return new GoogleApiError(403, "Rate Limit Exceeded", "rateLimitExceeded", {
      domain: "usageLimits",
      status: "PERMISSION_DENIED",
    });
  }
  if (error.message.includes("'calendar.googleapis.com'")) {
    return new GoogleApiError(
      error.code,
      error.message.replace("'calendar.googleapis.com'", "'calendar-json.googleapis.com'"),
      error.reason,
      { domain: error.domain, status: error.status, headers: error.headers, extra: error.extra },
    );
  }
  return error;
}

/** Google's etag form: a quoted number. */
export function etag(seq: number): string {
  return `"${String(3_181_161_784_712_000 + seq * 1000)}"`;
}

/** The query a page token belongs to: every parameter but the page token (and `fields`). */
function queryKey(context: RequestContext): string {
  const pairs = [...context.query.entries()].filter(([key]) => key !== "pageToken" && key !== "fields");
  pairs.sort(([a], [b]) => a.localeCompare(b));
  return createHash("sha256").update(JSON.stringify(pairs)).digest("base64url").slice(0, 12);
}

export interface PageCursor {
  /** Items after this sort key. */
  after: string;
  /** The change number when the listing started (the last page's sync token). */
  seq: number;
}

export function encodePageToken(context: RequestContext, cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ ...cursor, q: queryKey(context) })).toString("base64url");
}

/** A page token of this very query, or 400 (Google's tokens are bound to the query that made them). */
export function decodePageToken(context: RequestContext): PageCursor | undefined {
  const token = context.query.get("pageToken");
  if (!token) return undefined;
  try {
    const value = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof value.after === "string" && typeof value.seq === "number" && value.q === queryKey(context)) {
      return { after: value.after, seq: value.seq };
    }
  } catch {
    // answered below
  }
  throw invalidPageToken();
}

/** One page of items sorted by key, with `nextPageToken` or, on the last page, `nextSyncToken`. */
export function page<T>(
  context: RequestContext,
  items: { key: string; item: T }[],
  maxResults: number,
  startSeq: number,
  syncToken: (seq: number) => string,
): { items: T[]; nextPageToken?: string; nextSyncToken?: string } {
  const cursor = decodePageToken(context);
  const sorted = items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rest = cursor ? sorted.filter(({ key }) => key > cursor.after) : sorted;
  const slice = rest.slice(0, maxResults);
  if (rest.length > maxResults) {
    const last = slice[slice.length - 1];
    return {
      items: slice.map(({ item }) => item),
      nextPageToken: encodePageToken(context, { after: last?.key ?? "", seq: cursor?.seq ?? startSeq }),
    };
  }
  return { items: slice.map(({ item }) => item), nextSyncToken: syncToken(cursor?.seq ?? startSeq) };
}

/** `maxResults` as the Calendar list methods take it: default and ceiling per method, at least 1. */
export function maxResultsParam(context: RequestContext, fallback: number, ceiling: number): number {
  const raw = context.query.get("maxResults");
  if (raw === null || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new GoogleApiError(
      400,
      `Invalid value '${raw}'. Values must be within the range: [1, ${ceiling}]`,
      "invalid",
    );
  }
  return Math.min(value, ceiling);
}
