/**
 * The Calendar source against the Workspace emulator in-process, through the official Calendar client:
 * the calendars a user owns and every kind of event, in full, incrementally, resumed in the middle of a
 * listing, after expired sync tokens, and their search fields.
 */
import { type Harness, ManualClock, TEST_ADMIN, TEST_DOMAIN } from "../../emulators/workspace/src/index";
import type { GoogleCaller, GoogleRequest } from "../../functions/src/engine/google/caller";
import { calendarItemKey, eventItemKey } from "../../functions/src/engine/calendar/entries";
import type { CalendarSource } from "../../functions/src/engine/calendar/source";
import type { CalendarSearchFields, ChangeBatch, ItemRef } from "../../functions/src/engine/sources/source";
import { Calendars, addEventKinds, startCalendarEmulator, type EventKinds } from "../support/calendars";
import { bytesOf, collect } from "../support/engine-harness";

jest.setTimeout(60_000);

const DAY = 24 * 60 * 60 * 1000;
const clock = new ManualClock();
let harness: Harness;
let calendars: Calendars;

beforeAll(async () => {
  // Sync tokens expire on the emulator's clock, which the resync tests move.
  harness = await startCalendarEmulator(clock);
  calendars = new Calendars(harness);
});

afterAll(async () => {
  await harness.stop();
});

const upserted = (batches: ChangeBatch[]): ItemRef[] =>
  batches.flatMap((batch) =>
    batch.changes.flatMap((change) => (change.type === "upsert" ? [change.item] : [])),
  );
const upserts = (batches: ChangeBatch[]): string[] => upserted(batches).map((item) => item.itemKey);
const deletes = (batches: ChangeBatch[]): string[] =>
  batches.flatMap((batch) =>
    batch.changes.flatMap((change) => (change.type === "delete" ? [change.itemKey] : [])),
  );
const eventKeys = (calendarId: string, ids: Iterable<string>): string[] =>
  [...ids].map((id) => eventItemKey(calendarId, id));

/** A caller that records the method of every call (all reads: idempotent). */
function recordingCaller(): GoogleCaller & { methods: string[] } {
  const methods: string[] = [];
  return {
    methods,
    call: (request: GoogleRequest, send) => {
      expect(request).toMatchObject({ api: "calendar", idempotent: true });
      methods.push(request.method);
      return send();
    },
  };
}

const count = (methods: string[], method: string): number => methods.filter((name) => name === method).length;

/** Runs a full listing to its end and returns its batches and the incremental cursor. */
async function fullListing(source: CalendarSource): Promise<{ batches: ChangeBatch[]; cursor: string }> {
  const batches = await collect(source.listChanges(null));
  return { batches, cursor: batches[batches.length - 1]?.nextCursor ?? "" };
}

const simpleEvent = (summary: string, day: string): Record<string, unknown> => ({
  summary,
  start: { dateTime: `${day}T10:00:00+01:00` },
  end: { dateTime: `${day}T11:00:00+01:00` },
});

