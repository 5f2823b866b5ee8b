import type { calendar_v3 } from "@googleapis/calendar";
import { ManualClock } from "../../../kit/src/index";
import { TEST_ADMIN, TEST_USER, googleError } from "../testing/harness";
import { startCalendarHarness, type CalendarHarness } from "./testing-calendar";

let harness: CalendarHarness;
let calendar: calendar_v3.Calendar;
const clock = new ManualClock();

beforeAll(async () => {
  // These tests check Calendar's answers, not timing: the latency model is off for this file's emulator
  // (latency.test.ts checks the model). Sync tokens expire on the emulator's clock, which the test moves.
  harness = await startCalendarHarness({ quota: { enabled: false }, latency: { enabled: false }, clock });
  calendar = harness.calendar(TEST_USER);
});
afterAll(() => harness.stop());

/** Every page of a list call, and the last page's sync token. */
async function listAll<T>(
  call: (
    pageToken?: string,
  ) => Promise<{ data: { items?: T[]; nextPageToken?: string | null; nextSyncToken?: string | null } }>,
): Promise<{ items: T[]; pages: number; nextSyncToken: string }> {
  const items: T[] = [];
  let pageToken: string | undefined;
  let pages = 0;
  for (;;) {
    const { data } = await call(pageToken);
    pages += 1;
    items.push(...(data.items ?? []));
    if (data.nextPageToken) {
      expect(data.nextSyncToken).toBeUndefined();
      pageToken = data.nextPageToken;
      continue;
    }
    return { items, pages, nextSyncToken: data.nextSyncToken ?? "" };
  }
}

describe("calendarList", () => {
  test("when a user lists their calendars in pages, then the primary one comes first, hidden ones only with showHidden, and the last page has the sync token", async () => {
    const first = await calendar.calendars.insert({
      requestBody: { summary: "Projekte", timeZone: "Europe/Berlin" },
    });
    await calendar.calendars.insert({ requestBody: { summary: "Ferien" } });
    const other = await harness.calendar(TEST_ADMIN).calendars.insert({ requestBody: { summary: "Team" } });
    await harness.admin("POST", `/users/${TEST_USER}/calendar/calendarList`, {
      calendarId: other.data.id,
      hidden: true,
    });

    const full = await listAll((pageToken) => calendar.calendarList.list({ maxResults: 2, pageToken }));
    expect(full.pages).toBe(2);
    const ids = full.items.map((entry) => entry.id);
    expect(ids).toContain(TEST_USER);
    expect(ids).toContain(first.data.id);
    expect(ids).not.toContain(other.data.id);
    const primary = full.items.find((entry) => entry.id === TEST_USER);
    expect(primary).toMatchObject({ kind: "calendar#calendarListEntry", primary: true, accessRole: "owner" });
    const hidden = await calendar.calendarList.list({ showHidden: true });
    expect(hidden.data.items?.find((entry) => entry.id === other.data.id)).toMatchObject({
      hidden: true,
      accessRole: "reader",
    });
    expect((await calendar.calendarList.get({ calendarId: "primary" })).data.id).toBe(TEST_USER);

    // Incremental: only what changed since, a deleted calendar as a deleted entry.
    const added = await calendar.calendars.insert({ requestBody: { summary: "Neu" } });
    await calendar.calendars.delete({ calendarId: first.data.id ?? "" });
    const changes = await calendar.calendarList.list({ syncToken: full.nextSyncToken });
    const changed = Object.fromEntries((changes.data.items ?? []).map((entry) => [entry.id, entry]));
    expect(Object.keys(changed).sort()).toEqual([added.data.id, first.data.id].sort());
    expect(changed[first.data.id ?? ""]).toMatchObject({ deleted: true });
    expect(changes.data.nextSyncToken).toBeTruthy();
    const again = await calendar.calendarList.list({ syncToken: changes.data.nextSyncToken ?? "" });
    expect(again.data.items).toEqual([]);
    // Losing access to a calendar on the list is a change of the list: the entry comes as deleted.
    await harness
      .calendar(TEST_ADMIN)
      .acl.delete({ calendarId: other.data.id ?? "", ruleId: `user:${TEST_USER}` });
    const lost = await calendar.calendarList.list({ syncToken: again.data.nextSyncToken ?? "" });
    expect(lost.data.items).toEqual([expect.objectContaining({ id: other.data.id, deleted: true })]);
    expect((await googleError(calendar.calendarList.get({ calendarId: other.data.id ?? "" }))).status).toBe(
      404,
    );

    const combined = await googleError(
      calendar.calendarList.list({ syncToken: full.nextSyncToken, minAccessRole: "owner" }),
    );
    expect(combined.status).toBe(400);
  });
});

