import type { calendar_v3 } from "@googleapis/calendar";
import { TEST_ADMIN, TEST_USER, googleError } from "../testing/harness";
import type { AwkwardCalendarResult } from "./generator";
import { startCalendarHarness, type CalendarHarness } from "./testing-calendar";

let harness: CalendarHarness;
let calendar: calendar_v3.Calendar;

beforeAll(async () => {
  // These tests check Calendar's answers, not timing: the latency model is off for this file's emulator.
  harness = await startCalendarHarness({ quota: { enabled: false }, latency: { enabled: false } });
  calendar = harness.calendar(TEST_USER);
});
afterAll(() => harness.stop());

describe("a recurring series with its exceptions", () => {
  let awkward: AwkwardCalendarResult;
  beforeAll(async () => {
    const { status, body } = await harness.admin<AwkwardCalendarResult>(
      "POST",
      `/users/${TEST_USER}/calendar:awkward`,
      {
        days: 60,
        attendees: 250,
        firstDay: "2026-03-02",
      },
    );
    expect(status).toBe(200);
    awkward = body;
  });

  test("when events are listed without singleEvents, then the series is one event with recurrence and its changed and cancelled instances are separate events", async () => {
    const { data } = await calendar.events.list({ calendarId: "primary", maxResults: 2500 });
    const items = data.items ?? [];
    const series = items.find((item) => item.id === awkward.seriesId);
    expect(series).toMatchObject({
      recurrence: ["RRULE:FREQ=DAILY;COUNT=60"],
      start: { dateTime: "2026-03-02T08:00:00Z", timeZone: "Europe/Zurich" },
    });
    const exceptions = items.filter((item) => item.recurringEventId === awkward.seriesId);
    const cancelled = exceptions.filter((item) => item.status === "cancelled");
    expect(cancelled).toHaveLength(awkward.cancelledInstances);
    expect(exceptions).toHaveLength(awkward.changedInstances + awkward.cancelledInstances);
    // A cancelled instance carries only its identity; its id names the original start in UTC.
    expect(cancelled[0]).toEqual({
      kind: "calendar#event",
      etag: expect.any(String) as string,
      id: expect.stringMatching(new RegExp(`^${awkward.seriesId}_\\d{8}T\\d{6}Z$`)) as string,
      status: "cancelled",
      recurringEventId: awkward.seriesId,
      originalStartTime: expect.objectContaining({ timeZone: "Europe/Zurich" }) as object,
    });
    const moved = exceptions.find((item) => item.status === "confirmed");
    expect(moved?.summary).toMatch(/^Daily stand-up \(moved/);
  });

  test("when the series' instances are asked for, then daylight saving keeps their wall-clock time and cancelled ones are left out", async () => {
    const { data } = await calendar.events.instances({
      calendarId: "primary",
      eventId: awkward.seriesId,
      maxResults: 2500,
    });
    const items = data.items ?? [];
    expect(items).toHaveLength(60 - awkward.cancelledInstances);
    // Switzerland moves to summer time on 29 March 2026: 09:00 local is 08:00Z before, 07:00Z after.
    const april = items.find((item) => item.originalStartTime?.dateTime?.startsWith("2026-04-01"));
    expect(april?.id).toBe(`${awkward.seriesId}_20260401T070000Z`);
    const single = await calendar.events.get({ calendarId: "primary", eventId: april?.id ?? "" });
    expect(single.data).toMatchObject({
      recurringEventId: awkward.seriesId,
      start: { dateTime: "2026-04-01T07:00:00Z" },
    });
    const expanded = await calendar.events.list({
      calendarId: "primary",
      singleEvents: true,
      orderBy: "startTime",
      timeMin: "2026-03-02T00:00:00Z",
      timeMax: "2026-03-09T00:00:00Z",
    });
    const standUps = (expanded.data.items ?? []).filter((item) => item.recurringEventId === awkward.seriesId);
    expect(standUps.length).toBeGreaterThanOrEqual(5);
    expect(standUps.every((item) => !item.recurrence && item.status !== "cancelled")).toBe(true);
    const unordered = await googleError(
      calendar.events.list({ calendarId: "primary", orderBy: "startTime" }),
    );
    expect(unordered.status).toBe(400);
  });

  test("when a meeting has hundreds of attendees and maxAttendees is small, then only the caller is returned with attendeesOmitted", async () => {
    const full = await calendar.events.get({ calendarId: "primary", eventId: awkward.bigMeetingId });
    expect(full.data.attendees).toHaveLength(251);
    expect(new Set(full.data.attendees?.map((attendee) => attendee.responseStatus))).toEqual(
      new Set(["accepted", "declined", "tentative", "needsAction"]),
    );
    const few = await calendar.events.get({
      calendarId: "primary",
      eventId: awkward.bigMeetingId,
      maxAttendees: 10,
    });
    expect(few.data).toMatchObject({ attendeesOmitted: true, attendees: [{ email: TEST_USER, self: true }] });
    const external = await calendar.events.get({ calendarId: "primary", eventId: awkward.externalEventId });
    expect(external.data).toMatchObject({
      iCalUID: awkward.externalICalUID,
      organizer: { email: "lena.meier@bergwerk-partner.test", displayName: "Lena Meier" },
    });
  });
});

test("when the awkward cases are added with their defaults, then the daily series runs three years and its instances list in pages", async () => {
  const { body } = await harness.admin<AwkwardCalendarResult>(
    "POST",
    `/users/${TEST_ADMIN}/calendar:awkward`,
    {},
  );
  expect(body.changedInstances + body.cancelledInstances).toBeGreaterThanOrEqual(250);
  const admin = harness.calendar(TEST_ADMIN);
  let count = 0;
  let pageToken: string | undefined;
  do {
    const { data } = await admin.events.instances({
      calendarId: "primary",
      eventId: body.seriesId,
      maxResults: 500,
      pageToken,
    });
    count += data.items?.length ?? 0;
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);
  expect(count).toBe(3 * 365 - body.cancelledInstances);
});

describe("events.import and events.insert", () => {
  test("when an event is imported, then it keeps its iCalUID and organizer, a second import updates it, and an exception joins its series", async () => {
    const iCalUID = "restore-1@elsewhere.test";
    const body = {
      iCalUID,
      summary: "Importiert",
      organizer: { email: "chef@aussen.test" },
      start: { date: "2026-05-04" },
      end: { date: "2026-05-05" },
      attendees: [{ email: "chef@aussen.test", responseStatus: "accepted" }, { email: TEST_USER }],
    };
    const first = await calendar.events.import({ calendarId: "primary", requestBody: body });
    expect(first.data).toMatchObject({
      iCalUID,
      organizer: { email: "chef@aussen.test" },
      start: { date: "2026-05-04" },
    });
    const again = await calendar.events.import({
      calendarId: "primary",
      requestBody: { ...body, summary: "Geändert" },
    });
    expect(again.data).toMatchObject({ id: first.data.id, summary: "Geändert" });
    const found = await calendar.events.list({ calendarId: "primary", iCalUID });
    expect(found.data.items).toHaveLength(1);

    const seriesUID = "series-1@elsewhere.test";
    const series = await calendar.events.import({
      calendarId: "primary",
      requestBody: {
        iCalUID: seriesUID,
        summary: "Wöchentlich",
        start: { dateTime: "2026-06-01T14:00:00+02:00", timeZone: "Europe/Zurich" },
        end: { dateTime: "2026-06-01T15:00:00+02:00", timeZone: "Europe/Zurich" },
        recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4"],
      },
    });
    const occurrence = { dateTime: "2026-06-08T14:00:00+02:00", timeZone: "Europe/Zurich" };
    const cancelled = await calendar.events.import({
      calendarId: "primary",
      requestBody: {
        iCalUID: seriesUID,
        status: "cancelled",
        originalStartTime: occurrence,
        start: occurrence,
        end: { dateTime: "2026-06-08T15:00:00+02:00", timeZone: "Europe/Zurich" },
      },
    });
    expect(cancelled.data).toMatchObject({
      id: `${series.data.id}_20260608T120000Z`,
      status: "cancelled",
      recurringEventId: series.data.id,
    });
    const instances = await calendar.events.instances({
      calendarId: "primary",
      eventId: series.data.id ?? "",
    });
    expect(instances.data.items).toHaveLength(3);
    // Deleting the series takes its exceptions with it: a full listing shows neither.
    await calendar.events.delete({ calendarId: "primary", eventId: series.data.id ?? "" });
    const afterDelete = await calendar.events.list({ calendarId: "primary", iCalUID: seriesUID });
    expect(afterDelete.data.items).toEqual([]);
    const withDeleted = await calendar.events.list({
      calendarId: "primary",
      iCalUID: seriesUID,
      showDeleted: true,
    });
    expect(withDeleted.data.items?.map((item) => item.status)).toEqual(["cancelled", "cancelled"]);
    // With singleEvents, the deleted series comes as its four instances, cancelled, not as the series.
    const single = await calendar.events.list({
      calendarId: "primary",
      iCalUID: seriesUID,
      showDeleted: true,
      singleEvents: true,
    });
    expect(single.data.items?.map((item) => [item.recurringEventId, item.status])).toEqual(
      Array.from({ length: 4 }, () => [series.data.id, "cancelled"]),
    );
  });

  test("when a cancelled instance is imported without start or end, then Calendar answers 400 required, as for any import", async () => {
    const seriesUID = "series-2@elsewhere.test";
    const zone = "Europe/Zurich";
    await calendar.events.import({
      calendarId: "primary",
      requestBody: {
        iCalUID: seriesUID,
        summary: "Täglich",
        start: { dateTime: "2026-07-01T08:00:00+02:00", timeZone: zone },
        end: { dateTime: "2026-07-01T08:30:00+02:00", timeZone: zone },
        recurrence: ["RRULE:FREQ=DAILY;COUNT=5"],
      },
    });
    const occurrence = { dateTime: "2026-07-02T08:00:00+02:00", timeZone: zone };
    const cancelled = { iCalUID: seriesUID, status: "cancelled", originalStartTime: occurrence };
    const bare = await googleError(calendar.events.import({ calendarId: "primary", requestBody: cancelled }));
    expect(bare).toMatchObject({ status: 400, reason: "required", message: "Missing start time." });
    expect(bare.body).toMatchObject({
      error: { code: 400, message: "Missing start time.", errors: [{ reason: "required" }] },
    });
    const noEnd = await googleError(
      calendar.events.import({ calendarId: "primary", requestBody: { ...cancelled, start: occurrence } }),
    );
    expect(noEnd).toMatchObject({ status: 400, reason: "required", message: "Missing end time." });
    const listed = await calendar.events.list({ calendarId: "primary", iCalUID: seriesUID });
    expect(listed.data.items?.map((item) => item.status)).toEqual(["confirmed"]);
  });

  test("when an import is not a default event or lacks its iCalUID, then Calendar answers 400", async () => {
    const times = { start: { dateTime: "2026-05-06T10:00:00Z" }, end: { dateTime: "2026-05-06T11:00:00Z" } };
    const ooo = await googleError(
      calendar.events.import({
        calendarId: "primary",
        requestBody: { iCalUID: "ooo@x.test", eventType: "outOfOffice", ...times },
      }),
    );
    expect(ooo.status).toBe(400);
    const missing = await googleError(
      calendar.events.import({ calendarId: "primary", requestBody: { ...times } }),
    );
    expect(missing).toMatchObject({ status: 400, reason: "required" });
    const empty = await googleError(
      calendar.events.insert({ calendarId: "primary", requestBody: { start: times.end, end: times.start } }),
    );
    expect(empty).toMatchObject({ status: 400, reason: "timeRangeEmpty" });
  });

  test("when special event types are inserted, then Google's rules apply: primary calendar only, focus time timed, working location public and transparent", async () => {
    const timed = { start: { dateTime: "2026-05-07T09:00:00Z" }, end: { dateTime: "2026-05-07T11:00:00Z" } };
    const focus = await calendar.events.insert({
      calendarId: "primary",
      requestBody: {
        eventType: "focusTime",
        focusTimeProperties: {
          autoDeclineMode: "declineOnlyNewConflictingInvitations",
          chatStatus: "doNotDisturb",
        },
        ...timed,
      },
    });
    expect(focus.data).toMatchObject({
      eventType: "focusTime",
      focusTimeProperties: { chatStatus: "doNotDisturb" },
    });
    const ooo = await calendar.events.insert({
      calendarId: "primary",
      requestBody: {
        eventType: "outOfOffice",
        outOfOfficeProperties: { declineMessage: "Ferien" },
        ...timed,
      },
    });
    expect(ooo.data.outOfOfficeProperties).toEqual({ declineMessage: "Ferien" });
    const allDay = { start: { date: "2026-05-08" }, end: { date: "2026-05-09" } };
    expect(
      (
        await googleError(
          calendar.events.insert({
            calendarId: "primary",
            requestBody: { eventType: "focusTime", ...allDay },
          }),
        )
      ).status,
    ).toBe(400);
    const home = {
      eventType: "workingLocation",
      workingLocationProperties: { type: "homeOffice", homeOffice: {} },
      ...allDay,
    };
    expect(
      (await googleError(calendar.events.insert({ calendarId: "primary", requestBody: home }))).status,
    ).toBe(400);
    const working = await calendar.events.insert({
      calendarId: "primary",
      requestBody: { ...home, visibility: "public", transparency: "transparent" },
    });
    expect(working.data).toMatchObject({
      eventType: "workingLocation",
      workingLocationProperties: { type: "homeOffice" },
    });
    const secondary = (await calendar.calendars.insert({ requestBody: { summary: "Zweit" } })).data.id ?? "";
    expect(
      (
        await googleError(
          calendar.events.insert({
            calendarId: secondary,
            requestBody: { eventType: "focusTime", ...timed },
          }),
        )
      ).status,
    ).toBe(400);
  });

  test("when attachments and conference data are sent, then they are kept only with supportsAttachments and conferenceDataVersion=1", async () => {
    const requestBody = {
      summary: "Mit Anhang",
      start: { dateTime: "2026-05-11T09:00:00Z" },
      end: { dateTime: "2026-05-11T10:00:00Z" },
      attachments: [
        {
          fileUrl: "https://drive.google.com/open?id=abc",
          title: "Protokoll",
          mimeType: "application/pdf",
          fileId: "abc",
        },
      ],
      conferenceData: {
        conferenceId: "abc-defg-hij",
        conferenceSolution: { key: { type: "hangoutsMeet" } },
        entryPoints: [{ entryPointType: "video", uri: "https://meet.google.com/abc-defg-hij" }],
      },
      reminders: { useDefault: false, overrides: [{ method: "popup", minutes: 30 }] },
    };
    const dropped = await calendar.events.insert({ calendarId: "primary", requestBody });
    expect(dropped.data.attachments).toBeUndefined();
    expect(dropped.data.conferenceData).toBeUndefined();
    const kept = await calendar.events.insert({
      calendarId: "primary",
      supportsAttachments: true,
      conferenceDataVersion: 1,
      requestBody,
    });
    expect(kept.data.attachments).toEqual(requestBody.attachments);
    expect(kept.data.conferenceData).toEqual(requestBody.conferenceData);
    expect(kept.data.reminders).toEqual(requestBody.reminders);
    const duplicate = await googleError(
      calendar.events.insert({ calendarId: "primary", requestBody: { ...requestBody, id: kept.data.id } }),
    );
    expect(duplicate).toMatchObject({ status: 409, reason: "duplicate" });
  });
});