describe("a full listing", () => {
  let user: string;
  let secondary: string;
  let kinds: EventKinds;
  let batches: ChangeBatch[];
  let source: CalendarSource;
  const caller = recordingCaller();

  beforeAll(async () => {
    user = await calendars.newUser("full");
    kinds = await addEventKinds(calendars, user, user);
    secondary = await calendars.addCalendar(user, "Projekte", { description: "Alle Projekte" });
    await addEventKinds(calendars, user, secondary);
    // Someone else's calendars on the user's list: one they only read, one they may change; neither is theirs.
    const team = await calendars.addCalendar(TEST_ADMIN, "Team");
    await calendars.addEvent(TEST_ADMIN, team, simpleEvent("Team event", "2027-03-01"));
    expect(
      (await harness.admin("POST", `/users/${user}/calendar/calendarList`, { calendarId: team })).status,
    ).toBe(200);
    const shared = await calendars.addCalendar(TEST_ADMIN, "Shared");
    await calendars.addEvent(TEST_ADMIN, shared, simpleEvent("Shared event", "2027-03-02"));
    await harness.admin("POST", `/users/${user}/calendar/calendarList`, {
      calendarId: shared,
      role: "writer",
    });
    source = calendars.source(user, { caller, pageSize: 3 });
    ({ batches } = await fullListing(source));
  });

  it("when a user's calendars are listed with no cursor, then their own calendars come first, then each one's events page by page, the first batch marked fullListing and only the last done", async () => {
    expect(batches[0]?.changes.map((change) => change.type === "upsert" && change.item.itemKey)).toEqual([
      calendarItemKey(user),
      calendarItemKey(secondary),
    ]);
    expect(batches.map((batch) => batch.fullListing === true)).toEqual(
      batches.map((_, index) => index === 0),
    );
    expect(batches.map((batch) => batch.done === true)).toEqual(
      batches.map((_, index) => index === batches.length - 1),
    );
    expect(batches.every((batch) => !batch.resynced && !batch.expected)).toBe(true);
    const listedPrimary = await calendars.listed(user, user);
    const listedSecondary = await calendars.listed(user, secondary);
    expect(upserts(batches).sort()).toEqual(
      [
        calendarItemKey(user),
        calendarItemKey(secondary),
        ...eventKeys(user, listedPrimary.keys()),
        ...eventKeys(secondary, listedSecondary.keys()),
      ].sort(),
    );
    // Every kind of event is there (the series, its changed and cancelled instances apart), and nothing of
    // the calendars the user does not own.
    const { seriesICalUID: _uid, externalICalUID: _external, ...ids } = kinds;
    expect(upserts(batches)).toEqual(expect.arrayContaining(eventKeys(user, Object.values(ids))));
    expect(listedPrimary.get(kinds.cancelledInstance)).toMatchObject({
      status: "cancelled",
      recurringEventId: kinds.series,
    });
    expect(upserts(batches).every((key) => key.includes(`${user}`) || key.includes(secondary))).toBe(true);
    expect(deletes(batches)).toEqual([]);
    // Each calendar read once with its sharing; pages of 3 events.
    expect(count(caller.methods, "calendar.calendarList.list")).toBe(1);
    expect(count(caller.methods, "calendar.calendars.get")).toBe(2);
    expect(count(caller.methods, "calendar.acl.list")).toBe(2);
    expect(count(caller.methods, "calendar.events.list")).toBe(
      Math.ceil(listedPrimary.size / 3) + Math.ceil(listedSecondary.size / 3),
    );
    // The cursor keeps both calendars' sync tokens and, between runs, no position.
    const cursor = JSON.parse(batches[batches.length - 1]?.nextCursor ?? "") as Record<string, unknown>;
    expect(cursor).toEqual({
      v: 1,
      calendars: [user, secondary],
      tokens: { [user]: expect.any(String) as string, [secondary]: expect.any(String) as string },
    });
  });

  it("when the listed items are fetched, then an event's content is its JSON as Google returned it and a calendar's its settings and sharing, without another call", async () => {
    const listed = await calendars.listed(user, user);
    const before = caller.methods.length;
    for (const item of upserted(batches)) {
      const fetched = await source.fetch(item);
      expect(fetched.versionKey).toBe(item.versionKey);
      expect(fetched.contentKey).toBe(item.contentKey);
      const content = JSON.parse((await bytesOf(fetched.content)).toString("utf8")) as Record<
        string,
        unknown
      >;
      if (item.itemKey === calendarItemKey(user)) {
        expect(fetched.metadata).toEqual({ calendarEntry: "calendar", calendarId: user });
        expect(content).toEqual({
          calendar: (await calendars.client(user).calendars.get({ calendarId: user })).data,
          listEntry: expect.objectContaining({
            colorId: expect.any(String) as string,
            selected: true,
          }) as object,
          acl: (await calendars.client(user).acl.list({ calendarId: user })).data.items,
        });
        expect(content.listEntry).toMatchObject({
          defaultReminders: [{ method: "popup", minutes: 10 }],
          notificationSettings: expect.any(Object) as object,
        });
      }
      if (!item.itemKey.startsWith(`event:${user}/`)) continue;
      expect(content).toEqual(listed.get(content.id as string));
      expect(fetched.metadata).toMatchObject({
        calendarEntry: "event",
        calendarId: user,
        eventId: content.id,
      });
      expect(fetched.size).toBe(Buffer.byteLength(JSON.stringify(content)));
    }
    // The listing handed every entry over: fetching made no call of its own.
    expect(caller.methods.length - before).toBe(0);
    // A cancelled instance carries no iCalUID: its metadata takes its series' (a restore imports it with it).
    const cancelled = await source.fetch({ itemKey: eventItemKey(user, kinds.cancelledInstance) });
    expect(cancelled.metadata).toEqual({
      calendarEntry: "event",
      calendarId: user,
      eventId: kinds.cancelledInstance,
      iCalUID: kinds.seriesICalUID,
      recurringEventId: kinds.series,
    });
    const changed = await source.fetch({ itemKey: eventItemKey(user, kinds.changedInstance) });
    expect(changed.metadata).toMatchObject({ iCalUID: kinds.seriesICalUID, recurringEventId: kinds.series });
  });

  it("when items are fetched without the listing (another run), then Google is asked, and an event gone since is ItemGoneError", async () => {
    const fresh = recordingCaller();
    const other = calendars.source(user, { caller: fresh });
    const meeting = await other.fetch({ itemKey: eventItemKey(user, kinds.meeting) });
    expect(JSON.parse((await bytesOf(meeting.content)).toString("utf8"))).toEqual(
      (await calendars.client(user).events.get({ calendarId: user, eventId: kinds.meeting })).data,
    );
    const cancelled = await other.fetch({ itemKey: eventItemKey(user, kinds.cancelledInstance) });
    expect(cancelled.metadata.iCalUID).toBe(kinds.seriesICalUID);
    const calendar = await other.fetch({ itemKey: calendarItemKey(secondary) });
    expect(calendar.versionKey).toBe(
      upserted(batches).find((item) => item.itemKey === calendarItemKey(secondary))?.versionKey,
    );
    expect(fresh.methods.sort()).toEqual(
      [
        "calendar.acl.list",
        "calendar.calendarList.get",
        "calendar.calendars.get",
        "calendar.calendars.get",
        "calendar.events.get",
        "calendar.events.get",
        "calendar.events.get",
      ].sort(),
    );
    await calendars.client(user).events.delete({ calendarId: user, eventId: kinds.allDay });
    await expect(other.fetch({ itemKey: eventItemKey(user, kinds.allDay) })).rejects.toMatchObject({
      name: "ItemGoneError",
    });
    await expect(other.fetch({ itemKey: eventItemKey(user, "nosuchevent0") })).rejects.toMatchObject({
      name: "ItemGoneError",
    });
    await expect(
      other.fetch({ itemKey: calendarItemKey(`nosuch@group.calendar.google.com`) }),
    ).rejects.toMatchObject({
      name: "ItemGoneError",
    });
  });

  it("when an owned calendar is hidden on the user's list, then it is still backed up", async () => {
    const hidden = await calendars.addCalendar(user, "Versteckt");
    await harness.admin("POST", `/users/${user}/calendar/calendarList`, { calendarId: hidden, hidden: true });
    const { batches: again } = await fullListing(calendars.source(user));
    expect(upserts(again)).toContain(calendarItemKey(hidden));
  });
});