describe("acl", () => {
  test("when a calendar's rules change, then acl.list with the sync token gives only the changed rules, a deleted one with role none", async () => {
    const { data: created } = await calendar.calendars.insert({ requestBody: { summary: "Geteilt" } });
    const calendarId = created.id ?? "";
    const full = await listAll((pageToken) => calendar.acl.list({ calendarId, pageToken }));
    expect(full.items).toEqual([
      expect.objectContaining({
        kind: "calendar#aclRule",
        id: `user:${TEST_USER}`,
        role: "owner",
        scope: { type: "user", value: TEST_USER },
      }),
    ]);
    const rule = await calendar.acl.insert({
      calendarId,
      sendNotifications: false,
      requestBody: { role: "reader", scope: { type: "user", value: "partner@extern.test" } },
    });
    expect(rule.data).toMatchObject({ id: "user:partner@extern.test", role: "reader" });
    await calendar.acl.insert({
      calendarId,
      requestBody: { role: "freeBusyReader", scope: { type: "default" } },
    });
    const changes = await calendar.acl.list({ calendarId, syncToken: full.nextSyncToken });
    expect((changes.data.items ?? []).map((item) => item.id).sort()).toEqual([
      "default",
      "user:partner@extern.test",
    ]);
    await calendar.acl.delete({ calendarId, ruleId: "user:partner@extern.test" });
    const deleted = await calendar.acl.list({ calendarId, syncToken: changes.data.nextSyncToken ?? "" });
    expect(deleted.data.items).toEqual([
      expect.objectContaining({ id: "user:partner@extern.test", role: "none" }),
    ]);
    // Only owners see a calendar's rules: someone who can see the calendar (the default rule) gets 403.
    const reader = await googleError(harness.calendar(TEST_ADMIN).acl.list({ calendarId }));
    expect(reader).toMatchObject({ status: 403, reason: "forbidden" });
  });
});

