/**
 * Calendar v3 `events.insert`, `events.import` and `events.delete`
 * (https://developers.google.com/workspace/calendar/api/v3/reference/events/insert, …/import, …/delete).
 *
 * `insert` makes the calendar the organizer and the caller the creator; an `id` must be base32hex
 * (a–v, 0–9) of 5–1024 characters and unused (409 duplicate, deleted ids too). `import` adds a private
 * copy: it requires `iCalUID`, `start` and `end` (the reference's "Required Properties", for every
 * imported event: a cancelled instance too, 400 `required` without them), keeps the organizer it is
 * given, sends no invitations, takes only `default` events, updates the event already holding that
 * iCalUID, and with `originalStartTime` becomes the changed (or, `status: "cancelled"`, cancelled)
 * instance of the series with that iCalUID. `delete`
 * deletes an event or series (its exceptions with it), cancels a single instance of a series, and answers
 * 410 deleted for an event already deleted.
 */
import { randomBytes } from "node:crypto";
import type { DirectoryUser } from "../directory/store";
import { boolParam, intParam, invalidArgument, type RequestContext } from "../http";
import { EVENTS_WRITE, type CalendarRoutes } from "./common";
import { alreadyDeleted, calendarNotFound, duplicateId, invalidValue, required } from "./errors";
import { eventInput, eventTime, type WriteOptions } from "./event-input";
import { eventJson, instanceEvent } from "./event-json";
import { findEvent } from "./events-read";
import { instanceSuffix } from "./recurrence";
import type { CalendarStore } from "./store";
import type { EventTime, StoredCalendar, StoredEvent } from "./store-model";

const EVENT_ID = /^[a-v0-9]{5,1024}$/;

export function newEventId(): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuv";
  return [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join("");
}

function writeOptions(
  context: RequestContext,
  calendar: StoredCalendar,
  kind: "insert" | "import",
): WriteOptions {
  const version = intParam(context.query, "conferenceDataVersion", { default: 0, min: 0 });
  if (version > 1)
    throw invalidArgument(`Invalid value '${String(version)}'. Values must be within the range: [0, 1]`);
  return {
    kind,
    primary: calendar.primary,
    supportsAttachments: boolParam(context.query, "supportsAttachments"),
    conferenceDataVersion: version,
  };
}

function sendUpdatesParam(context: RequestContext): void {
  const value = context.query.get("sendUpdates");
  if (value !== null && !["all", "externalOnly", "none"].includes(value))
    throw invalidValue(`Invalid value for sendUpdates: ${value}`);
  boolParam(context.query, "sendNotifications");
}

function person(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { email, displayName } = value as Record<string, unknown>;
  if (typeof email !== "string") return undefined;
  return { email: email.toLowerCase(), ...(typeof displayName === "string" ? { displayName } : {}) };
}

function calendarOrganizer(calendar: StoredCalendar, user: DirectoryUser): Record<string, unknown> {
  if (calendar.primary && calendar.id === user.primaryEmail) {
    return { email: user.primaryEmail, displayName: `${user.givenName} ${user.familyName}`.trim() };
  }
  return { email: calendar.id, displayName: calendar.summary };
}

function statusOf(body: Record<string, unknown>, allowCancelled: boolean): StoredEvent["status"] {
  const status = body.status ?? "confirmed";
  if (status === "confirmed" || status === "tentative" || (allowCancelled && status === "cancelled"))
    return status;
  throw invalidValue(`Invalid value for status: ${String(status)}`);
}

export function insertEvent(
  store: CalendarStore,
  calendar: StoredCalendar,
  user: DirectoryUser,
  body: Record<string, unknown>,
  options: WriteOptions,
): StoredEvent {
  const id = body.id === undefined ? newEventId() : body.id;
  if (typeof id !== "string" || !EVENT_ID.test(id)) throw invalidValue("Invalid resource id value.");
  if (calendar.events.has(id)) throw duplicateId();
  const fields = eventInput(body, options);
  const now = new Date(store.now()).toISOString();
  fields.creator = { email: user.primaryEmail };
  fields.organizer = calendarOrganizer(calendar, user);
  return store.putEvent(calendar, {
    id,
    iCalUID: `${id}@google.com`,
    fields,
    status: statusOf(body, false),
    created: now,
    updated: now,
    sequence: 0,
    deleted: false,
  });
}