describe("search fields", () => {
  it("when events and calendars are fetched, then their search fields are lower-cased and bounded, with the start and end as ISO strings and the calendar's name as written", async () => {
    const user = await calendars.newUser("search");
    const kinds = await addEventKinds(calendars, user, user);
    const projects = await calendars.addCalendar(user, "Projekte Süd");
    const long = await calendars.addEvent(user, projects, {
      ...simpleEvent(`Lange Sitzung ${"x".repeat(600)}`, "2027-02-03"),
      attendees: Array.from({ length: 60 }, (_, index) => ({ email: `Person${index}@${TEST_DOMAIN}` })),
    });
    const source = calendars.source(user);
    const { batches } = await fullListing(source);
    const search = async (itemKey: string) =>
      (await source.fetch(upserted(batches).find((item) => item.itemKey === itemKey) ?? { itemKey }))
        .search as CalendarSearchFields;

    expect(await search(eventItemKey(user, kinds.meeting))).toEqual({
      kind: "calendar",
      display: { summary: "Kick-off Projekt Säntis", calendar: user },
      entry: "event",
      summary: "kick-off projekt säntis",
      organizer: user,
      attendees: [
        user,
        `anna@${TEST_DOMAIN}`,
        `beat@${TEST_DOMAIN}`,
        "carla@partner-extern.test",
        `dario@${TEST_DOMAIN}`,
      ],
      start: "2027-01-14T14:00:00.000Z",
      end: "2027-01-14T15:00:00.000Z",
      calendarId: user,
      keywords: expect.arrayContaining(["kick", "säntis", "anna", "muster", "carla", "partner"]) as string[],
    });
    expect(await search(eventItemKey(user, kinds.allDay))).toMatchObject({
      start: "2027-01-20",
      end: "2027-01-22",
    });
    // A cancelled instance is found at the occurrence it cancels, and says it is cancelled.
    expect(await search(eventItemKey(user, kinds.cancelledInstance))).toMatchObject({
      summary: "",
      start: "2027-01-18T08:00:00.000Z",
      end: "",
      cancelled: true,
    });
    // A series' master keeps its rule lines and zone (what a browse expands it by), and is marked a series.
    expect(await search(eventItemKey(user, kinds.series))).toMatchObject({
      start: "2027-01-04T08:00:00.000Z",
      timeZone: "Europe/Zurich",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6", "EXDATE;TZID=Europe/Zurich:20270125T090000"],
      recurring: true,
    });
    expect(await search(eventItemKey(user, kinds.changedInstance))).not.toHaveProperty("recurring");
    expect(await search(eventItemKey(user, kinds.external))).toMatchObject({
      organizer: "lena.meier@bergwerk-partner.test",
    });
    const bounded = await search(eventItemKey(projects, long.id ?? ""));
    expect(Array.from(bounded.summary)).toHaveLength(500);
    expect(bounded.attendees).toHaveLength(50);
    expect(bounded.attendees[0]).toBe(`person0@${TEST_DOMAIN}`);
    expect(bounded.display).toEqual({
      summary: expect.stringMatching(/^Lange Sitzung x+$/) as string,
      calendar: "Projekte Süd",
    });
    expect(bounded.keywords.length).toBeLessThanOrEqual(64);
    expect(await search(calendarItemKey(projects))).toEqual({
      kind: "calendar",
      display: { summary: "Projekte Süd", calendar: "Projekte Süd" },
      entry: "calendar",
      summary: "projekte süd",
      organizer: "",
      attendees: [],
      start: "",
      end: "",
      calendarId: projects,
      timeZone: "Europe/Zurich",
      keywords: ["projekte", "süd"],
    });
  });
});

