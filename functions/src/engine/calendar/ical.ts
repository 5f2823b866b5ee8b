/**
 * Backed-up events as iCalendar (RFC 5545): one VCALENDAR with a VEVENT per event entry, written by
 * `ical-generator` (line folding at 75 octets, text escaping per §3.3.11, VTIMEZONE components from
 * `@touch4it/ical-timezones` for every time zone the events use).
 *
 * What a VEVENT holds: UID (the iCalUID: for an exception its series'), SEQUENCE, DTSTAMP (when Google
 * last changed the event: the same backup exports the same bytes), SUMMARY, DESCRIPTION, LOCATION,
 * DTSTART/DTEND (with TZID in the event's start time zone, in UTC when it has none, VALUE=DATE for
 * all-day; the writer takes one zone per event, so an end in another zone is written as the same instant
 * in the start's),
 * the series' RRULE/EXDATE/RDATE lines as Google keeps them, RECURRENCE-ID for a changed or cancelled
 * instance, STATUS (CANCELLED for a cancelled instance), TRANSP, CLASS, ORGANIZER, ATTENDEE (CN, PARTSTAT,
 * ROLE OPT-PARTICIPANT for optional guests, CUTYPE=RESOURCE for rooms), VALARM per reminder (a popup as
 * DISPLAY, an email as EMAIL; the calendar's default reminders for an event that uses them, when given),
 * ATTACH per attachment's fileUrl, URL (the event's page at Google), X-GOOGLE-CONFERENCE (the video link
 * of its conference), CREATED and LAST-MODIFIED.
 *
 * Times are given to the writer as `TZDate`s (`@date-fns/tz`): a plain `Date` would be written in the
 * process's own zone under the event's TZID. The writer puts RECURRENCE-ID as a date-time even for an
 * all-day instance; such a line is rewritten as the VALUE=DATE the RFC asks for (it must have DTSTART's
 * value type).
 */
import { TZDate } from "@date-fns/tz";
import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import type { calendar_v3 } from "@googleapis/calendar";
import ical, {
  ICalAlarmType,
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalAttendeeType,
  ICalEventClass,
  ICalEventStatus,
  ICalEventTransparency,
  type ICalAlarmData,
  type ICalAttendeeData,
  type ICalEventData,
} from "ical-generator";
import type { ItemMetadata } from "../sources/source";

export interface ICalExportOptions {
  /** The calendar's name (X-WR-CALNAME). */
  name?: string;
  /** The calendar's time zone (X-WR-TIMEZONE). */
  timeZone?: string;
  /** The reminders of the events that use the calendar's defaults (its list entry's `defaultReminders`). */
  defaultReminders?: calendar_v3.Schema$EventReminder[];
  /** Whom an email reminder goes to (the calendar's owner); else the event's organizer. */
  ownerEmail?: string;
}

/** A backed-up entry; entries that are not events (calendars) are left out. */
export interface ICalEntry {
  metadata: ItemMetadata;
  content: Buffer;
}

export const ICAL_MEDIA_TYPE = "text/calendar; charset=utf-8";

const PARTSTAT: Readonly<Record<string, ICalAttendeeStatus>> = {
  accepted: ICalAttendeeStatus.ACCEPTED,
  declined: ICalAttendeeStatus.DECLINED,
  tentative: ICalAttendeeStatus.TENTATIVE,
  needsAction: ICalAttendeeStatus.NEEDSACTION,
};
const STATUS: Readonly<Record<string, ICalEventStatus>> = {
  confirmed: ICalEventStatus.CONFIRMED,
  tentative: ICalEventStatus.TENTATIVE,
  cancelled: ICalEventStatus.CANCELLED,
};
const CLASS: Readonly<Record<string, ICalEventClass>> = {
  public: ICalEventClass.PUBLIC,
  private: ICalEventClass.PRIVATE,
  confidential: ICalEventClass.CONFIDENTIAL,
};

/** Marks a VEVENT whose RECURRENCE-ID is a date (see the header); never left in the output. */
const DATE_RECURRENCE = "X-ALPVAULT-DATE-RECURRENCE-ID";

/** UTC is written as UTC (a trailing Z), never as a TZID without its VTIMEZONE. */
const zoneOf = (time: calendar_v3.Schema$EventDateTime | undefined): string | null =>
  time?.timeZone && !/^(Etc\/)?(UTC|GMT)$/i.test(time.timeZone) ? time.timeZone : null;

/** A date-time for the writer: in its zone when it has one, else the instant (written in UTC). */
function instant(time: calendar_v3.Schema$EventDateTime, zone: string | null): Date {
  const ms = Date.parse(time.dateTime ?? "");
  return zone ? new TZDate(ms, zone) : new Date(ms);
}

