/**
 * Calendar v3 `events.list`, `events.get` and `events.instances`
 * (https://developers.google.com/workspace/calendar/api/v3/reference/events/list, …/get, …/instances).
 *
 * `events.list`: pages (`maxResults` ≤ 2500, default 250), `singleEvents=false` by default (a series is one
 * event with `recurrence`, its changed and cancelled instances separate events with `recurringEventId` and
 * `originalStartTime`; cancelled instances are listed even without `showDeleted`), `singleEvents=true`
 * expands series, `timeMin`/`timeMax` (RFC 3339 with offset; an empty range is 400 timeRangeEmpty),
 * `orderBy=startTime` only with `singleEvents=true`, `q`, `iCalUID`, `eventTypes`, `updatedMin`,
 * `showDeleted`, and `syncToken`: only what changed since, deletions as `status: "cancelled"`; refused
 * with iCalUID, orderBy, privateExtendedProperty, q, sharedExtendedProperty, timeMin, timeMax and
 * updatedMin, and with `showDeleted=false`, as the reference lists; an expired token is 410.
 */
import type { DirectoryUser } from "../directory/store";
import { GoogleApiError, boolParam, intParam, type RequestContext } from "../http";
import { EVENTS_READ, etag, maxResultsParam, page, type CalendarRoutes } from "./common";
import { calendarNotFound, invalidValue, notWithSyncToken, timeRangeEmpty } from "./errors";
import { eventJson, instanceEvent, overlaps, seriesInstances } from "./event-json";
import { expand, instanceSuffix, parseInstant, startMs, validTimeZone } from "./recurrence";
import type { CalendarStore } from "./store";
import type { EventTime, StoredCalendar, StoredEvent } from "./store-model";

/** How far an open-ended series is expanded, and at most how many instances. */
const EXPANSION_MS = 5 * 366 * 24 * 60 * 60 * 1000;
const EXPANSION_LIMIT = 5000;
const NOT_WITH_SYNC = [
  "iCalUID",
  "orderBy",
  "privateExtendedProperty",
  "q",
  "sharedExtendedProperty",
  "timeMin",
  "timeMax",
  "updatedMin",
];

interface Window {
  min?: number;
  max?: number;
}

function timeWindow(context: RequestContext): Window {
  const min = context.query.get("timeMin");
  const max = context.query.get("timeMax");
  const window: Window = {
    ...(min ? { min: parseInstant(min, "timeMin") } : {}),
    ...(max ? { max: parseInstant(max, "timeMax") } : {}),
  };
  if (window.min !== undefined && window.max !== undefined && window.max <= window.min)
    throw timeRangeEmpty();
  const zone = context.query.get("timeZone");
  if (zone && !validTimeZone(zone)) throw invalidValue("Invalid time zone definition.");
  return window;
}

function matchesQuery(event: StoredEvent, q: string): boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const text = JSON.stringify([
    event.fields.summary,
    event.fields.description,
    event.fields.location,
    event.fields.attendees,
    event.fields.organizer,
    event.fields.workingLocationProperties,
  ]).toLowerCase();
  return words.every((word) => text.includes(word));
}

function sortKey(event: StoredEvent, zone: string, orderBy: string | null): string {
  if (orderBy === "startTime") {
    const time = (event.fields.start ?? event.originalStartTime) as EventTime | undefined;
    return `${String(time ? startMs(time, zone) : 0).padStart(16, "0")}|${event.id}`;
  }
  if (orderBy === "updated") return `${event.updated}|${event.id}`;
  return event.id;
}

