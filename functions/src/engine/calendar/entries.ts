/**
 * What a Calendar item is in the catalog: its key, its content, its version and content keys, its
 * metadata and its search fields (docs/backup-format.md §5–§6).
 *
 * - A calendar: key `calendar:<calendarId>`; content the canonical JSON (keys sorted) of the calendar
 *   resource (`calendars.get`), the user's calendar-list settings of it (colour, hidden, selected, summary
 *   override, default reminders, notification settings) and its sharing (`acl.list`). Google gives a
 *   calendar no version number that covers all three, so its version key is the SHA-256 of that JSON: an
 *   unchanged calendar lists with the same key every run and the engine skips it.
 * - An event: key `event:<calendarId>/<eventId>`; content the event's JSON as Google returned it; version
 *   key its etag (Google changes it with every change of the event), else `updated` and `sequence`.
 * The prefixes keep the keys apart from Gmail's message ids (16 hex digits) and Drive's file ids (no ":").
 */
import { createHash } from "node:crypto";
import type { calendar_v3 } from "@googleapis/calendar";
import { MAX_RECIPIENTS, bounded, displayText, keywordsOf } from "../sources/search-text";
import type { CalendarSearchFields, ItemMetadata } from "../sources/source";

const CALENDAR_PREFIX = "calendar:";
const EVENT_PREFIX = "event:";

export const calendarItemKey = (calendarId: string): string => `${CALENDAR_PREFIX}${calendarId}`;
export const eventItemKey = (calendarId: string, eventId: string): string =>
  `${EVENT_PREFIX}${calendarId}/${eventId}`;

/** What an item key names, or undefined for a key that is not a Calendar one. */
export function parseItemKey(
  itemKey: string,
):
  | { entry: "calendar"; calendarId: string }
  | { entry: "event"; calendarId: string; eventId: string }
  | undefined {
  if (itemKey.startsWith(CALENDAR_PREFIX)) {
    const calendarId = itemKey.slice(CALENDAR_PREFIX.length);
    return calendarId ? { entry: "calendar", calendarId } : undefined;
  }
  if (!itemKey.startsWith(EVENT_PREFIX)) return undefined;
  // Event ids are base32hex with an instance suffix: never a "/", so the last one ends the calendar id.
  const rest = itemKey.slice(EVENT_PREFIX.length);
  const cut = rest.lastIndexOf("/");
  if (cut <= 0 || cut === rest.length - 1) return undefined;
  return { entry: "event", calendarId: rest.slice(0, cut), eventId: rest.slice(cut + 1) };
}

/** Whether a version's metadata is that of a calendar (its settings and sharing), not of an event. */
export const isCalendarEntry = (metadata: Pick<ItemMetadata, "calendarEntry">): boolean =>
  metadata.calendarEntry === "calendar";

export const sha256 = (bytes: Buffer | string): string => createHash("sha256").update(bytes).digest("hex");

/** JSON with every object's keys sorted: the same content gives the same bytes whatever order Google used. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === "object" && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** The user's calendar-list settings of a calendar that a backup keeps. */
export const LIST_ENTRY_FIELDS = [
  "colorId",
  "backgroundColor",
  "foregroundColor",
  "hidden",
  "selected",
  "summaryOverride",
  "defaultReminders",
  "notificationSettings",
] as const;

/** A calendar item's content, as JSON (`content` of its version). */
export interface CalendarContent {
  calendar: calendar_v3.Schema$Calendar;
  listEntry: Pick<calendar_v3.Schema$CalendarListEntry, (typeof LIST_ENTRY_FIELDS)[number]>;
  acl: calendar_v3.Schema$AclRule[];
}

export function calendarContent(
  calendar: calendar_v3.Schema$Calendar,
  entry: calendar_v3.Schema$CalendarListEntry,
  acl: calendar_v3.Schema$AclRule[],
): CalendarContent {
  const listEntry: Record<string, unknown> = {};
  for (const field of LIST_ENTRY_FIELDS) if (entry[field] !== undefined) listEntry[field] = entry[field];
  // Rules in id order: the same sharing gives the same bytes whatever order the pages came in.
  const rules = [...acl].sort((a, b) => ((a.id ?? "") < (b.id ?? "") ? -1 : 1));
  return { calendar, listEntry, acl: rules };
}

/** A calendar's name as its owner sees it on their list. */
export const calendarName = (
  calendar: calendar_v3.Schema$Calendar,
  entry?: calendar_v3.Schema$CalendarListEntry,
): string => entry?.summaryOverride ?? calendar.summary ?? entry?.summary ?? "";

/** A calendar item's bytes and keys: both keys are the SHA-256 of its canonical JSON. */
export function calendarBytes(content: CalendarContent) {
  const bytes = Buffer.from(canonicalJson(content));
  const hash = sha256(bytes);
  return { bytes, contentKey: hash, versionKey: hash };
}

