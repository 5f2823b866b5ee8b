/**
 * Restoring Calendar entries with the production `CalendarRestorer` against the Workspace emulator
 * in-process: entries backed up through `CalendarSource`, restored into the original calendar, a new
 * calendar and another user's calendars, then read back through the official client and compared field
 * by field with what was backed up.
 */
import type { calendar_v3 } from "@googleapis/calendar";
import { type Harness, TEST_DOMAIN } from "../../emulators/workspace/src/index";
import type { GoogleCaller, GoogleRequest } from "../../functions/src/engine/google/caller";
import { calendarItemKey, eventItemKey } from "../../functions/src/engine/calendar/entries";
import {
  CalendarRestorer,
  type CalendarRestoreOutcome,
  type CalendarRestoreTarget,
} from "../../functions/src/engine/calendar/restorer";
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

beforeAll(async () => {
  harness = await startCalendarEmulator();
  calendars = new Calendars(harness);
});

afterAll(async () => {
  await harness.stop();
});

/** A caller that records each call's method and whether it may be repeated. */
function recordingCaller(): GoogleCaller & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    call: (request: GoogleRequest, send) => {
      calls.push(`${request.method}${request.idempotent ? "" : " (once)"}`);
      return send();
    },
  };
}

function restorer(
  target: CalendarRestoreTarget,
  caller: GoogleCaller,
  requests?: string[],
): CalendarRestorer {
  return new CalendarRestorer(calendars.client(target.user, requests), target, caller);
}

const eventOf = (entry: BackedUpEntry): calendar_v3.Schema$Event =>
  JSON.parse(entry.content.toString("utf8")) as calendar_v3.Schema$Event;

/** What a restore must keep of an event, in a form two events can be compared by. */
function comparable(event: calendar_v3.Schema$Event): Record<string, unknown> {
  const attendees = [...(event.attendees ?? [])]
    .map(({ email, responseStatus, displayName, optional, comment }) => ({
      email,
      responseStatus,
      ...(displayName ? { displayName } : {}),
      ...(optional ? { optional } : {}),
      ...(comment ? { comment } : {}),
    }))
    .sort((a, b) => ((a.email ?? "") < (b.email ?? "") ? -1 : 1));
  const { self: _self, ...organizer } = event.organizer ?? {};
  void _self;
  return {
    summary: event.summary,
    description: event.description,
    location: event.location,
    start: event.start,
    end: event.end,
    originalStartTime: event.originalStartTime,
    recurrence: event.recurrence,
    status: event.status,
    transparency: event.transparency,
    visibility: event.visibility,
    sequence: event.sequence,
    attendees,
    organizer,
    reminders: event.reminders,
    attachments: event.attachments,
    conferenceData: event.conferenceData,
    eventType: event.eventType,
  };
}

/** A restored event's series' instances (changed ones with their own fields), by original start. */
async function instancesOf(user: string, calendarId: string, seriesId: string) {
  const { data } = await calendars.client(user).events.instances({ calendarId, eventId: seriesId });
  return (data.items ?? []).map((instance) => ({
    original: instance.originalStartTime?.dateTime,
    summary: instance.summary,
    start: instance.start?.dateTime,
  }));
}

/**
 * A restored default event keeps its iCalUID (Google lists a cancelled instance without one); an
 * out-of-office, focus-time or working-location event can only be inserted, and gets a new one.
 */
function expectICalUID(source: calendar_v3.Schema$Event, restored: calendar_v3.Schema$Event): void {
  if (source.status === "cancelled") expect(restored.iCalUID).toBeUndefined();
  else if (source.eventType === "default") expect(restored.iCalUID).toBe(source.iCalUID);
  else expect(restored.iCalUID).not.toBe(source.iCalUID);
}

const entryOf = (entries: BackedUpEntry[], calendarId: string, eventId: string): BackedUpEntry => {
  const found = entries.find((entry) => entry.itemKey === eventItemKey(calendarId, eventId));
  if (!found) throw new Error(`no entry for ${eventId}`);
  return found;
};

/** The events a restore made, by the backed-up event each came from. */
async function restoredPairs(
  user: string,
  entries: BackedUpEntry[],
  outcomes: CalendarRestoreOutcome[],
): Promise<{ source: calendar_v3.Schema$Event; restored: calendar_v3.Schema$Event; calendarId: string }[]> {
  const pairs = [];
  for (const [index, outcome] of outcomes.entries()) {
    const entry = entries[index] as BackedUpEntry;
    if (!outcome.restored || !outcome.eventId) continue;
    const { data } = await calendars
      .client(user)
      .events.get({ calendarId: outcome.calendarId, eventId: outcome.eventId });
    pairs.push({ source: eventOf(entry), restored: data, calendarId: outcome.calendarId });
  }
  return pairs;
}