function selectEvents(
  calendar: StoredCalendar,
  context: RequestContext,
  since: number | undefined,
): StoredEvent[] {
  const { query } = context;
  const single = boolParam(query, "singleEvents");
  const showDeleted = since !== undefined || boolParam(query, "showDeleted");
  const window = since === undefined ? timeWindow(context) : {};
  const q = query.get("q");
  const iCalUID = query.get("iCalUID");
  const updatedMin = query.get("updatedMin");
  const updatedMinMs = updatedMin ? parseInstant(updatedMin, "updatedMin") : undefined;
  const types = query.getAll("eventTypes").flatMap((value) => value.split(","));
  const out: StoredEvent[] = [];
  const consider = (event: StoredEvent): void => {
    const cancelled = event.deleted || event.status === "cancelled";
    // Deleted since updatedMin are included whatever showDeleted says (the reference).
    if (
      cancelled &&
      !showDeleted &&
      updatedMinMs === undefined &&
      !(event.recurringEventId && !single && !event.deleted)
    )
      return;
    if (since !== undefined && event.seq <= since) return;
    if (updatedMinMs !== undefined && Date.parse(event.updated) < updatedMinMs) return;
    if (!cancelled && !overlaps(event, calendar.timeZone, window.min, window.max)) return;
    if (!cancelled && q && !matchesQuery(event, q)) return;
    if (iCalUID && event.iCalUID !== iCalUID) return;
    if (!cancelled && types.length > 0 && !types.includes((event.fields.eventType as string) ?? "default"))
      return;
    out.push(event);
  };
  for (const event of calendar.events.values()) {
    const recurring = Array.isArray(event.fields.recurrence);
    // With singleEvents, exceptions come from their series' expansion (below), not on their own.
    if (single && event.recurringEventId && calendar.events.has(event.recurringEventId)) continue;
    if (!single || !recurring) {
      consider(event);
      continue;
    }
    // A series is its instances; those of a deleted series come as cancelled, the series itself not at all.
    const until = window.max ?? startMs(event.fields.start as EventTime, calendar.timeZone) + EXPANSION_MS;
    for (const instance of seriesInstances(calendar, { ...event, deleted: false }, until, EXPANSION_LIMIT)) {
      if (event.deleted) consider({ ...instance, status: "cancelled", deleted: true, seq: event.seq });
      else if (since !== undefined && event.seq > since)
        consider({ ...instance, seq: Math.max(instance.seq, event.seq) });
      else consider(instance);
    }
  }
  return out;
}

function eventsEnvelope(calendar: StoredCalendar, role: string, seq: number): Record<string, unknown> {
  return {
    kind: "calendar#events",
    etag: etag(seq),
    summary: calendar.summary,
    ...(calendar.description !== undefined ? { description: calendar.description } : {}),
    updated: new Date(
      [...calendar.events.values()].reduce(
        (latest, event) => Math.max(latest, Date.parse(event.updated)),
        Date.parse(calendar.created),
      ),
    ).toISOString(),
    timeZone: calendar.timeZone,
    accessRole: role,
    defaultReminders: calendar.primary ? [{ method: "popup", minutes: 10 }] : [],
  };
}

function maxAttendeesParam(context: RequestContext): number | undefined {
  if (!context.query.get("maxAttendees")) return undefined;
  return intParam(context.query, "maxAttendees", { default: 0, min: 1 });
}