describe("events and sync tokens", () => {
  let calendarId: string;
  const insert = (summary: string, day: number): Promise<unknown> =>
    calendar.events.insert({
      calendarId,
      requestBody: {
        summary,
        start: { dateTime: `2026-03-${String(day).padStart(2, "0")}T10:00:00+01:00` },
        end: { dateTime: `2026-03-${String(day).padStart(2, "0")}T11:00:00+01:00` },
      },
    });

  beforeAll(async () => {
    calendarId = (await calendar.calendars.insert({ requestBody: { summary: "Sync" } })).data.id ?? "";
    for (let day = 1; day <= 5; day += 1) await insert(`Termin ${day}`, day);
  });

  test("when events change after a full sync, then the sync token gives only the changes and a deleted event comes as cancelled", async () => {
    const full = await listAll((pageToken) => calendar.events.list({ calendarId, maxResults: 2, pageToken }));
    expect(full.pages).toBe(3);
    expect(full.items).toHaveLength(5);
    const removed = full.items[0] as calendar_v3.Schema$Event;
    await calendar.events.delete({ calendarId, eventId: removed.id ?? "" });
    await insert("Neu", 20);
    const changes = await calendar.events.list({ calendarId, syncToken: full.nextSyncToken });
    const items = changes.data.items ?? [];
    expect(items).toHaveLength(2);
    expect(items.find((item) => item.id === removed.id)).toEqual({
      kind: "calendar#event",
      etag: expect.any(String) as string,
      id: removed.id,
      status: "cancelled",
    });
    expect(items.find((item) => item.summary === "Neu")).toMatchObject({ status: "confirmed" });
    // Without showDeleted, a full listing leaves the deleted event out; a second delete is 410 deleted.
    const now = await calendar.events.list({ calendarId });
    expect(now.data.items?.some((item) => item.id === removed.id)).toBe(false);
    const twice = await googleError(calendar.events.delete({ calendarId, eventId: removed.id ?? "" }));
    expect(twice).toMatchObject({ status: 410, reason: "deleted" });
  });

  test("when syncToken comes with timeMin, q or showDeleted=false, then Calendar answers 400", async () => {
    const { data } = await calendar.events.list({ calendarId });
    const syncToken = data.nextSyncToken ?? "";
    for (const extra of [
      { timeMin: "2026-01-01T00:00:00Z" },
      { q: "Termin" },
      { showDeleted: false },
      { orderBy: "updated" },
    ]) {
      const failure = await googleError(calendar.events.list({ calendarId, syncToken, ...extra }));
      expect(failure.status).toBe(400);
    }
  });

  test("when the admin API expires a user's sync tokens, then every list answers 410 fullSyncRequired and a full sync works", async () => {
    const events = await calendar.events.list({ calendarId });
    const acl = await calendar.acl.list({ calendarId });
    const list = await calendar.calendarList.list();
    expect((await harness.admin("POST", `/users/${TEST_USER}/calendar:expireSyncTokens`)).status).toBe(200);
    const gone = await googleError(
      calendar.events.list({ calendarId, syncToken: events.data.nextSyncToken ?? "" }),
    );
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({
      error: {
        code: 410,
        message: "Sync token is no longer valid, a full sync is required.",
        errors: [
          {
            message: "Sync token is no longer valid, a full sync is required.",
            domain: "calendar",
            reason: "fullSyncRequired",
            locationType: "parameter",
            location: "syncToken",
          },
        ],
        status: "UNKNOWN",
      },
    });
    expect(
      (await googleError(calendar.acl.list({ calendarId, syncToken: acl.data.nextSyncToken ?? "" }))).status,
    ).toBe(410);
    expect(
      (await googleError(calendar.calendarList.list({ syncToken: list.data.nextSyncToken ?? "" }))).status,
    ).toBe(410);
    const fresh = await calendar.events.list({ calendarId });
    expect(fresh.data.nextSyncToken).toBeTruthy();
    expect(
      (await calendar.events.list({ calendarId, syncToken: fresh.data.nextSyncToken ?? "" })).data.items,
    ).toEqual([]);
  });

  test("when a sync token is older than its lifetime on the emulator's clock, or the calendar's sharing changed, then it answers 410", async () => {
    const { data } = await calendar.events.list({ calendarId });
    await clock.advance(6 * 24 * 60 * 60 * 1000);
    const { data: later } = await calendar.events.list({ calendarId, syncToken: data.nextSyncToken ?? "" });
    await clock.advance(2 * 24 * 60 * 60 * 1000);
    expect(
      (await googleError(calendar.events.list({ calendarId, syncToken: data.nextSyncToken ?? "" }))).status,
    ).toBe(410);
    // The token issued six days in is still good, until the calendar's ACL changes.
    const token = later.nextSyncToken ?? "";
    expect((await calendar.events.list({ calendarId, syncToken: token })).status).toBe(200);
    await calendar.acl.insert({
      calendarId,
      requestBody: { role: "reader", scope: { type: "domain", value: "example-test.test" } },
    });
    expect((await googleError(calendar.events.list({ calendarId, syncToken: token }))).status).toBe(410);
  });
});
