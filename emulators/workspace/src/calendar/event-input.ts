/**
 * The fields of an event a client writes (`events.insert`, `events.import`), checked the way the Events
 * resource (https://developers.google.com/workspace/calendar/api/v3/reference/events) and the event types
 * guide (https://developers.google.com/workspace/calendar/api/guides/event-types) describe them: start and
 * end both dates or both times, the end after the start, time zones for recurring timed events,
 * attendees with an email and a known response status, at most 5 reminder overrides, attachments only
 * with `supportsAttachments=true` and conference data only with `conferenceDataVersion=1` (otherwise
 * dropped, as Google ignores them), and the rules of each event type (`outOfOffice`, `focusTime` and
 * `workingLocation` only on a primary calendar, the first two timed and without guests, working
 * locations public and transparent; `import` takes only `default` events).
 */
import { invalidValue, required, timeRangeEmpty } from "./errors";
import { checkRecurrence, instantOf, isDate, parseInstant, validTimeZone } from "./recurrence";
import type { EventTime } from "./store-model";

export interface WriteOptions {
  kind: "insert" | "import";
  primary: boolean;
  supportsAttachments: boolean;
  conferenceDataVersion: number;
}

const COPIED = [
  "summary",
  "description",
  "location",
  "colorId",
  "visibility",
  "transparency",
  "guestsCanModify",
  "guestsCanInviteOthers",
  "guestsCanSeeOtherGuests",
  "anyoneCanAddSelf",
  "extendedProperties",
  "source",
  "endTimeUnspecified",
] as const;
const EVENT_TYPES = ["default", "outOfOffice", "focusTime", "workingLocation"] as const;
const TYPE_PROPERTIES = {
  outOfOffice: "outOfOfficeProperties",
  focusTime: "focusTimeProperties",
  workingLocation: "workingLocationProperties",
} as const;
const RESPONSES = new Set(["needsAction", "declined", "tentative", "accepted"]);
const EMAIL = /^[^@\s]+@[^@\s]+$/;

function object(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidValue(`Invalid value for ${name}`);
  return value as Record<string, unknown>;
}

export function eventTime(value: unknown, name: "start" | "end", recurring: boolean): EventTime {
  if (value === undefined || value === null) throw required(`Missing ${name} time.`);
  const time = object(value, name);
  const { date, dateTime, timeZone } = time;
  if (timeZone !== undefined && (typeof timeZone !== "string" || !validTimeZone(timeZone))) {
    throw invalidValue("Invalid time zone definition for " + `${name} time.`);
  }
  if (date !== undefined && date !== null) {
    if (dateTime !== undefined && dateTime !== null) throw invalidValue(`Invalid ${name} time.`);
    if (typeof date !== "string" || !isDate(date)) throw invalidValue(`Invalid ${name} time.`);
    return { date, ...(typeof timeZone === "string" ? { timeZone } : {}) };
  }
  if (typeof dateTime !== "string") throw required(`Missing ${name} time.`);
  const offset = /(Z|[+-]\d{2}:\d{2})$/i.test(dateTime);
  if (!offset && typeof timeZone !== "string")
    throw invalidValue(`Missing time zone definition for ${name} time.`);
  if (recurring && typeof timeZone !== "string")
    throw invalidValue(`Missing time zone definition for ${name} time.`);
  if (offset) {
    parseInstant(dateTime, name);
    return { dateTime, ...(typeof timeZone === "string" ? { timeZone } : {}) };
  }
  // A wall-clock time in `timeZone`: kept as the instant it stands for.
  const wall = parseInstant(`${dateTime}Z`, name);
  const parts = new Date(wall);
  const ms = instantOf(
    {
      year: parts.getUTCFullYear(),
      month: parts.getUTCMonth() + 1,
      day: parts.getUTCDate(),
      hour: parts.getUTCHours(),
      minute: parts.getUTCMinutes(),
      second: parts.getUTCSeconds(),
    },
    timeZone as string,
  );
  return { dateTime: new Date(ms).toISOString().replace(".000Z", "Z"), timeZone: timeZone as string };
}

function attendees(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw invalidValue("Invalid value for attendees");
  return value.map((raw) => {
    const attendee = object(raw, "attendees");
    if (typeof attendee.email !== "string" || !EMAIL.test(attendee.email))
      throw required("Missing attendee email.");
    const status = attendee.responseStatus ?? "needsAction";
    if (typeof status !== "string" || !RESPONSES.has(status))
      throw invalidValue(`Invalid attendee responseStatus: ${String(status)}`);
    const out: Record<string, unknown> = { email: attendee.email.toLowerCase(), responseStatus: status };
    for (const key of ["displayName", "comment", "optional", "resource", "organizer", "additionalGuests"]) {
      if (attendee[key] !== undefined) out[key] = attendee[key];
    }
    return out;
  });
}