/** An event by id: a stored one (a deleted one answers as cancelled) or a generated instance of a series. */
export function findEvent(calendar: StoredCalendar, eventId: string): StoredEvent | undefined {
  const stored = calendar.events.get(eventId);
  if (stored) return stored;
  const cut = eventId.lastIndexOf("_");
  const series = cut > 0 ? calendar.events.get(eventId.slice(0, cut)) : undefined;
  if (!series || series.deleted || !Array.isArray(series.fields.recurrence)) return undefined;
  const suffix = eventId.slice(cut + 1);
  const start = series.fields.start as EventTime;
  const untilMs =
    (/^\d{8}$/.test(suffix)
      ? Date.parse(`${suffix.slice(0, 4)}-${suffix.slice(4, 6)}-${suffix.slice(6)}T00:00:00Z`)
      : Date.parse(suffix.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"))) +
    1;
  if (!Number.isFinite(untilMs)) return undefined;
  const original = expand(
    start,
    series.fields.recurrence as string[],
    calendar.timeZone,
    untilMs + 86_400_000,
    EXPANSION_LIMIT * 10,
  ).find((time) => instanceSuffix(time) === suffix);
  return original ? instanceEvent(series, original, calendar.timeZone) : undefined;
}

export function registerEventReadRoutes({ store, route, access }: CalendarRoutes): void {
  route("GET", "/calendars/:calendarId/events", "calendar.events.list", EVENTS_READ, (context, user) =>
    listEvents(store, context, user, access(context, user, "reader")),
  );

  route(
    "GET",
    "/calendars/:calendarId/events/:eventId",
    "calendar.events.get",
    EVENTS_READ,
    (context, user) => {
      const { calendar } = access(context, user, "reader");
      timeWindow(context);
      const event = findEvent(calendar, context.params.eventId ?? "");
      if (!event) throw calendarNotFound();
      return eventJson(calendar, event, { viewer: user, maxAttendees: maxAttendeesParam(context) });
    },
  );

  route(
    "GET",
    "/calendars/:calendarId/events/:eventId/instances",
    "calendar.events.instances",
    EVENTS_READ,
    (context, user) => {
      const { calendar, role } = access(context, user, "reader");
      const series = calendar.events.get(context.params.eventId ?? "");
      if (!series || series.deleted) throw calendarNotFound();
      if (!Array.isArray(series.fields.recurrence)) {
        throw new GoogleApiError(400, "The requested event is not a recurring event.", "invalid");
      }
      const window = timeWindow(context);
      const showDeleted = boolParam(context.query, "showDeleted");
      const originalStart = context.query.get("originalStart");
      const originalMs = originalStart ? parseInstant(originalStart, "originalStart") : undefined;
      const until = window.max ?? startMs(series.fields.start as EventTime, calendar.timeZone) + EXPANSION_MS;
      const startSeq = store.currentSeq();
      const items = seriesInstances(calendar, series, until, EXPANSION_LIMIT)
        .filter((event) => showDeleted || event.status !== "cancelled")
        .filter((event) => overlaps(event, calendar.timeZone, window.min, window.max))
        .filter(
          (event) =>
            originalMs === undefined ||
            startMs(event.originalStartTime as EventTime, calendar.timeZone) === originalMs,
        )
        .map((event) => ({
          key: sortKey(event, calendar.timeZone, "startTime"),
          item: eventJson(calendar, event, { viewer: user, maxAttendees: maxAttendeesParam(context) }),
        }));
      const maxResults = maxResultsParam(context, 250, 2500);
      const result = page(context, items, maxResults, startSeq, () => "");
      const { nextSyncToken: _none, ...rest } = result;
      void _none;
      return { ...eventsEnvelope(calendar, role, startSeq), ...rest };
    },
  );
}

function listEvents(
  store: CalendarStore,
  context: RequestContext,
  user: DirectoryUser,
  { calendar, role }: { calendar: StoredCalendar; role: string },
): unknown {
  const { query } = context;
  const syncToken = query.get("syncToken");
  const maxResults = maxResultsParam(context, 250, 2500);
  const orderBy = query.get("orderBy");
  let since: number | undefined;
  if (syncToken) {
    for (const name of NOT_WITH_SYNC) if (query.has(name)) throw notWithSyncToken(name);
    if (query.get("showDeleted") === "false") throw notWithSyncToken("showDeleted");
    since = store.acceptToken("events", calendar.id, syncToken, calendar.eventsSyncFloor);
  }
  if (orderBy !== null && orderBy !== "startTime" && orderBy !== "updated")
    throw invalidValue(`Invalid value for orderBy: ${orderBy}`);
  if (orderBy === "startTime" && !boolParam(query, "singleEvents")) {
    throw new GoogleApiError(
      400,
      "The requested ordering is not available for the particular query.",
      "badRequest",
    );
  }
  boolParam(query, "showHiddenInvitations");
  const maxAttendees = maxAttendeesParam(context);
  const startSeq = store.currentSeq();
  const items = selectEvents(calendar, context, since).map((event) => ({
    key: sortKey(event, calendar.timeZone, orderBy),
    item: eventJson(calendar, event, {
      viewer: user,
      ...(maxAttendees !== undefined ? { maxAttendees } : {}),
    }),
  }));
  const result = page(context, items, maxResults, startSeq, (seq) =>
    store.issueToken("events", calendar.id, seq),
  );
  return { ...eventsEnvelope(calendar, role, startSeq), ...result };
}