export function importEvent(
  store: CalendarStore,
  calendar: StoredCalendar,
  user: DirectoryUser,
  body: Record<string, unknown>,
  options: WriteOptions,
): StoredEvent {
  const iCalUID = body.iCalUID;
  if (typeof iCalUID !== "string" || iCalUID === "") throw required("Missing iCalUID.");
  const now = new Date(store.now()).toISOString();
  const sequence = typeof body.sequence === "number" && Number.isInteger(body.sequence) ? body.sequence : 0;
  const live = [...calendar.events.values()].filter((event) => event.iCalUID === iCalUID && !event.deleted);
  if (body.originalStartTime !== undefined) {
    const series = live.find((event) => Array.isArray(event.fields.recurrence));
    if (!series)
      throw invalidValue("The recurring event of this instance was not found (import the series first).");
    const original = eventTime(body.originalStartTime, "start", false);
    const id = `${series.id}_${instanceSuffix(original)}`;
    const status = statusOf(body, true);
    // Every import carries `start` and `end` (the reference's required properties), a cancelled
    // instance too: they are checked as any event's, though it keeps only the occurrence it cancels.
    const checked = eventInput({ ...body, recurrence: undefined }, options);
    const fields =
      status === "cancelled" ? instanceEvent(series, original, calendar.timeZone).fields : checked;
    fields.creator = person(body.creator) ?? { email: user.primaryEmail };
    fields.organizer = person(body.organizer) ?? series.fields.organizer;
    const existing = calendar.events.get(id);
    return store.putEvent(calendar, {
      id,
      iCalUID,
      fields,
      status,
      sequence,
      created: existing?.created ?? now,
      updated: now,
      recurringEventId: series.id,
      originalStartTime: original,
      deleted: false,
    });
  }
  const fields = eventInput(body, options);
  fields.creator = person(body.creator) ?? { email: user.primaryEmail };
  fields.organizer = person(body.organizer) ?? calendarOrganizer(calendar, user);
  const existing = live.find((event) => !event.recurringEventId);
  let id = existing?.id;
  if (!id) {
    id = body.id === undefined ? newEventId() : (body.id as string);
    if (typeof id !== "string" || !EVENT_ID.test(id)) throw invalidValue("Invalid resource id value.");
    if (calendar.events.has(id)) throw duplicateId();
  }
  return store.putEvent(calendar, {
    id,
    iCalUID,
    fields,
    status: statusOf(body, false),
    sequence,
    created: existing?.created ?? now,
    updated: now,
    deleted: false,
  });
}

function deleteEvent(store: CalendarStore, calendar: StoredCalendar, eventId: string): void {
  const stored = calendar.events.get(eventId);
  if (stored?.deleted || (stored && stored.recurringEventId && stored.status === "cancelled"))
    throw alreadyDeleted();
  if (stored && !stored.recurringEventId) {
    store.deleteEvent(calendar, stored);
    return;
  }
  const instance = stored ?? findEvent(calendar, eventId);
  if (!instance?.recurringEventId) throw calendarNotFound();
  // A single instance of a series: it becomes a cancelled exception.
  store.putEvent(calendar, {
    ...instance,
    status: "cancelled",
    updated: new Date(store.now()).toISOString(),
    originalStartTime: instance.originalStartTime as EventTime,
  });
}

export function registerEventWriteRoutes({ store, route, access }: CalendarRoutes): void {
  route(
    "POST",
    "/calendars/:calendarId/events",
    "calendar.events.insert",
    EVENTS_WRITE,
    async (context, user) => {
      const { calendar } = access(context, user, "writer");
      sendUpdatesParam(context);
      const event = insertEvent(
        store,
        calendar,
        user,
        await context.json(),
        writeOptions(context, calendar, "insert"),
      );
      return eventJson(calendar, event, { viewer: user });
    },
  );
  route(
    "POST",
    "/calendars/:calendarId/events/import",
    "calendar.events.import",
    EVENTS_WRITE,
    async (context, user) => {
      const { calendar } = access(context, user, "writer");
      const event = importEvent(
        store,
        calendar,
        user,
        await context.json(),
        writeOptions(context, calendar, "import"),
      );
      return eventJson(calendar, event, { viewer: user });
    },
  );
  route(
    "DELETE",
    "/calendars/:calendarId/events/:eventId",
    "calendar.events.delete",
    EVENTS_WRITE,
    (context, user) => {
      const { calendar } = access(context, user, "writer");
      sendUpdatesParam(context);
      deleteEvent(store, calendar, context.params.eventId ?? "");
      return undefined;
    },
  );
}
