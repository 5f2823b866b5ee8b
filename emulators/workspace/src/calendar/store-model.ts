/**
 * The shapes Calendar's state is kept in: calendars with their access control rules and events, each
 * user's calendar list, and the snapshot they are saved as. Every change takes the store's next change
 * number (`seq`); deleted ACL rules, events and list entries stay as tombstones with the number of their
 * deletion, so a sync token (a change number) can answer "what changed since" as Google's does.
 */

/** Google's ACL roles, weakest first. */
export const ROLES = ["none", "freeBusyReader", "reader", "writer", "owner"] as const;
export type Role = (typeof ROLES)[number];

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

export interface AclScope {
  type: "default" | "user" | "group" | "domain";
  value?: string;
}

export interface StoredAclRule {
  id: string;
  scope: AclScope;
  role: Role;
  seq: number;
  deleted: boolean;
}

/** One event as stored: the client's fields (validated) plus the server's own. */
export interface StoredEvent {
  id: string;
  iCalUID: string;
  /** The event's fields as the client sent them (summary, start, end, attendees, recurrence, …). */
  fields: Record<string, unknown>;
  status: "confirmed" | "tentative" | "cancelled";
  created: string;
  updated: string;
  sequence: number;
  /** A changed or cancelled instance of a series: the series' id and the instance's original start. */
  recurringEventId?: string;
  originalStartTime?: EventTime;
  seq: number;
  /** Deleted (not a cancelled instance of a series, which is an exception that lists as cancelled). */
  deleted: boolean;
}

export interface EventTime {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

export interface StoredCalendar {
  id: string;
  summary: string;
  description?: string;
  location?: string;
  timeZone: string;
  /** The owner's Directory user id (primary and secondary calendars of our users). */
  ownerId: string;
  primary: boolean;
  created: string;
  seq: number;
  deleted: boolean;
  acl: Map<string, StoredAclRule>;
  events: Map<string, StoredEvent>;
  /** Sync tokens of this calendar's events issued before this change number are no longer accepted. */
  eventsSyncFloor: number;
  aclSyncFloor: number;
}

export interface ListReminder {
  method: "email" | "popup";
  minutes: number;
}

export interface ListNotification {
  type: string;
  method: "email";
}

/**
 * A calendar on a user's calendar list: the user's own settings of it (the writable fields of the
 * CalendarList resource), apart from the calendar's (its `summary` is the calendar's title, the user's
 * name for it is `summaryOverride`).
 */
export interface StoredListEntry {
  calendarId: string;
  hidden: boolean;
  selected: boolean;
  colorId: string;
  summaryOverride?: string;
  /** Colours set with `colorRgbFormat=true`; otherwise those of `colorId`. */
  backgroundColor?: string;
  foregroundColor?: string;
  /** Set by the user; otherwise the calendar's defaults. */
  defaultReminders?: ListReminder[];
  notifications?: ListNotification[];
  seq: number;
  deleted: boolean;
}

export interface UserCalendars {
  userId: string;
  email: string;
  entries: Map<string, StoredListEntry>;
  /** Sync tokens of this calendar list issued before this change number are no longer accepted. */
  listSyncFloor: number;
}

export interface CalendarSnapshot {
  seq: number;
  calendars: (Omit<StoredCalendar, "acl" | "events"> & {
    acl: StoredAclRule[];
    events: StoredEvent[];
  })[];
  users: (Omit<UserCalendars, "entries"> & { entries: StoredListEntry[] })[];
  tokenLifetimeMs: number;
}

/**
 * How long a sync token is accepted. Google documents that tokens expire ("Synchronize resources
 * efficiently": the server invalidates them "for various reasons including token expiration or changes in
 * related ACLs") but publishes no lifetime; ours is 7 days on the emulator's clock, on the short side so a
 * client that keeps a cursor for a week meets the 410.
 */
export const DEFAULT_SYNC_TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The time zone of new calendars when none is given. */
export const DEFAULT_TIME_ZONE = "Europe/Zurich";