const dateValue = (date: string): string => date.replace(/-/g, "");

function attendeesOf(event: calendar_v3.Schema$Event): ICalAttendeeData[] {
  return (event.attendees ?? []).flatMap((attendee): ICalAttendeeData[] =>
    attendee.email
      ? [
          {
            email: attendee.email,
            ...(attendee.displayName ? { name: attendee.displayName } : {}),
            status: PARTSTAT[attendee.responseStatus ?? "needsAction"] ?? ICalAttendeeStatus.NEEDSACTION,
            role: attendee.optional ? ICalAttendeeRole.OPT : ICalAttendeeRole.REQ,
            ...(attendee.resource ? { type: ICalAttendeeType.RESOURCE } : {}),
          },
        ]
      : [],
  );
}

function alarmsOf(event: calendar_v3.Schema$Event, options: ICalExportOptions): ICalAlarmData[] {
  const reminders = event.reminders?.useDefault
    ? (options.defaultReminders ?? [])
    : (event.reminders?.overrides ?? []);
  const mailTo = options.ownerEmail ?? event.organizer?.email ?? undefined;
  return reminders.map((reminder): ICalAlarmData => {
    const trigger = (reminder.minutes ?? 0) * 60;
    if (reminder.method === "email" && mailTo) {
      // RFC 5545 §3.6.6: an EMAIL alarm has a SUMMARY, a DESCRIPTION and the ATTENDEE it is sent to.
      return {
        type: ICalAlarmType.email,
        trigger,
        summary: event.summary ?? "",
        description: event.summary ?? "",
        attendees: [{ email: mailTo }],
      };
    }
    return { type: ICalAlarmType.display, trigger, description: event.summary ?? "" };
  });
}

/** The times of a VEVENT: its own, or for a cancelled instance the occurrence it cancels. */
function timesOf(
  event: calendar_v3.Schema$Event,
): Pick<ICalEventData, "start"> & Partial<Pick<ICalEventData, "end" | "allDay" | "timezone">> {
  const start = event.start ?? event.originalStartTime ?? {};
  const end = event.start ? event.end : undefined;
  if (start.date) {
    return { allDay: true, start: start.date, ...(end?.date ? { end: end.date } : {}) };
  }
  const zone = zoneOf(start);
  return {
    timezone: zone,
    start: instant(start, zone),
    ...(end?.dateTime ? { end: instant(end, zone) } : {}),
  };
}

function eventData(
  event: calendar_v3.Schema$Event,
  uid: string,
  options: ICalExportOptions,
  latest: number,
): ICalEventData {
  const times = timesOf(event);
  const original = event.originalStartTime;
  const video = event.conferenceData?.entryPoints?.find((point) => point.entryPointType === "video")?.uri;
  const x: [string, string][] = [];
  if (video ?? event.hangoutLink) x.push(["X-GOOGLE-CONFERENCE", (video ?? event.hangoutLink) as string]);
  if (original?.date) x.push([DATE_RECURRENCE, dateValue(original.date)]);
  return {
    id: uid,
    sequence: event.sequence ?? 0,
    stamp: new Date(Date.parse(event.updated ?? event.created ?? "") || latest),
    ...times,
    summary: event.summary ?? "",
    ...(event.description ? { description: event.description } : {}),
    ...(event.location ? { location: event.location } : {}),
    ...(event.recurrence?.length ? { repeating: event.recurrence.join("\n") } : {}),
    ...(original?.dateTime ? { recurrenceId: instant(original, times.timezone ?? zoneOf(original)) } : {}),
    ...(original?.date ? { recurrenceId: new Date(`${original.date}T00:00:00Z`) } : {}),
    ...(event.status && STATUS[event.status] ? { status: STATUS[event.status] } : {}),
    ...(event.transparency === "transparent"
      ? { transparency: ICalEventTransparency.TRANSPARENT }
      : event.start
        ? { transparency: ICalEventTransparency.OPAQUE }
        : {}),
    ...(event.visibility && CLASS[event.visibility] ? { class: CLASS[event.visibility] } : {}),
    ...(event.organizer?.email
      ? {
          organizer: {
            email: event.organizer.email,
            name: event.organizer.displayName ?? event.organizer.email,
          },
        }
      : {}),
    attendees: attendeesOf(event),
    alarms: alarmsOf(event, options),
    attachments: (event.attachments ?? []).flatMap((attachment) =>
      attachment.fileUrl ? [attachment.fileUrl] : [],
    ),
    ...(event.htmlLink ? { url: event.htmlLink } : {}),
    ...(event.created ? { created: new Date(event.created) } : {}),
    ...(event.updated ? { lastModified: new Date(event.updated) } : {}),
    x,
  };
}

