/**
 * What the Calendar engine tests share: an in-process Workspace emulator whose app has the Calendar scopes,
 * users with calendars, every kind of event Google keeps (added through the emulator's admin API and the
 * official client), the production `CalendarSource` reading them, and a backup of a user's entries (what a
 * restore or an export gets).
 */
import { calendar_v3 } from "@googleapis/calendar";
import {
  type Clock,
  type Harness,
  DEFAULT_GRANTED_SCOPES,
  SCOPES,
  TEST_DOMAIN,
  startHarness,
} from "../../emulators/workspace/src/index";
import { DIRECT_CALLER, type GoogleCaller } from "../../functions/src/engine/google/caller";
import { CalendarSource } from "../../functions/src/engine/calendar/source";
import type { ItemMetadata } from "../../functions/src/engine/sources/source";
import { bytesOf, collect } from "./engine-harness";

export const CALENDAR_GRANTS = [SCOPES.calendar, SCOPES.calendarReadonly, SCOPES.calendarEvents];

/** An emulator (no quotas, no latency: these tests check answers, not timing) with the Calendar scopes granted. */
export async function startCalendarEmulator(clock?: Clock): Promise<Harness> {
  const harness = await startHarness({
    quota: { enabled: false },
    latency: { enabled: false },
    ...(clock ? { clock } : {}),
  });
  const installed = await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:install`, {
    scopes: [...DEFAULT_GRANTED_SCOPES, ...CALENDAR_GRANTS],
  });
  if (installed.status !== 200) throw new Error(`install failed: ${String(installed.status)}`);
  return harness;
}

export class Calendars {
  private users = 0;

  constructor(readonly harness: Harness) {}

  /** A new user `<prefix><n>@example-test.test` (their primary calendar is made on first use). */
  async newUser(prefix: string): Promise<string> {
    this.users += 1;
    const email = `${prefix}${this.users}@${TEST_DOMAIN}`;
    const created = await this.harness.admin("POST", "/users", {
      email,
      givenName: "Cal",
      familyName: `User${this.users}`,
    });
    expect(created.status).toBe(200);
    return email;
  }

  /**
   * The user's client, as the engine builds it (retries belong to the caller alone); `requests` collects
   * the method and URL of every request it sends.
   */
  client(user: string, requests?: string[]): calendar_v3.Calendar {
    const auth = this.harness.jwt(user, [SCOPES.calendar]);
    auth.transporter.interceptors.request.add({
      resolved: (config) => {
        requests?.push(`${config.method ?? "GET"} ${String(config.url)}`);
        return Promise.resolve(config);
      },
    });
    return new calendar_v3.Calendar({ auth, rootUrl: `${this.harness.url}/`, retry: false });
  }

  source(user: string, options: { caller?: GoogleCaller; pageSize?: number } = {}): CalendarSource {
    return new CalendarSource({
      calendar: this.client(user),
      user,
      caller: options.caller ?? DIRECT_CALLER,
      ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    });
  }

  /** A secondary calendar the user owns. */
  async addCalendar(user: string, summary: string, extra: Record<string, unknown> = {}): Promise<string> {
    const { status, body } = await this.harness.admin<{ id: string }>(
      "POST",
      `/users/${user}/calendar/calendars`,
      { summary, ...extra },
    );
    expect(status).toBe(200);
    return body.id;
  }

  /** An event added as Google would keep it (with `iCalUID`: imported, keeping it and its organizer). */
  async addEvent(
    user: string,
    calendarId: string,
    event: Record<string, unknown>,
  ): Promise<calendar_v3.Schema$Event> {
    const { status, body } = await this.harness.admin<calendar_v3.Schema$Event>(
      "POST",
      `/users/${user}/calendar/calendars/${encodeURIComponent(calendarId)}/events`,
      event,
    );
    expect(status).toBe(200);
    return body;
  }

  /** Every entry of a calendar as `events.list` (singleEvents=false) answers it, by id. */
  async listed(user: string, calendarId: string): Promise<Map<string, calendar_v3.Schema$Event>> {
    const out = new Map<string, calendar_v3.Schema$Event>();
    let pageToken: string | undefined;
    do {
      const { data } = await this.client(user).events.list({ calendarId, maxResults: 2500, pageToken });
      for (const event of data.items ?? []) if (event.id) out.set(event.id, event);
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    return out;
  }
}

/** The ids of the events `addEventKinds` adds. */
export interface EventKinds {
  single: string;
  allDay: string;
  series: string;
  seriesICalUID: string;
  changedInstance: string;
  cancelledInstance: string;
  meeting: string;
  external: string;
  externalICalUID: string;
  outOfOffice: string;
  focusTime: string;
  workingLocation: string;
}

const ZONE = "Europe/Zurich";

/**
 * One of each kind of event in a calendar: single, all-day, a weekly series with a changed and a cancelled
 * instance, a meeting with attendees who answered, reminders, an attachment and a Meet link, an event
 * organised outside the domain, and (primary calendar only) out of office, focus time and a working
 * location.
 */
export async function addEventKinds(
  calendars: Calendars,
  user: string,
  calendarId: string,
): Promise<EventKinds> {
  const primary = calendarId === user;
  const add = (event: Record<string, unknown>) => calendars.addEvent(user, calendarId, event);
  const single = await add({
    summary: "Budget review",
    description: "Q1 figures;\nbring the slides, please.",
    location: "Room Matterhorn, Bahnhofstrasse 1, Zürich",
    start: { dateTime: "2027-01-12T10:00:00", timeZone: ZONE },
    end: { dateTime: "2027-01-12T11:30:00", timeZone: ZONE },
  });
  const allDay = await add({
    summary: "Company off-site",
    start: { date: "2027-01-20" },
    end: { date: "2027-01-22" },
    transparency: "transparent",
  });
  const series = await add({
    summary: "Weekly sync",
    start: { dateTime: "2027-01-04T09:00:00", timeZone: ZONE },
    end: { dateTime: "2027-01-04T09:30:00", timeZone: ZONE },
    recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6", "EXDATE;TZID=Europe/Zurich:20270125T090000"],
    reminders: { useDefault: false, overrides: [{ method: "popup", minutes: 5 }] },
  });
  const changed = await add({
    iCalUID: series.iCalUID,
    originalStartTime: { dateTime: "2027-01-11T09:00:00+01:00", timeZone: ZONE },
    summary: "Weekly sync (moved to the afternoon)",
    start: { dateTime: "2027-01-11T14:00:00", timeZone: ZONE },
    end: { dateTime: "2027-01-11T14:30:00", timeZone: ZONE },
    sequence: 1,
  });
  const cancelledId = `${series.id ?? ""}_20270118T080000Z`;
  await calendars.client(user).events.delete({ calendarId, eventId: cancelledId });
  const meeting = await add({
    summary: "Kick-off Projekt Säntis",
    start: { dateTime: "2027-01-14T15:00:00+01:00" },
    end: { dateTime: "2027-01-14T16:00:00+01:00" },
    attendees: [
      { email: user, responseStatus: "accepted", organizer: true },
      { email: `anna@${TEST_DOMAIN}`, displayName: "Anna Muster", responseStatus: "accepted" },
      { email: `beat@${TEST_DOMAIN}`, responseStatus: "declined", comment: "Ferien" },
      { email: "carla@partner-extern.test", responseStatus: "tentative", optional: true },
      { email: `dario@${TEST_DOMAIN}`, responseStatus: "needsAction" },
    ],
    reminders: {
      useDefault: false,
      overrides: [
        { method: "popup", minutes: 10 },
        { method: "email", minutes: 1440 },
      ],
    },
    attachments: [
      {
        fileUrl: "https://drive.google.com/open?id=1AbCdEf",
        title: "Projektplan.pdf",
        mimeType: "application/pdf",
        fileId: "1AbCdEf",
      },
    ],
    conferenceData: {
      conferenceId: "abc-defg-hij",
      conferenceSolution: { key: { type: "hangoutsMeet" }, name: "Google Meet" },
      entryPoints: [
        {
          entryPointType: "video",
          uri: "https://meet.google.com/abc-defg-hij",
          label: "meet.google.com/abc-defg-hij",
        },
      ],
    },
  });
  const externalICalUID = "040000008200E00074C5B7101A82E00800000000@bergwerk-partner.test";
  const external = await add({
    iCalUID: externalICalUID,
    summary: "Vertragsbesprechung",
    start: { dateTime: "2027-01-15T10:00:00+01:00" },
    end: { dateTime: "2027-01-15T11:00:00+01:00" },
    organizer: { email: "lena.meier@bergwerk-partner.test", displayName: "Lena Meier" },
    attendees: [
      { email: "lena.meier@bergwerk-partner.test", responseStatus: "accepted", organizer: true },
      { email: user, responseStatus: "tentative" },
    ],
    sequence: 3,
  });
  const special = primary
    ? {
        outOfOffice: await add({
          eventType: "outOfOffice",
          summary: "Ferien",
          outOfOfficeProperties: {
            autoDeclineMode: "declineAllConflictingInvitations",
            declineMessage: "Bin weg",
          },
          start: { dateTime: "2027-02-01T08:00:00+01:00" },
          end: { dateTime: "2027-02-05T18:00:00+01:00" },
        }),
        focusTime: await add({
          eventType: "focusTime",
          summary: "Fokus",
          focusTimeProperties: { chatStatus: "doNotDisturb", autoDeclineMode: "declineNone" },
          start: { dateTime: "2027-01-13T13:00:00+01:00" },
          end: { dateTime: "2027-01-13T15:00:00+01:00" },
        }),
        workingLocation: await add({
          eventType: "workingLocation",
          summary: "Home",
          workingLocationProperties: { type: "homeOffice", homeOffice: {} },
          visibility: "public",
          transparency: "transparent",
          start: { date: "2027-01-19" },
          end: { date: "2027-01-20" },
        }),
      }
    : undefined;
  return {
    single: single.id ?? "",
    allDay: allDay.id ?? "",
    series: series.id ?? "",
    seriesICalUID: series.iCalUID ?? "",
    changedInstance: changed.id ?? "",
    cancelledInstance: cancelledId,
    meeting: meeting.id ?? "",
    external: external.id ?? "",
    externalICalUID,
    outOfOffice: special?.outOfOffice.id ?? "",
    focusTime: special?.focusTime.id ?? "",
    workingLocation: special?.workingLocation.id ?? "",
  };
}

/** A backed-up entry: what a version keeps of an item (its metadata and content). */
export interface BackedUpEntry {
  itemKey: string;
  metadata: ItemMetadata;
  content: Buffer;
}

/** Backs up every item of a user's calendars through the source (a full listing, each upsert fetched). */
export async function backUp(
  calendars: Calendars,
  user: string,
): Promise<{ entries: BackedUpEntry[]; cursor: string }> {
  const source = calendars.source(user);
  const batches = await collect(source.listChanges(null));
  const entries = new Map<string, BackedUpEntry>();
  for (const batch of batches) {
    for (const change of batch.changes) {
      if (change.type !== "upsert") continue;
      const fetched = await source.fetch(change.item);
      entries.set(change.item.itemKey, {
        itemKey: change.item.itemKey,
        metadata: fetched.metadata,
        content: await bytesOf(fetched.content),
      });
    }
  }
  return { entries: [...entries.values()], cursor: batches[batches.length - 1]?.nextCursor ?? "" };
}
