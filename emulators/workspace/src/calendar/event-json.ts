/**
 * Events as Calendar v3 answers them (the Events resource,
 * https://developers.google.com/workspace/calendar/api/v3/reference/events): full events, cancelled ones
 * (deleted events and cancelled instances carry only id, status and, for instances, `recurringEventId` and
 * `originalStartTime`), and a series' instances (id `<series>_<original start in UTC>` or
 * `<series>_<date>`, the series' fields moved to each original start, changed and cancelled instances
 * taken from their exceptions).
 */
import type { DirectoryUser } from "../directory/store";
import { etag } from "./common";
import { expand, instanceSuffix, startMs } from "./recurrence";
import type { EventTime, StoredCalendar, StoredEvent } from "./store-model";

export interface RenderOptions {
  viewer: DirectoryUser;
  maxAttendees?: number;
}

function withSelf(person: unknown, viewer: DirectoryUser): unknown {
  if (typeof person !== "object" || person === null) return person;
  const value = person as Record<string, unknown>;
  return value.email === viewer.primaryEmail ? { ...value, self: true } : value;
}

export function eventJson(
  calendar: StoredCalendar,
  event: StoredEvent,
  options: RenderOptions,
): Record<string, unknown> {
  const base = {
    kind: "calendar#event",
    etag: etag(event.seq),
    id: event.id,
    status: event.status,
  };
  const instance = event.recurringEventId
    ? { recurringEventId: event.recurringEventId, originalStartTime: event.originalStartTime }
    : {};
  if (event.deleted || event.status === "cancelled") return { ...base, ...instance };
  const { fields } = event;
  const out: Record<string, unknown> = {
    ...base,
    htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${event.id} ${calendar.id}`).toString("base64url")}`,
    created: event.created,
    updated: event.updated,
  };
  for (const [key, value] of Object.entries(fields)) {
    if (key === "attendees" || key === "creator" || key === "organizer") continue;
    out[key] = value;
  }
  out.creator = withSelf(fields.creator, options.viewer);
  out.organizer = withSelf(fields.organizer, options.viewer);
  Object.assign(out, instance);
  out.iCalUID = event.iCalUID;
  out.sequence = event.sequence;
  const attendees = (fields.attendees as Record<string, unknown>[] | undefined)?.map(
    (a) => withSelf(a, options.viewer) as Record<string, unknown>,
  );
  if (attendees && attendees.length > 0) {
    if (options.maxAttendees !== undefined && attendees.length > options.maxAttendees) {
      out.attendees = attendees.filter((attendee) => attendee.self === true);
      out.attendeesOmitted = true;
    } else out.attendees = attendees;
  }
  out.reminders = fields.reminders ?? { useDefault: true };
  out.eventType = fields.eventType ?? "default";
  return out;
}

function shift(time: EventTime, deltaMs: number, like: EventTime): EventTime {
  if (time.date !== undefined) {
    return { date: new Date(Date.parse(`${time.date}T00:00:00Z`) + deltaMs).toISOString().slice(0, 10) };
  }
  const ms = Date.parse(time.dateTime ?? "") + deltaMs;
  return {
    dateTime: new Date(ms).toISOString().replace(".000Z", "Z"),
    ...(like.timeZone ? { timeZone: like.timeZone } : {}),
  };
}

/** The instance of a series starting at `original` (not an exception). */
export function instanceEvent(series: StoredEvent, original: EventTime, calendarZone: string): StoredEvent {
  const start = series.fields.start as EventTime;
  const end = series.fields.end as EventTime;
  const duration = startMs(end, calendarZone) - startMs(start, calendarZone);
  const { recurrence: _recurrence, ...fields } = series.fields;
  void _recurrence;
  return {
    ...series,
    id: `${series.id}_${instanceSuffix(original)}`,
    fields: { ...fields, start: original, end: shift(original, duration, end) },
    recurringEventId: series.id,
    originalStartTime: original,
  };
}

/**
 * A series' instances from its start up to `untilMs` (at most `limit`), exceptions in place of the
 * instances they change or cancel. Cancelled ones are included (the caller filters them).
 */
export function seriesInstances(
  calendar: StoredCalendar,
  series: StoredEvent,
  untilMs: number,
  limit: number,
): StoredEvent[] {
  const exceptions = new Map<string, StoredEvent>();
  for (const event of calendar.events.values()) {
    if (event.recurringEventId === series.id && !event.deleted) exceptions.set(event.id, event);
  }
  const starts = expand(
    series.fields.start as EventTime,
    series.fields.recurrence as string[],
    calendar.timeZone,
    untilMs,
    limit,
  );
  return starts.map((original) => {
    const generated = instanceEvent(series, original, calendar.timeZone);
    return exceptions.get(generated.id) ?? generated;
  });
}

/** Whether an event (or instance) ends after `minMs` and starts before `maxMs`. */
export function overlaps(
  event: StoredEvent,
  zone: string,
  minMs: number | undefined,
  maxMs: number | undefined,
): boolean {
  const time = (event.fields.start ?? event.originalStartTime) as EventTime | undefined;
  if (!time) return true;
  const start = startMs(time, zone);
  const endTime = event.fields.end as EventTime | undefined;
  const end = endTime ? startMs(endTime, zone) : start;
  if (maxMs !== undefined && start >= maxMs) return false;
  if (minMs !== undefined && end <= minMs && !event.fields.recurrence) return false;
  return true;
}