function reminders(value: unknown): Record<string, unknown> {
  const input = object(value, "reminders");
  const overrides = input.overrides;
  if (overrides !== undefined && !Array.isArray(overrides))
    throw invalidValue("Invalid value for reminders.overrides");
  if (input.useDefault === true && Array.isArray(overrides) && overrides.length > 0) {
    throw invalidValue("Cannot specify both default reminders and overrides at the same time.");
  }
  if (Array.isArray(overrides) && overrides.length > 5) throw invalidValue("Too many reminders.");
  for (const raw of (overrides ?? []) as unknown[]) {
    const reminder = object(raw, "reminders.overrides");
    const minutes = reminder.minutes;
    if (reminder.method !== "email" && reminder.method !== "popup")
      throw invalidValue("Invalid reminder method.");
    if (typeof minutes !== "number" || !Number.isInteger(minutes) || minutes < 0 || minutes > 40_320) {
      throw invalidValue("Invalid reminder minutes.");
    }
  }
  return { useDefault: input.useDefault === true, ...(Array.isArray(overrides) ? { overrides } : {}) };
}

function attachmentsOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw invalidValue("Invalid value for attachments");
  if (value.length > 25) throw invalidValue("Too many attachments: an event can have at most 25.");
  return value.map((raw) => {
    const attachment = object(raw, "attachments");
    if (typeof attachment.fileUrl !== "string" || attachment.fileUrl === "")
      throw required("Missing attachment fileUrl.");
    const out: Record<string, unknown> = { fileUrl: attachment.fileUrl };
    for (const key of ["title", "mimeType", "iconLink", "fileId"])
      if (attachment[key] !== undefined) out[key] = attachment[key];
    return out;
  });
}

/** The type-specific rules (event types guide). */
function checkEventType(
  fields: Record<string, unknown>,
  body: Record<string, unknown>,
  options: WriteOptions,
): void {
  const type = (body.eventType ?? "default") as string;
  if (!(EVENT_TYPES as readonly string[]).includes(type)) throw invalidValue(`Invalid event type: ${type}`);
  if (options.kind === "import" && type !== "default") {
    throw invalidValue("Only events with an eventType of default may be imported.");
  }
  for (const [eventType, property] of Object.entries(TYPE_PROPERTIES)) {
    if (body[property] === undefined) continue;
    if (eventType !== type) throw invalidValue(`${property} can only be set on ${eventType} events.`);
    fields[property] = object(body[property], property);
  }
  fields.eventType = type;
  if (type === "default") return;
  if (!options.primary) throw invalidValue(`${type} events can only be created on the primary calendar.`);
  const start = fields.start as EventTime;
  if (type === "workingLocation") {
    const properties = (fields.workingLocationProperties ?? {}) as Record<string, unknown>;
    if (!["homeOffice", "officeLocation", "customLocation"].includes(properties.type as string)) {
      throw required("Missing workingLocationProperties.type.");
    }
    if (fields.visibility !== "public" || fields.transparency !== "transparent") {
      throw invalidValue("Working location events must be public and transparent.");
    }
    return;
  }
  if (start.date !== undefined) throw invalidValue(`${type} events cannot be all-day events.`);
  if (Array.isArray(fields.attendees) && fields.attendees.length > 0) {
    throw invalidValue(`${type} events cannot have attendees.`);
  }
}

/** The stored fields of a written event. */
export function eventInput(body: Record<string, unknown>, options: WriteOptions): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const recurring = body.recurrence !== undefined && body.recurrence !== null;
  if (recurring) fields.recurrence = checkRecurrence(body.recurrence);
  const start = eventTime(body.start, "start", recurring);
  const end = eventTime(body.end, "end", recurring);
  if ((start.date === undefined) !== (end.date === undefined))
    throw invalidValue("Start and end times must either both be date or both be dateTime.");
  const ms = (time: EventTime): number =>
    Date.parse(time.date ? `${time.date}T00:00:00Z` : (time.dateTime ?? ""));
  if (ms(end) < ms(start) || (start.date !== undefined && ms(end) === ms(start))) throw timeRangeEmpty();
  fields.start = start;
  fields.end = end;
  for (const key of COPIED) if (body[key] !== undefined) fields[key] = body[key];
  if (
    fields.visibility !== undefined &&
    !["default", "public", "private", "confidential"].includes(fields.visibility as string)
  ) {
    throw invalidValue(`Invalid visibility: ${String(fields.visibility)}`);
  }
  if (
    fields.transparency !== undefined &&
    !["opaque", "transparent"].includes(fields.transparency as string)
  ) {
    throw invalidValue(`Invalid transparency: ${String(fields.transparency)}`);
  }
  if (body.attendees !== undefined) fields.attendees = attendees(body.attendees);
  if (body.reminders !== undefined) fields.reminders = reminders(body.reminders);
  if (body.attachments !== undefined && options.supportsAttachments)
    fields.attachments = attachmentsOf(body.attachments);
  if (body.conferenceData !== undefined && options.conferenceDataVersion >= 1) {
    fields.conferenceData = object(body.conferenceData, "conferenceData");
  }
  checkEventType(fields, body, options);
  return fields;
}