/** Rewrites the RECURRENCE-ID of the VEVENTs marked as all-day instances to VALUE=DATE, and drops the marks. */
function dateRecurrenceIds(text: string): string {
  return text.replace(/BEGIN:VEVENT\r\n[\s\S]*?END:VEVENT\r\n/g, (block) => {
    const mark = new RegExp(`^${DATE_RECURRENCE}:(\\d{8})\r\n`, "m").exec(block);
    if (!mark) return block;
    return block
      .replace(mark[0], "")
      .replace(/^RECURRENCE-ID[;:][^\r\n]*\r\n/m, `RECURRENCE-ID;VALUE=DATE:${mark[1] ?? ""}\r\n`);
  });
}

const PRODUCT = { company: "Alpvault", product: "Calendar export", language: "EN" } as const;

/** The writer's text with every content line ended by CRLF, the last one too (RFC 5545 §3.1). */
const crlfEnded = (text: string): string => (text.endsWith("\r\n") ? text : `${text}\r\n`);

/**
 * The lines that open a calendar's VCALENDAR, up to its first component: VERSION, PRODID, NAME and
 * X-WR-CALNAME, X-WR-TIMEZONE. An export written piece by piece follows it with the VEVENTs, then `icalTail`.
 */
export function icalHead(options: Pick<ICalExportOptions, "name" | "timeZone"> = {}): string {
  const calendar = ical({ prodId: PRODUCT, ...(options.name ? { name: options.name } : {}) });
  if (options.timeZone) calendar.x([["X-WR-TIMEZONE", options.timeZone]]);
  return crlfEnded(calendar.toString().replace(/END:VCALENDAR\s*$/, ""));
}

/** The VTIMEZONE of each zone the calendar's events named (§3.6.5), and the calendar's end. */
export function icalTail(zones: Iterable<string>): string {
  const components = [...new Set(zones)].sort().flatMap((zone) => {
    const component = getVtimezoneComponent(zone);
    return component ? [crlfEnded(component.replace(/\r?\n/g, "\r\n").trimEnd())] : [];
  });
  return `${components.join("")}END:VCALENDAR\r\n`;
}

/** A backed-up event entry, with the UID its VEVENT takes; undefined for a calendar or an event without one. */
function backedUpEvent(entry: ICalEntry): { event: calendar_v3.Schema$Event; uid: string } | undefined {
  if (entry.metadata.calendarEntry !== "event") return undefined;
  const event = JSON.parse(entry.content.toString("utf8")) as calendar_v3.Schema$Event;
  const uid = event.iCalUID ?? entry.metadata.iCalUID;
  // Without a UID an entry is no VEVENT (RFC 5545 §3.6.1): a cancelled instance whose series was unknown.
  return uid ? { event, uid } : undefined;
}

/** When a backed-up event last changed (0: never said). */
export const eventChangedAt = (entry: ICalEntry): number =>
  Date.parse(backedUpEvent(entry)?.event.updated ?? "") || 0;

/**
 * One event entry's VEVENT (its TZID parameters name zones that `icalTail` must describe), or undefined for
 * an entry that is no VEVENT. `stampFallback` stamps a cancelled instance, which has no time of its own.
 */
export function eventVEvent(
  entry: ICalEntry,
  options: ICalExportOptions,
  stampFallback: number,
): { text: string; zones: string[] } | undefined {
  const backedUp = backedUpEvent(entry);
  if (!backedUp) return undefined;
  // A calendar of its own without a zone generator: the VEVENT is all it writes, its TZIDs named only.
  const calendar = ical({ prodId: PRODUCT });
  calendar.createEvent(eventData(backedUp.event, backedUp.uid, options, stampFallback));
  const written = /BEGIN:VEVENT\r\n[\s\S]*END:VEVENT\r\n/.exec(crlfEnded(calendar.toString()));
  if (!written) return undefined;
  const text = dateRecurrenceIds(written[0]);
  // A folded line is unfolded first: a zone's name may be split across lines.
  const unfolded = text.replace(/\r\n /g, "");
  const zones = [...unfolded.matchAll(/;TZID=("[^"]*"|[^;:]+)/g)].map((match) =>
    (match[1] ?? "").replace(/^"|"$/g, ""),
  );
  return { text, zones: [...new Set(zones)] };
}

/** The event entries as one iCalendar file (text, CRLF line ends). */
export function eventsToICal(entries: readonly ICalEntry[], options: ICalExportOptions = {}): string {
  // A cancelled instance has no time of its own to stamp: the latest change of the export stands for it.
  const latest = Math.max(0, ...entries.map(eventChangedAt));
  const events = entries.flatMap((entry) => eventVEvent(entry, options, latest) ?? []);
  return `${icalHead(options)}${events.map((event) => event.text).join("")}${icalTail(
    events.flatMap((event) => event.zones),
  )}`;
}
