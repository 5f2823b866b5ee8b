/**
 * The iCalendar export (`eventsToICal`) of events backed up from the Workspace emulator through
 * `CalendarSource`, read back by an independent parser (`ical.js`, Mozilla's, not the writer): every
 * VEVENT's fields equal to the event Google returned, and the file's lines folded at 75 octets.
 */
import type { calendar_v3 } from "@googleapis/calendar";
import ICAL from "ical.js";
import type { Harness } from "../../emulators/workspace/src/index";
import { calendarItemKey } from "../../functions/src/engine/calendar/entries";
import { eventsToICal } from "../../functions/src/engine/calendar/ical";
import {
  Calendars,
  addEventKinds,
  backUp,
  startCalendarEmulator,
  type BackedUpEntry,
  type EventKinds,
} from "../support/calendars";

jest.setTimeout(60_000);

let harness: Harness;
let calendars: Calendars;
let user: string;
let kinds: EventKinds;
let entries: BackedUpEntry[];
let text: string;
let vevents: ICAL.Component[];
let defaultReminders: calendar_v3.Schema$EventReminder[];

beforeAll(async () => {
  harness = await startCalendarEmulator();
  calendars = new Calendars(harness);
  user = await calendars.newUser("export");
  kinds = await addEventKinds(calendars, user, user);
  // What only some events have: a long text to fold (several bytes a character), text to escape, an
  // all-day series with a changed all-day instance, a timed event in UTC, an event that uses the defaults.
  const holidays = await calendars.addEvent(user, user, {
    summary: "Ferienwoche",
    start: { date: "2027-07-05" },
    end: { date: "2027-07-06" },
    recurrence: ["RRULE:FREQ=DAILY;COUNT=5"],
  });
  await calendars.addEvent(user, user, {
    iCalUID: holidays.iCalUID,
    originalStartTime: { date: "2027-07-07" },
    summary: "Ferienwoche (Ausflug)",
    start: { date: "2027-07-07" },
    end: { date: "2027-07-08" },
  });
  await calendars.addEvent(user, user, {
    summary: `Grüezi, Zürich; «Sitzung» 🏔️ ${"äöü ".repeat(40)}`,
    description: "Line one\nLine two, with commas; semicolons and a backslash \\ too",
    location: "Café, Rämistrasse 1; 8001 Zürich",
    start: { dateTime: "2027-03-01T12:00:00Z" },
    end: { dateTime: "2027-03-01T13:00:00Z" },
    reminders: { useDefault: true },
    visibility: "private",
  });
  ({ entries } = await backUp(calendars, user));
  const calendarEntry = entries.find((entry) => entry.itemKey === calendarItemKey(user)) as BackedUpEntry;
  defaultReminders =
    (JSON.parse(calendarEntry.content.toString()) as { listEntry: calendar_v3.Schema$CalendarListEntry })
      .listEntry.defaultReminders ?? [];
  text = eventsToICal(entries, {
    name: "Export",
    timeZone: "Europe/Zurich",
    defaultReminders,
    ownerEmail: user,
  });
  const root = new ICAL.Component(ICAL.parse(text));
  for (const zone of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  vevents = root.getAllSubcomponents("vevent");
});

afterAll(async () => {
  await harness.stop();
});

const eventsOf = (): { event: calendar_v3.Schema$Event; metadata: BackedUpEntry["metadata"] }[] =>
  entries
    .filter((entry) => entry.metadata.calendarEntry === "event")
    .map((entry) => ({
      event: JSON.parse(entry.content.toString()) as calendar_v3.Schema$Event,
      metadata: entry.metadata,
    }));

/** An instant of a parsed DTSTART, DTEND, RECURRENCE-ID, CREATED… (seconds), or a date as YYYY-MM-DD. */
function valueOf(
  component: ICAL.Component,
  name: string,
): { date: string } | { unix: number; tzid: string | undefined } | undefined {
  const property = component.getFirstProperty(name);
  if (!property) return undefined;
  const time = property.getFirstValue() as ICAL.Time;
  if (time.isDate) return { date: time.toString() };
  const tzid = property.getParameter("tzid");
  return { unix: time.toUnixTime(), tzid: typeof tzid === "string" ? tzid : undefined };
}

function expectedTime(time: calendar_v3.Schema$EventDateTime | undefined) {
  if (!time) return undefined;
  if (time.date) return { date: time.date };
  const zone = time.timeZone && time.timeZone !== "UTC" ? time.timeZone : undefined;
  return { unix: Date.parse(time.dateTime ?? "") / 1000, tzid: zone };
}

/** The VEVENT of an event: by UID, and RECURRENCE-ID for an instance. */
function veventOf(event: calendar_v3.Schema$Event, uid: string): ICAL.Component {
  const matching = vevents.filter((vevent) => vevent.getFirstPropertyValue("uid") === uid);
  const found = matching.find((vevent) => {
    const recurrence = valueOf(vevent, "recurrence-id");
    return event.originalStartTime
      ? JSON.stringify(recurrence) === JSON.stringify(recurrenceOf(event))
      : !recurrence;
  });
  if (!found) throw new Error(`No VEVENT for ${event.id ?? ""}`);
  return found;
}

const recurrenceOf = (event: calendar_v3.Schema$Event) => {
  const original = event.originalStartTime;
  if (!original) return undefined;
  if (original.date) return { date: original.date };
  // Written in the instance's own zone (its start's), the instant Google named.
  return {
    unix: Date.parse(original.dateTime ?? "") / 1000,
    tzid: (event.start ?? original).timeZone ?? undefined,
  };
};

/** An RFC 3339 time in whole seconds (iCalendar keeps no fractions). */
const seconds = (time: string): number => Math.floor(Date.parse(time) / 1000);

const text_ = (component: ICAL.Component, name: string): string | undefined => {
  const value = component.getFirstPropertyValue(name);
  return typeof value === "string" ? value : undefined;
};

test("when a user's events are exported, then every event is one VEVENT whose fields the independent parser reads back equal to Google's", () => {
  const events = eventsOf();
  expect(vevents).toHaveLength(events.length);
  for (const { event, metadata } of events) {
    const uid = event.iCalUID ?? metadata.iCalUID ?? "";
    const vevent = veventOf(event, uid);
    const cancelledInstance = event.status === "cancelled";
    expect(text_(vevent, "summary") ?? "").toBe(event.summary ?? "");
    expect(text_(vevent, "description")).toBe(event.description ?? undefined);
    expect(text_(vevent, "location")).toBe(event.location ?? undefined);
    expect(valueOf(vevent, "dtstart")).toEqual(expectedTime(event.start ?? event.originalStartTime));
    expect(valueOf(vevent, "dtend")).toEqual(cancelledInstance ? undefined : expectedTime(event.end));
    expect(valueOf(vevent, "recurrence-id")).toEqual(recurrenceOf(event));
    expect(text_(vevent, "status")).toBe((event.status ?? "confirmed").toUpperCase());
    expect(vevent.getFirstPropertyValue("sequence")).toBe(event.sequence ?? 0);
    expect((valueOf(vevent, "dtstamp") as { unix: number }).unix).toBeGreaterThan(
      Date.parse("2026-01-01") / 1000,
    );
    // Google's recurrence lines, as the parser writes them again.
    const lines = ["rrule", "exdate", "rdate"].flatMap((name) =>
      vevent.getAllProperties(name).map((property) => property.toICALString()),
    );
    expect(lines).toEqual(event.recurrence ?? []);
    const organizer = vevent.getFirstProperty("organizer");
    if (event.organizer?.email) {
      expect(String(organizer?.getFirstValue()).toLowerCase()).toBe(`mailto:${event.organizer.email}`);
      expect(organizer?.getParameter("cn")).toBe(event.organizer.displayName ?? event.organizer.email);
    } else expect(organizer).toBeNull();
    expect(
      vevent.getAllProperties("attendee").map((property) => ({
        email: String(property.getFirstValue()).replace(/^mailto:/i, ""),
        partstat: property.getParameter("partstat"),
        cn: property.getParameter("cn"),
        role: property.getParameter("role"),
      })),
    ).toEqual(
      (event.attendees ?? []).map((attendee) => ({
        email: attendee.email,
        partstat: {
          accepted: "ACCEPTED",
          declined: "DECLINED",
          tentative: "TENTATIVE",
          needsAction: "NEEDS-ACTION",
        }[attendee.responseStatus ?? "needsAction"],
        cn: attendee.displayName ?? undefined,
        role: attendee.optional ? "OPT-PARTICIPANT" : "REQ-PARTICIPANT",
      })),
    );
    const reminders = event.reminders?.useDefault ? defaultReminders : (event.reminders?.overrides ?? []);
    expect(
      vevent.getAllSubcomponents("valarm").map((alarm) => ({
        action: alarm.getFirstPropertyValue("action"),
        minutesBefore: -(alarm.getFirstPropertyValue("trigger") as ICAL.Duration).toSeconds() / 60,
        // The scheme is case-insensitive (RFC 3986 §3.1).
        to: (alarm.getFirstPropertyValue("attendee") as string | null)?.toLowerCase() ?? undefined,
      })),
    ).toEqual(
      reminders.map((reminder) => ({
        action: reminder.method === "email" ? "EMAIL" : "DISPLAY",
        minutesBefore: reminder.minutes,
        to: reminder.method === "email" ? `mailto:${user}` : undefined,
      })),
    );
    expect(vevent.getAllProperties("attach").map((property) => property.getFirstValue())).toEqual(
      (event.attachments ?? []).map((attachment) => attachment.fileUrl),
    );
    expect(text_(vevent, "x-google-conference")).toBe(
      event.conferenceData?.entryPoints?.find((point) => point.entryPointType === "video")?.uri ?? undefined,
    );
    expect(text_(vevent, "url")).toBe(event.htmlLink ?? undefined);
    expect(valueOf(vevent, "created")).toEqual(
      event.created ? { unix: seconds(event.created), tzid: undefined } : undefined,
    );
    expect(valueOf(vevent, "last-modified")).toEqual(
      event.updated ? { unix: seconds(event.updated), tzid: undefined } : undefined,
    );
    if (!cancelledInstance)
      expect(text_(vevent, "transp")).toBe(event.transparency === "transparent" ? "TRANSPARENT" : "OPAQUE");
    expect(text_(vevent, "class")).toBe(event.visibility ? event.visibility.toUpperCase() : undefined);
  }
});

test("when the export is read, then it is one VCALENDAR of version 2.0 with its name, a VTIMEZONE for each zone, and no line longer than 75 octets", () => {
  const root = new ICAL.Component(ICAL.parse(text));
  expect(root.name).toBe("vcalendar");
  expect(root.getFirstPropertyValue("version")).toBe("2.0");
  expect(root.getFirstPropertyValue("x-wr-calname")).toBe("Export");
  expect(root.getAllSubcomponents("vtimezone").map((zone) => zone.getFirstPropertyValue("tzid"))).toEqual([
    "Europe/Zurich",
  ]);
  const lines = text.split("\r\n");
  expect(lines[lines.length - 1]).toBe("");
  expect(Math.max(...lines.map((line) => Buffer.byteLength(line)))).toBeLessThanOrEqual(75);
  expect(text).not.toMatch(/X-ALPVAULT/);
  // The long summary really was folded (and unfolded whole by the parser above).
  expect(lines.some((line) => line.startsWith(" "))).toBe(true);
  // An all-day instance's RECURRENCE-ID has DTSTART's value type.
  expect(text).toContain("RECURRENCE-ID;VALUE=DATE:20270707\r\n");
  // The cancelled instance is its series' UID with STATUS:CANCELLED at the occurrence it cancels.
  const cancelled = vevents.find(
    (vevent) =>
      vevent.getFirstPropertyValue("uid") === kinds.seriesICalUID &&
      vevent.getFirstPropertyValue("status") === "CANCELLED",
  );
  expect(cancelled && valueOf(cancelled, "recurrence-id")).toEqual({
    unix: Date.parse("2027-01-18T08:00:00Z") / 1000,
    tzid: "Europe/Zurich",
  });
});

test("when the export is made twice from the same backup, then it is the same bytes", () => {
  expect(
    eventsToICal(entries, { name: "Export", timeZone: "Europe/Zurich", defaultReminders, ownerEmail: user }),
  ).toBe(text);
});