describe("a user's events backed up", () => {
  let user: string;
  let kinds: EventKinds;
  let projects: string;
  let entries: BackedUpEntry[];
  let primaryEvents: BackedUpEntry[];

  beforeAll(async () => {
    user = await calendars.newUser("restore");
    kinds = await addEventKinds(calendars, user, user);
    projects = await calendars.addCalendar(user, "Projekte", {
      description: "Alle Projekte",
      location: "Zürich",
      timeZone: "Europe/Berlin",
    });
    await calendars.addEvent(user, projects, {
      summary: "Projekt Säntis",
      start: { date: "2027-02-08" },
      end: { date: "2027-02-09" },
    });
    await calendars.client(user).acl.insert({
      calendarId: projects,
      requestBody: { role: "reader", scope: { type: "user", value: `anna@${TEST_DOMAIN}` } },
    });
    await calendars.client(user).acl.insert({
      calendarId: projects,
      requestBody: { role: "freeBusyReader", scope: { type: "domain", value: TEST_DOMAIN } },
    });
    ({ entries } = await backUp(calendars, user));
    primaryEvents = entries.filter((entry) => entry.itemKey.startsWith(`event:${user}/`));
  });

  it("when lost events are restored to their original calendar, then each comes back with its iCalUID, times, recurrence, attendees and answers, reminders and the exceptions of its series, and no invitation is sent", async () => {
    const client = calendars.client(user);
    for (const id of [kinds.single, kinds.series, kinds.meeting, kinds.external, kinds.outOfOffice]) {
      await client.events.delete({ calendarId: user, eventId: id });
    }
    const lost = [
      kinds.single,
      kinds.series,
      kinds.changedInstance,
      kinds.cancelledInstance,
      kinds.meeting,
      kinds.external,
      kinds.outOfOffice,
    ].map((id) => entryOf(entries, user, id));
    const caller = recordingCaller();
    const requests: string[] = [];
    const outcomes = await restorer({ user, calendar: { kind: "original" } }, caller, requests).restore(lost);

    expect(outcomes.every((outcome) => outcome.restored && outcome.calendarId === user)).toBe(true);
    const pairs = await restoredPairs(user, lost, outcomes);
    for (const { source, restored } of pairs) {
      expect(comparable(restored)).toEqual(comparable(source));
      // Default events keep their iCalUID; an out-of-office event can only be inserted, and gets a new one.
      if (source.eventType === "default")
        expect(restored.iCalUID).toBe(source.iCalUID ?? entries.find(() => false));
    }
    const series = outcomes[1] as Extract<CalendarRestoreOutcome, { restored: true }>;
    expect(pairs.find((pair) => pair.source.id === kinds.cancelledInstance)?.restored).toMatchObject({
      status: "cancelled",
      recurringEventId: series.eventId,
    });
    // The series' instances: the 18th cancelled, the 25th an EXDATE, the 11th moved (as backed up).
    expect(await instancesOf(user, user, series.eventId ?? "")).toEqual([
      { original: "2027-01-04T08:00:00Z", summary: "Weekly sync", start: "2027-01-04T08:00:00Z" },
      {
        original: "2027-01-11T09:00:00+01:00",
        summary: "Weekly sync (moved to the afternoon)",
        start: "2027-01-11T13:00:00Z",
      },
      { original: "2027-02-01T08:00:00Z", summary: "Weekly sync", start: "2027-02-01T08:00:00Z" },
      { original: "2027-02-08T08:00:00Z", summary: "Weekly sync", start: "2027-02-08T08:00:00Z" },
    ]);
    // Imports (which send no invitation) and one insert with sendUpdates=none; only the import is repeatable.
    expect(caller.calls.filter((call) => call.startsWith("calendar.events.")).sort()).toEqual(
      [...Array.from({ length: 6 }, () => "calendar.events.import"), "calendar.events.insert (once)"].sort(),
    );
    const writes = requests.filter((request) => request.startsWith("POST") && request.includes("/events"));
    expect(writes.filter((request) => request.includes("/events/import"))).toHaveLength(6);
    expect(writes.filter((request) => !request.includes("/events/import"))).toEqual([
      expect.stringMatching(/\/calendars\/.+\/events\?.*sendUpdates=none/) as string,
    ]);
    expect(
      requests.some((request) => /sendUpdates=(all|externalOnly)|sendNotifications=true/.test(request)),
    ).toBe(false);
  });

  it("when the events are restored again, then the imports update the events they made instead of adding others", async () => {
    const some = [kinds.single, kinds.meeting].map((id) => entryOf(entries, user, id));
    const first = await restorer({ user, calendar: { kind: "original" } }, recordingCaller()).restore(some);
    const again = await restorer({ user, calendar: { kind: "original" } }, recordingCaller()).restore(some);
    expect(again).toEqual(first);
  });

  it("when the primary calendar's events are restored to a new calendar, then one calendar of that name holds them all, and Google's refusal of the events it only takes on a primary calendar is the answer", async () => {
    const caller = recordingCaller();
    const target: CalendarRestoreTarget = { user, calendar: { kind: "new", summary: "Restored 2026-12-01" } };
    const outcomes = await restorer(target, caller).restore(primaryEvents);

    expect(caller.calls.filter((call) => call === "calendar.calendars.insert (once)")).toHaveLength(1);
    const list = await calendars.client(user).calendarList.list();
    const created = (list.data.items ?? []).filter((entry) => entry.summary === "Restored 2026-12-01");
    expect(created).toHaveLength(1);
    const newId = created[0]?.id ?? "";
    const special = new Set([kinds.outOfOffice, kinds.focusTime, kinds.workingLocation]);
    outcomes.forEach((outcome, index) => {
      const id = eventOf(primaryEvents[index] as BackedUpEntry).id ?? "";
      if (special.has(id))
        expect(outcome).toEqual({
          restored: false,
          reason: "invalid",
          detail: expect.stringMatching(/primary calendar/) as string,
        });
      else expect(outcome).toMatchObject({ restored: true, calendarId: newId });
    });
    const pairs = await restoredPairs(user, primaryEvents, outcomes);
    expect(pairs).toHaveLength(primaryEvents.length - 3);
    for (const { source, restored } of pairs) {
      expect(comparable(restored)).toEqual(comparable(source));
      expectICalUID(source, restored);
    }
    const series = pairs.find((pair) => pair.source.id === kinds.series)?.restored.id ?? "";
    expect((await instancesOf(user, newId, series)).map((instance) => instance.summary)).toEqual([
      "Weekly sync",
      "Weekly sync (moved to the afternoon)",
      "Weekly sync",
      "Weekly sync",
    ]);
  });

  it("when a restore into a new calendar is done in parts, then every part fills the one calendar the first made, and an instance whose master an earlier part restored goes into its series", async () => {
    const caller = recordingCaller();
    const summary = "Restored in parts";
    const marker = "Restored by Alpvault (recovery parts-1)";
    const target: CalendarRestoreTarget = { user, calendar: { kind: "new", summary, marker } };
    const seriesEntries = primaryEvents.filter((entry) => {
      const event = eventOf(entry);
      return event.id === kinds.series || event.recurringEventId === kinds.series;
    });
    const [master, ...instances] = [...seriesEntries].sort((a, b) => a.itemKey.localeCompare(b.itemKey));
    const memory = {
      recreated: () => Promise.resolve(undefined),
      series: (_calendarId: string, eventId: string) =>
        Promise.resolve(eventId === kinds.series ? eventOf(master as BackedUpEntry) : undefined),
    };
    const first = await new CalendarRestorer(calendars.client(user), target, caller, memory).restore([
      master as BackedUpEntry,
    ]);
    const second = await new CalendarRestorer(calendars.client(user), target, caller, memory).restore(
      instances,
    );

    expect(caller.calls.filter((call) => call === "calendar.calendars.insert (once)")).toHaveLength(1);
    const list = await calendars.client(user).calendarList.list();
    const made = (list.data.items ?? []).filter((entry) => entry.summary === summary);
    expect(made.map((entry) => entry.description)).toEqual([marker]);
    const calendarId = made[0]?.id ?? "";
    expect([...first, ...second]).toEqual(
      seriesEntries.map(() => expect.objectContaining({ restored: true, calendarId }) as unknown),
    );
    const restored = first[0]?.restored ? (first[0].eventId ?? "") : "";
    expect((await instancesOf(user, calendarId, restored)).map((instance) => instance.summary)).toEqual([
      "Weekly sync",
      "Weekly sync (moved to the afternoon)",
      "Weekly sync",
      "Weekly sync",
    ]);
  });

  it("when a user's entries are restored to another user, then the events go into that user's primary calendar and a calendar entry becomes a new calendar of theirs with its settings, its sharing re-applied and each refused rule reported", async () => {
    const other = await calendars.newUser("receiver");
    const calendarEntry = entries.find(
      (entry) => entry.itemKey === calendarItemKey(projects),
    ) as BackedUpEntry;
    // A rule Google refuses (a scope that is no address): reported with Google's reason, the rest applied.
    const content = JSON.parse(calendarEntry.content.toString("utf8")) as {
      acl: calendar_v3.Schema$AclRule[];
    };
    content.acl.push({ role: "writer", scope: { type: "user", value: "not-an-address" } });
    const tampered = { ...calendarEntry, content: Buffer.from(JSON.stringify(content)) };
    const projectEvents = entries.filter((entry) => entry.itemKey.startsWith(`event:${projects}/`));
    const some = [kinds.single, kinds.allDay, kinds.meeting].map((id) => entryOf(entries, user, id));
    const outcomes = await restorer(
      { user: other, calendar: { kind: "original" } },
      recordingCaller(),
    ).restore([...some, tampered, ...projectEvents]);

    const calendarOutcome = outcomes[3] as Extract<CalendarRestoreOutcome, { restored: true }>;
    expect(calendarOutcome).toEqual({
      restored: true,
      calendarId: expect.stringMatching(/@group\.calendar\.google\.com$/) as string,
      sharing: {
        applied: 3,
        refused: [{ scope: "user:not-an-address", role: "writer", reason: "invalid" }],
      },
    });
    const { data: recreated } = await calendars
      .client(other)
      .calendars.get({ calendarId: calendarOutcome.calendarId });
    expect(recreated).toMatchObject({
      summary: "Projekte",
      description: "Alle Projekte",
      location: "Zürich",
      timeZone: "Europe/Berlin",
    });
    const { data: acl } = await calendars.client(other).acl.list({ calendarId: calendarOutcome.calendarId });
    expect((acl.items ?? []).map((rule) => `${rule.id ?? ""}=${rule.role ?? ""}`).sort()).toEqual(
      [
        `user:${other}=owner`,
        `user:${user}=owner`,
        `user:anna@${TEST_DOMAIN}=reader`,
        `domain:${TEST_DOMAIN}=freeBusyReader`,
      ].sort(),
    );
    // The other user owns none of the backed-up calendars: primary events to their primary calendar, the
    // projects calendar's events into the calendar recreated from its entry.
    expect(outcomes.slice(0, 3).map((outcome) => outcome.restored && outcome.calendarId)).toEqual([
      "primary",
      "primary",
      "primary",
    ]);
    expect(
      outcomes
        .slice(4)
        .every((outcome) => outcome.restored && outcome.calendarId === calendarOutcome.calendarId),
    ).toBe(true);
    const pairs = await restoredPairs(other, [...some, tampered, ...projectEvents], outcomes);
    for (const { source, restored } of pairs) {
      expect(comparable(restored)).toEqual(comparable(source));
      expectICalUID(source, restored);
    }
    expect((await calendars.listed(other, other)).size).toBe(3);
  });

  it("when an entry cannot be read, or an exception's series was refused, then those are answered without stopping the others", async () => {
    const series = entryOf(entries, user, kinds.series);
    const broken = {
      ...series,
      content: Buffer.from(JSON.stringify({ ...eventOf(series), recurrence: ["RRULE:FREQ=SECONDLY"] })),
    };
    const outcomes = await restorer(
      { user, calendar: { kind: "existing", calendarId: projects } },
      recordingCaller(),
    ).restore([
      { ...series, content: Buffer.from("{not json") },
      broken,
      entryOf(entries, user, kinds.changedInstance),
      entryOf(entries, user, kinds.single),
    ]);
    expect(outcomes).toEqual([
      { restored: false, reason: "unreadable-content" },
      { restored: false, reason: "invalid", detail: expect.stringMatching(/recurrence/i) as string },
      { restored: false, reason: "series-not-restored" },
      { restored: true, calendarId: projects, eventId: expect.any(String) as string },
    ]);
  });
});