describe("incremental listings", () => {
  it("when events are added, changed, deleted and an instance cancelled, and calendars come and go, then the next run lists only that", async () => {
    const user = await calendars.newUser("incremental");
    const client = calendars.client(user);
    const alpha = await calendars.addCalendar(user, "Alpha");
    const beta = await calendars.addCalendar(user, "Beta");
    const kept = await calendars.addEvent(user, user, simpleEvent("Kept", "2027-01-04"));
    const changed = await calendars.addEvent(user, user, simpleEvent("Before", "2027-01-05"));
    const removed = await calendars.addEvent(user, user, simpleEvent("Removed", "2027-01-06"));
    const weekly = {
      start: { dateTime: "2027-01-04T09:00:00", timeZone: "Europe/Zurich" },
      end: { dateTime: "2027-01-04T09:30:00", timeZone: "Europe/Zurich" },
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=5"],
    };
    const series = await calendars.addEvent(user, alpha, { summary: "Series", ...weekly });
    const doomed = await calendars.addEvent(user, alpha, { summary: "Doomed series", ...weekly });
    await client.events.delete({ calendarId: alpha, eventId: `${doomed.id ?? ""}_20270111T080000Z` });
    await calendars.addEvent(user, beta, simpleEvent("In beta", "2027-01-07"));
    const source = calendars.source(user);
    const first = await fullListing(source);
    const calendarVersion = (batches: ChangeBatch[], id: string) =>
      upserted(batches).find((item) => item.itemKey === calendarItemKey(id))?.versionKey;

    const added = await calendars.addEvent(user, user, simpleEvent("Added", "2027-01-08"));
    await calendars.addEvent(user, user, { ...simpleEvent("After", "2027-01-05"), iCalUID: changed.iCalUID });
    await client.events.delete({ calendarId: user, eventId: removed.id ?? "" });
    const cancelledInstance = `${series.id ?? ""}_20270118T080000Z`;
    await client.events.delete({ calendarId: alpha, eventId: cancelledInstance });
    await client.events.delete({ calendarId: alpha, eventId: doomed.id ?? "" });
    await client.calendars.delete({ calendarId: beta });
    const gamma = await calendars.addCalendar(user, "Gamma");
    const inGamma = await calendars.addEvent(user, gamma, simpleEvent("In gamma", "2027-01-09"));

    const second = await collect(source.listChanges(first.cursor));
    expect(second.every((batch) => !batch.fullListing && !batch.resynced)).toBe(true);
    expect(second.map((batch) => batch.done === true)).toEqual(
      second.map((_, index) => index === second.length - 1),
    );
    // The calendar items every run: unchanged ones with the same version key, so the engine skips them.
    expect(
      second[0]?.changes.map((change) =>
        change.type === "upsert" ? change.item.itemKey : `- ${change.itemKey}`,
      ),
    ).toEqual([
      calendarItemKey(user),
      ...[alpha, gamma].sort().map(calendarItemKey),
      `- ${calendarItemKey(beta)}`,
    ]);
    expect(calendarVersion(second, user)).toBe(calendarVersion(first.batches, user));
    expect(calendarVersion(second, alpha)).toBe(calendarVersion(first.batches, alpha));
    const events = second.slice(1);
    expect(upserts(events).sort()).toEqual(
      [
        eventItemKey(user, added.id ?? ""),
        eventItemKey(user, changed.id ?? ""),
        eventItemKey(alpha, cancelledInstance),
        // A new calendar: its full listing.
        eventItemKey(gamma, inGamma.id ?? ""),
      ].sort(),
    );
    // A deleted series takes its cancelled instance with it; the deleted calendar's events stay as they are.
    expect(deletes(events).sort()).toEqual(
      [
        eventItemKey(user, removed.id ?? ""),
        eventItemKey(alpha, doomed.id ?? ""),
        eventItemKey(alpha, `${doomed.id ?? ""}_20270111T080000Z`),
      ].sort(),
    );
    expect(upserts(second)).not.toContain(eventItemKey(user, kept.id ?? ""));
    const changedRef = upserted(events).find((item) => item.itemKey === eventItemKey(user, changed.id ?? ""));
    const firstRef = upserted(first.batches).find(
      (item) => item.itemKey === eventItemKey(user, changed.id ?? ""),
    );
    expect(changedRef?.versionKey).not.toBe(firstRef?.versionKey);
    expect(
      JSON.parse((await bytesOf((await source.fetch(changedRef as ItemRef)).content)).toString()),
    ).toMatchObject({ summary: "After" });
    const cursor = JSON.parse(second[second.length - 1]?.nextCursor ?? "") as {
      calendars: string[];
      tokens: object;
    };
    expect(cursor.calendars).toEqual([user, ...[alpha, gamma].sort()]);
    expect(Object.keys(cursor.tokens).sort()).toEqual([user, alpha, gamma].sort());

    // Nothing changed: the calendar items again (same versions) and one empty page per calendar.
    const third = await collect(source.listChanges(second[second.length - 1]?.nextCursor ?? ""));
    expect(third.map((batch) => batch.changes.length)).toEqual([3, 0, 0, 0]);
  });
});

