/**
 * The awkward Calendar cases, for tests and, later, the generator: a daily series over three years with
 * many changed and cancelled instances, a meeting with hundreds of attendees in every response state, and
 * an event organised outside the domain (imported, so it keeps its organizer and iCalUID). The demo seed
 * does not call this: other tests count its data. `POST /emulator/v1/users/{email}/calendar:awkward` does.
 */
import type { DirectoryUser } from "../directory/store";
import type { CalendarStore } from "./store";
import { importEvent, insertEvent } from "./events-write";
import { instanceEvent } from "./event-json";
import { expand } from "./recurrence";
import type { EventTime, StoredCalendar } from "./store-model";

export interface AwkwardCalendarOptions {
  /** Days of the daily series (default 3 × 365). */
  days?: number;
  /** Attendees of the big meeting (default 300). */
  attendees?: number;
  /** The first day of the series (default 2024-01-08). */
  firstDay?: string;
}

export interface AwkwardCalendarResult {
  calendarId: string;
  seriesId: string;
  changedInstances: number;
  cancelledInstances: number;
  bigMeetingId: string;
  externalEventId: string;
  externalICalUID: string;
}

const OPTIONS = {
  kind: "insert",
  primary: true,
  supportsAttachments: true,
  conferenceDataVersion: 1,
} as const;
const RESPONSES = ["accepted", "declined", "tentative", "needsAction"];

/** Adds the awkward cases to a user's primary calendar. */
export function addAwkwardCalendar(
  store: CalendarStore,
  user: DirectoryUser,
  options: AwkwardCalendarOptions = {},
): AwkwardCalendarResult {
  store.userCalendars(user);
  const calendar = store.calendar(user.primaryEmail) as StoredCalendar;
  const days = options.days ?? 3 * 365;
  const first = options.firstDay ?? "2024-01-08";
  const zone = "Europe/Zurich";
  const series = insertEvent(
    store,
    calendar,
    user,
    {
      summary: "Daily stand-up",
      start: { dateTime: `${first}T09:00:00`, timeZone: zone },
      end: { dateTime: `${first}T09:15:00`, timeZone: zone },
      recurrence: [`RRULE:FREQ=DAILY;COUNT=${days}`],
    },
    OPTIONS,
  );
  const starts = expand(
    series.fields.start as EventTime,
    series.fields.recurrence as string[],
    zone,
    Infinity,
    days,
  );
  let changed = 0;
  let cancelled = 0;
  starts.forEach((original, index) => {
    if (index % 7 === 3) {
      const instance = instanceEvent(series, original, zone);
      store.putEvent(calendar, { ...instance, status: "cancelled" });
      cancelled += 1;
    } else if (index % 10 === 5) {
      const instance = instanceEvent(series, original, zone);
      const start = Date.parse((instance.fields.start as EventTime).dateTime ?? "") + 30 * 60_000;
      const at = (ms: number): EventTime => ({
        dateTime: new Date(ms).toISOString().replace(".000Z", "Z"),
        timeZone: zone,
      });
      store.putEvent(calendar, {
        ...instance,
        fields: {
          ...instance.fields,
          summary: `Daily stand-up (moved, #${index + 1})`,
          start: at(start),
          end: at(start + 15 * 60_000),
        },
        sequence: 1,
      });
      changed += 1;
    }
  });
  const domain = user.primaryEmail.split("@")[1] ?? "example.test";
  const attendees = Array.from({ length: options.attendees ?? 300 }, (_, index) => ({
    email: index % 5 === 4 ? `guest${index}@partner-extern.test` : `person${index}@${domain}`,
    responseStatus: RESPONSES[index % RESPONSES.length],
    ...(index % 9 === 0 ? { optional: true } : {}),
  }));
  const big = insertEvent(
    store,
    calendar,
    user,
    {
      summary: "All hands",
      start: { dateTime: "2026-03-02T15:00:00+01:00" },
      end: { dateTime: "2026-03-02T16:30:00+01:00" },
      attendees: [{ email: user.primaryEmail, responseStatus: "accepted", organizer: true }, ...attendees],
      reminders: {
        useDefault: false,
        overrides: [
          { method: "popup", minutes: 15 },
          { method: "email", minutes: 1440 },
        ],
      },
    },
    OPTIONS,
  );
  const externalICalUID = "7kq1d0c5b9ahg2mqq1mqu2b8fk@bergwerk-partner.test";
  const external = importEvent(
    store,
    calendar,
    user,
    {
      iCalUID: externalICalUID,
      summary: "Vertragsbesprechung",
      start: { dateTime: "2026-02-10T10:00:00+01:00" },
      end: { dateTime: "2026-02-10T11:00:00+01:00" },
      organizer: { email: "lena.meier@bergwerk-partner.test", displayName: "Lena Meier" },
      attendees: [
        { email: "lena.meier@bergwerk-partner.test", responseStatus: "accepted", organizer: true },
        { email: user.primaryEmail, responseStatus: "tentative" },
      ],
    },
    { ...OPTIONS, kind: "import" },
  );
  return {
    calendarId: calendar.id,
    seriesId: series.id,
    changedInstances: changed,
    cancelledInstances: cancelled,
    bigMeetingId: big.id,
    externalEventId: external.id,
    externalICalUID,
  };
}