/** An event item's bytes (its JSON as Google returned it) and keys. */
export function eventBytes(event: calendar_v3.Schema$Event) {
  const bytes = Buffer.from(JSON.stringify(event));
  return { bytes, contentKey: sha256(bytes), versionKey: eventVersionKey(event) };
}

/** An event's version key: its etag (without its quotes), else when it was updated and its sequence. */
export function eventVersionKey(event: calendar_v3.Schema$Event): string {
  if (event.etag) return event.etag.replace(/^"|"$/g, "");
  return `${event.updated ?? ""}~${String(event.sequence ?? 0)}`;
}

/**
 * Whether a listed entry means the event is gone: a deleted event (cancelled, not an instance of a
 * series). A cancelled instance is the series' exception (that occurrence does not take place), kept.
 */
export const isDeletedEvent = (event: calendar_v3.Schema$Event): boolean =>
  event.status === "cancelled" && !event.recurringEventId;

export function eventMetadata(
  calendarId: string,
  event: calendar_v3.Schema$Event,
  seriesICalUID?: string,
): ItemMetadata {
  const iCalUID = event.iCalUID ?? seriesICalUID;
  return {
    calendarEntry: "event",
    calendarId,
    ...(event.id ? { eventId: event.id } : {}),
    ...(iCalUID ? { iCalUID } : {}),
    ...(event.recurringEventId ? { recurringEventId: event.recurringEventId } : {}),
  };
}

/** The most rule lines, and the longest, a series' search fields keep. */
const MAX_RULE_LINES = 50;
const MAX_RULE_LINE = 1_000;

/** An event time as search keeps it: the date of an all-day event, else the instant in UTC. */
/**
 * Events that last longer than this are marked `long` in their search fields: a browse finds the other
 * events of its days by their start from this many days before, and the long ones by the mark.
 */
export const LONG_EVENT_DAYS = 31;

/** Milliseconds of a search field's time (a date is its UTC midnight), NaN for none. */
const timeFieldMs = (time: string): number => Date.parse(time.length === 10 ? `${time}T00:00:00Z` : time);

/** Whether an event from `start` to `end` (search fields' times) lasts longer than `LONG_EVENT_DAYS`. */
export const isLongEvent = (start: string, end: string): boolean =>
  timeFieldMs(end) - timeFieldMs(start) > LONG_EVENT_DAYS * 86_400_000;

function timeOf(time: calendar_v3.Schema$EventDateTime | undefined): string {
  if (!time) return "";
  if (time.date) return time.date;
  const ms = Date.parse(time.dateTime ?? "");
  return Number.isFinite(ms) ? new Date(ms).toISOString() : "";
}

export function eventSearchFields(
  calendarId: string,
  calendar: string,
  event: calendar_v3.Schema$Event,
): CalendarSearchFields {
  const summary = event.summary ?? "";
  const organizer = event.organizer ?? {};
  const attendees = event.attendees ?? [];
  // A series' rule lines, bounded as every search field is (Google's rules are a few short lines).
  const recurrence = (event.recurrence ?? [])
    .filter((line) => line.length <= MAX_RULE_LINE)
    .slice(0, MAX_RULE_LINES);
  const start = timeOf(event.start ?? event.originalStartTime);
  const end = timeOf(event.end);
  return {
    kind: "calendar",
    display: { summary: displayText(summary), calendar: displayText(calendar) },
    entry: "event",
    summary: bounded(summary),
    organizer: bounded(organizer.email ?? ""),
    attendees: [
      ...new Set(attendees.flatMap((attendee) => (attendee.email ? [bounded(attendee.email)] : []))),
    ].slice(0, MAX_RECIPIENTS),
    // A cancelled instance has no times of its own: it is found at the occurrence it cancels.
    start,
    end,
    ...(isLongEvent(start, end) ? { long: true as const } : {}),
    calendarId,
    ...(event.start?.timeZone ? { timeZone: event.start.timeZone } : {}),
    ...(recurrence.length > 0 ? { recurrence, recurring: true as const } : {}),
    ...(event.status === "cancelled" ? { cancelled: true as const } : {}),
    // Titles, places and people, not descriptions: as mail search keeps subjects and addresses, not bodies.
    keywords: keywordsOf([
      summary,
      event.location ?? "",
      organizer.displayName ?? "",
      organizer.email ?? "",
      ...attendees.flatMap((attendee) => [attendee.displayName ?? "", attendee.email ?? ""]),
    ]),
  };
}

export function calendarSearchFields(calendarId: string, content: CalendarContent): CalendarSearchFields {
  const name = calendarName(content.calendar, content.listEntry as calendar_v3.Schema$CalendarListEntry);
  return {
    kind: "calendar",
    display: { summary: displayText(name), calendar: displayText(name) },
    entry: "calendar",
    summary: bounded(name),
    organizer: "",
    attendees: [],
    start: "",
    end: "",
    calendarId,
    ...(content.calendar.timeZone ? { timeZone: content.calendar.timeZone } : {}),
    keywords: keywordsOf([name, content.calendar.summary ?? "", content.calendar.location ?? ""]),
  };
}
