/**
 * What a backed-up event or calendar becomes in a restore's request: only the fields Google lets a client
 * write (the Events resource's "writable" properties of `events.import` and `events.insert`), never those
 * Google assigns (`id`, `etag`, `htmlLink`, `created`, `updated`, `creator`, `hangoutLink`, `kind`,
 * `recurringEventId`, the `self` and `id` of people). An allow-list, not a deny-list: a field Google adds
 * to its answers later stays out of the requests until someone decides it can go in.
 */
import type { calendar_v3 } from "@googleapis/calendar";
import type { CalendarContent } from "./entries";

/** The writable fields `events.import` takes from a backed-up event (`organizer` is import's own). */
const IMPORTED = [
  "summary",
  "description",
  "location",
  "colorId",
  "start",
  "end",
  "endTimeUnspecified",
  "recurrence",
  "originalStartTime",
  "transparency",
  "visibility",
  "sequence",
  "status",
  "anyoneCanAddSelf",
  "guestsCanInviteOthers",
  "guestsCanModify",
  "guestsCanSeeOtherGuests",
  "privateCopy",
  "extendedProperties",
  "reminders",
  "source",
  "attachments",
  "organizer",
] as const satisfies readonly (keyof calendar_v3.Schema$Event)[];

/** What only events of their type carry; they go in with `events.insert` (import takes default events only). */
const TYPE_PROPERTIES = [
  "outOfOfficeProperties",
  "focusTimeProperties",
  "workingLocationProperties",
  "birthdayProperties",
] as const satisfies readonly (keyof calendar_v3.Schema$Event)[];

/** A person as a client writes them: without the `self` and `id` Google adds for the reader. */
function person<T extends { self?: boolean | null; id?: string | null }>(value: T): Omit<T, "self" | "id"> {
  const { self: _self, id: _id, ...rest } = value;
  void _self;
  void _id;
  return rest;
}

function copied(event: calendar_v3.Schema$Event): calendar_v3.Schema$Event {
  const body: Record<string, unknown> = {};
  for (const field of IMPORTED)
    if (event[field] !== undefined && event[field] !== null) body[field] = event[field];
  if (event.organizer) body.organizer = person(event.organizer);
  if (event.attendees) body.attendees = event.attendees.map(person);
  if (event.conferenceData) {
    // Copied as it is (conferenceDataVersion=1): a `createRequest` would make a new conference instead.
    const { createRequest: _create, ...conference } = event.conferenceData;
    void _create;
    body.conferenceData = conference;
  }
  return body as calendar_v3.Schema$Event;
}

/** Whether an event goes in by `events.import` (a default event) or must be inserted (its own type). */
export const importable = (event: calendar_v3.Schema$Event): boolean =>
  (event.eventType ?? "default") === "default";

/**
 * The `events.import` body of a backed-up event or exception, under `iCalUID` (the event's own, or for an
 * exception its series': Google ties an exception to its series by iCalUID and `originalStartTime`).
 */
export function importBody(event: calendar_v3.Schema$Event, iCalUID: string): calendar_v3.Schema$Event {
  return { ...copied(event), iCalUID };
}

/**
 * The `events.insert` body of an out-of-office, focus-time, working-location or birthday event: its
 * fields and its type's properties. Without its iCalUID: the original may still hold it (a duplicate),
 * so Google gives the restored event a new one.
 */
export function insertBody(event: calendar_v3.Schema$Event): calendar_v3.Schema$Event {
  const { organizer: _organizer, ...body } = copied(event);
  void _organizer;
  const typed: Record<string, unknown> = { ...body, eventType: event.eventType };
  for (const field of TYPE_PROPERTIES) if (event[field]) typed[field] = event[field];
  return typed as calendar_v3.Schema$Event;
}

/** A time moved by `ms` (a date by whole days), keeping its time zone. */
function shifted(time: calendar_v3.Schema$EventDateTime, ms: number): calendar_v3.Schema$EventDateTime {
  if (time.date) {
    const day = new Date(Date.parse(`${time.date}T00:00:00Z`) + Math.max(ms, 86_400_000));
    return { date: day.toISOString().slice(0, 10) };
  }
  return {
    dateTime: new Date(Date.parse(time.dateTime ?? "") + ms).toISOString().replace(".000Z", "Z"),
    ...(time.timeZone ? { timeZone: time.timeZone } : {}),
  };
}

const duration = (series: calendar_v3.Schema$Event | undefined): number => {
  const start = series?.start?.dateTime ?? (series?.start?.date ? `${series.start.date}T00:00:00Z` : "");
  const end = series?.end?.dateTime ?? (series?.end?.date ? `${series.end.date}T00:00:00Z` : "");
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
};

/**
 * A cancelled instance as an import: Google lists it with its identity only, but the reference makes
 * `start` and `end` required, so it is given the times of the occurrence it cancels (its original start,
 * and the series' duration when the series is known).
 */
export function cancelledInstanceBody(
  event: calendar_v3.Schema$Event,
  iCalUID: string,
  series: calendar_v3.Schema$Event | undefined,
): calendar_v3.Schema$Event {
  const original = event.originalStartTime ?? {};
  return {
    iCalUID,
    status: "cancelled",
    originalStartTime: original,
    start: original,
    end: shifted(original, duration(series)),
    ...(event.sequence !== undefined && event.sequence !== null ? { sequence: event.sequence } : {}),
  };
}

/** A calendar's settings as `calendars.insert` takes them (its name, description, place and time zone). */
export function calendarBody(content: CalendarContent): calendar_v3.Schema$Calendar {
  const { summary, description, location, timeZone } = content.calendar;
  return {
    summary: summary ?? "Restored calendar",
    ...(description ? { description } : {}),
    ...(location ? { location } : {}),
    ...(timeZone ? { timeZone } : {}),
  };
}