describe("resuming", () => {
  it("when a run stopped in the middle of a calendar's events, then the next one resumes at its page, without listing the calendars again", async () => {
    const user = await calendars.newUser("resume");
    const second = await calendars.addCalendar(user, "Zweit");
    for (let day = 1; day <= 5; day += 1)
      await calendars.addEvent(user, user, simpleEvent(`P${day}`, `2027-02-0${day}`));
    for (let day = 1; day <= 4; day += 1)
      await calendars.addEvent(user, second, simpleEvent(`S${day}`, `2027-02-1${day}`));
    const whole = await fullListing(calendars.source(user, { pageSize: 2 }));
    // Calendars, then 3 pages of the primary's events, then 2 of the second calendar's.
    expect(whole.batches.map((batch) => batch.changes.length)).toEqual([2, 2, 2, 1, 2, 2]);
    for (const stop of [1, 2, 4]) {
      const cursor = whole.batches[stop]?.nextCursor ?? "";
      const caller = recordingCaller();
      const rest = await collect(calendars.source(user, { pageSize: 2, caller }).listChanges(cursor));
      expect(upserts([...whole.batches.slice(0, stop + 1), ...rest]).sort()).toEqual(
        upserts(whole.batches).sort(),
      );
      expect(rest.map((batch) => batch.changes.length)).toEqual(
        whole.batches.slice(stop + 1).map((batch) => batch.changes.length),
      );
      expect(rest[rest.length - 1]?.done).toBe(true);
      expect(rest.every((batch) => !batch.fullListing)).toBe(true);
      expect(caller.methods).not.toContain("calendar.calendars.get");
      expect(JSON.parse(rest[rest.length - 1]?.nextCursor ?? "")).toEqual(JSON.parse(whole.cursor));
    }
    expect(JSON.parse(whole.batches[2]?.nextCursor ?? "")).toMatchObject({
      at: { calendarId: user, position: { mode: "full", pageToken: expect.any(String) as string } },
    });
  });

  it("when the cursor cannot be read, then everything is listed again, the first batch marked fullListing and resynced", async () => {
    const user = await calendars.newUser("unreadable");
    await calendars.addEvent(user, user, simpleEvent("One", "2027-02-01"));
    for (const cursor of ["not json", JSON.stringify({ v: 99 })]) {
      const batches = await collect(calendars.source(user).listChanges(cursor));
      expect(batches[0]).toMatchObject({ fullListing: true, resynced: true });
      expect(upserts(batches)).toHaveLength(2);
    }
  });
});

