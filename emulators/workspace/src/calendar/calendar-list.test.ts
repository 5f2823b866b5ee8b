import type { calendar_v3 } from "@googleapis/calendar";
import { SCOPES } from "../auth";
import { TEST_ADMIN, TEST_USER, googleError } from "../testing/harness";
import { startCalendarHarness, type CalendarHarness } from "./testing-calendar";

let harness: CalendarHarness;
let calendar: calendar_v3.Calendar;

beforeAll(async () => {
  // These tests check Calendar's answers, not timing: the latency model is off for this file's emulator.
  harness = await startCalendarHarness({ quota: { enabled: false }, latency: { enabled: false } });
  calendar = harness.calendar(TEST_USER);
});
afterAll(() => harness.stop());

/** A calendar of the admin's that the test user may read, not on the user's list. */
async function sharedCalendar(summary: string): Promise<string> {
  const admin = harness.calendar(TEST_ADMIN);
  const { data } = await admin.calendars.insert({ requestBody: { summary } });
  await admin.acl.insert({
    calendarId: data.id ?? "",
    requestBody: { role: "reader", scope: { type: "user", value: TEST_USER } },
  });
  return data.id ?? "";
}

describe("calendarList entries", () => {
  test("when the user names a calendar their own way, then summary stays the calendar's title and summaryOverride is their name, on get, list and patch", async () => {
    const { data: created } = await calendar.calendars.insert({ requestBody: { summary: "Projekte" } });
    const calendarId = created.id ?? "";
    const before = await calendar.calendarList.get({ calendarId });
    expect(before.data.summary).toBe("Projekte");
    expect(before.data).not.toHaveProperty("summaryOverride");

    const patched = await calendar.calendarList.patch({
      calendarId,
      requestBody: { summaryOverride: "Meine Projekte", summary: "ignored, read-only" },
    });
    expect(patched.data).toMatchObject({
      id: calendarId,
      summary: "Projekte",
      summaryOverride: "Meine Projekte",
    });
    expect(patched.data.etag).not.toBe(before.data.etag);
    const listed = (await calendar.calendarList.list()).data.items?.find((entry) => entry.id === calendarId);
    expect(listed).toMatchObject({ summary: "Projekte", summaryOverride: "Meine Projekte" });
    // The calendar itself keeps its title.
    expect((await calendar.calendars.get({ calendarId })).data.summary).toBe("Projekte");

    const cleared = await calendar.calendarList.patch({ calendarId, requestBody: { summaryOverride: null } });
    expect(cleared.data).not.toHaveProperty("summaryOverride");
  });

  test("when a patch changes some settings, then only those change; an update replaces them all, what it leaves out taking the defaults", async () => {
    const calendarId = (await calendar.calendars.insert({ requestBody: { summary: "Sport" } })).data.id ?? "";
    await calendar.calendarList.patch({
      calendarId,
      requestBody: {
        summaryOverride: "Training",
        hidden: true,
        selected: true,
        colorId: "7",
        defaultReminders: [{ method: "email", minutes: 60 }],
        notificationSettings: { notifications: [{ type: "eventChange", method: "email" }] },
      },
    });
    const patched = await calendar.calendarList.patch({ calendarId, requestBody: { selected: false } });
    expect(patched.data).toMatchObject({
      summaryOverride: "Training",
      hidden: true,
      colorId: "7",
      backgroundColor: "#42d692",
      defaultReminders: [{ method: "email", minutes: 60 }],
      notificationSettings: { notifications: [{ type: "eventChange", method: "email" }] },
    });
    expect(patched.data.selected).toBeUndefined();

    const updated = await calendar.calendarList.update({ calendarId, requestBody: { selected: true } });
    expect(updated.data).toMatchObject({
      summary: "Sport",
      selected: true,
      colorId: "7",
      defaultReminders: [],
    });
    expect(updated.data).not.toHaveProperty("summaryOverride");
    expect(updated.data).not.toHaveProperty("hidden");
    expect(updated.data).not.toHaveProperty("notificationSettings");
  });

  test("when colours are written, then they change only with colorRgbFormat=true, colorId becoming the nearest of the palette", async () => {
    const calendarId =
      (await calendar.calendars.insert({ requestBody: { summary: "Farben" } })).data.id ?? "";
    const { data: before } = await calendar.calendarList.get({ calendarId });
    const colours = { backgroundColor: "#ff0000", foregroundColor: "#ffffff" };
    const ignored = await calendar.calendarList.patch({ calendarId, requestBody: colours });
    expect(ignored.data).toMatchObject({
      colorId: before.colorId,
      backgroundColor: before.backgroundColor,
      foregroundColor: before.foregroundColor,
    });
    const written = await calendar.calendarList.patch({
      calendarId,
      colorRgbFormat: true,
      requestBody: colours,
    });
    expect(written.data).toMatchObject({ ...colours, colorId: "3" });
    const bad = await googleError(
      calendar.calendarList.patch({
        calendarId,
        colorRgbFormat: true,
        requestBody: { backgroundColor: "red" },
      }),
    );
    expect(bad).toMatchObject({ status: 400, reason: "invalid" });
  });

  test("when a calendar the user can see is inserted into their list, then it is listed with the settings given; one they cannot see, or none, is 404 notFound", async () => {
    const calendarId = await sharedCalendar("Team");
    expect((await calendar.calendarList.list()).data.items?.map((entry) => entry.id)).not.toContain(
      calendarId,
    );
    const inserted = await calendar.calendarList.insert({
      requestBody: { id: calendarId, summaryOverride: "Das Team", colorId: "12", accessRole: "owner" },
    });
    expect(inserted.data).toMatchObject({
      kind: "calendar#calendarListEntry",
      id: calendarId,
      summary: "Team",
      summaryOverride: "Das Team",
      colorId: "12",
      accessRole: "reader",
    });
    expect((await calendar.calendarList.list()).data.items?.map((entry) => entry.id)).toContain(calendarId);

    const notShared = (
      await harness.calendar(TEST_ADMIN).calendars.insert({ requestBody: { summary: "Privat" } })
    ).data.id;
    for (const id of [notShared, "nobody@group.calendar.google.com"]) {
      const refused = await googleError(calendar.calendarList.insert({ requestBody: { id } }));
      expect(refused).toMatchObject({ status: 404, reason: "notFound", message: "Not Found" });
    }
    const missing = await googleError(
      calendar.calendarList.insert({ requestBody: { summaryOverride: "x" } }),
    );
    expect(missing).toMatchObject({ status: 400, reason: "required" });
  });

  test("when a calendar not on the user's list is patched or updated, then 404 notFound", async () => {
    const calendarId = await sharedCalendar("Nicht abonniert");
    for (const call of [
      calendar.calendarList.patch({ calendarId, requestBody: { hidden: true } }),
      calendar.calendarList.update({ calendarId, requestBody: { hidden: true } }),
      calendar.calendarList.patch({ calendarId: "nobody@group.calendar.google.com", requestBody: {} }),
    ]) {
      expect(await googleError(call)).toMatchObject({ status: 404, reason: "notFound" });
    }
  });

  test("when settings have the wrong type or value, then 400 invalid and the entry is unchanged", async () => {
    const calendarId =
      (await calendar.calendars.insert({ requestBody: { summary: "Streng" } })).data.id ?? "";
    const { data: before } = await calendar.calendarList.get({ calendarId });
    const bodies: Record<string, unknown>[] = [
      { hidden: "yes" },
      { colorId: "99" },
      { summaryOverride: 5 },
      { defaultReminders: [{ method: "sms", minutes: 10 }] },
      { defaultReminders: [{ method: "popup", minutes: 40_321 }] },
      { notificationSettings: { notifications: [{ type: "eventCreation", method: "sms" }] } },
    ];
    for (const requestBody of bodies) {
      const refused = await googleError(calendar.calendarList.patch({ calendarId, requestBody }));
      expect([requestBody, refused.status, refused.reason]).toEqual([requestBody, 400, "invalid"]);
    }
    expect((await calendar.calendarList.get({ calendarId })).data).toEqual(before);
  });

  test("when a token has only calendar.readonly, then the writes answer 403 insufficientPermissions", async () => {
    const readonly = harness.calendar(TEST_USER, [SCOPES.calendarReadonly]);
    const refused = await googleError(
      readonly.calendarList.patch({ calendarId: "primary", requestBody: { summaryOverride: "x" } }),
    );
    expect(refused).toMatchObject({ status: 403, reason: "insufficientPermissions" });
  });

  test("when an entry changes, then an incremental list with the sync token returns it with its new settings", async () => {
    const { data: full } = await calendar.calendarList.list({ maxResults: 250 });
    await calendar.calendarList.patch({ calendarId: "primary", requestBody: { summaryOverride: "Ich" } });
    const { data: changes } = await calendar.calendarList.list({ syncToken: full.nextSyncToken ?? "" });
    expect(changes.items?.map((entry) => [entry.id, entry.summary, entry.summaryOverride])).toEqual([
      [TEST_USER, TEST_USER, "Ich"],
    ]);
  });
});