describe("expired sync tokens", () => {
  it("when every sync token has outlived its lifetime, then each calendar is listed in full again, its first batch resynced, and the events deleted meanwhile come as deletes", async () => {
    const user = await calendars.newUser("expired");
    const second = await calendars.addCalendar(user, "Zweit");
    const gone = await calendars.addEvent(user, second, simpleEvent("Gone", "2027-03-01"));
    const stays = await calendars.addEvent(user, second, simpleEvent("Stays", "2027-03-02"));
    const primaryEvent = await calendars.addEvent(user, user, simpleEvent("Primary", "2027-03-03"));
    const source = calendars.source(user);
    const { cursor } = await fullListing(source);
    await calendars.client(user).events.delete({ calendarId: second, eventId: gone.id ?? "" });
    await clock.advance(8 * DAY);

    const batches = await collect(source.listChanges(cursor));
    // The calendar items, then each calendar's own full listing; never a failure, never a fullListing
    // (the engine would take every other calendar's unlisted events as deleted).
    expect(batches.map((batch) => batch.resynced === true)).toEqual([false, true, true]);
    expect(batches.every((batch) => !batch.fullListing)).toBe(true);
    expect(upserts(batches.slice(1)).sort()).toEqual(
      [eventItemKey(user, primaryEvent.id ?? ""), eventItemKey(second, stays.id ?? "")].sort(),
    );
    expect(deletes(batches)).toEqual([eventItemKey(second, gone.id ?? "")]);
    const next = await collect(source.listChanges(batches[batches.length - 1]?.nextCursor ?? ""));
    expect(next.map((batch) => batch.changes.length)).toEqual([2, 0, 0]);
  });

  it("when one calendar's sharing changed (its events' tokens are refused), then only that calendar is listed again", async () => {
    const user = await calendars.newUser("acl");
    const second = await calendars.addCalendar(user, "Geteilt");
    const inSecond = await calendars.addEvent(user, second, simpleEvent("Shared", "2027-03-05"));
    await calendars.addEvent(user, user, simpleEvent("Own", "2027-03-06"));
    const source = calendars.source(user);
    const { cursor } = await fullListing(source);
    await calendars.client(user).acl.insert({
      calendarId: second,
      requestBody: { role: "reader", scope: { type: "user", value: `anna@${TEST_DOMAIN}` } },
    });

    const batches = await collect(source.listChanges(cursor));
    expect(batches.map((batch) => batch.resynced === true)).toEqual([false, false, true]);
    // The calendar item has a new version (its sharing changed); the primary's events did not change.
    expect(upserts(batches[0] ? [batches[0]] : [])).toEqual([calendarItemKey(user), calendarItemKey(second)]);
    expect(batches[1]?.changes).toEqual([]);
    expect(upserts(batches.slice(2))).toEqual([eventItemKey(second, inSecond.id ?? "")]);
  });
});
