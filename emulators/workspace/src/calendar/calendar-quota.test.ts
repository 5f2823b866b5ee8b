import { ManualClock } from "../../../kit/src/index";
import { SCOPES } from "../auth";
import type { QuotaStats } from "../quota-models";
import { TEST_USER, googleError } from "../testing/harness";
import { startCalendarHarness, type CalendarHarness } from "./testing-calendar";

describe("Calendar's per-minute quotas", () => {
  let harness: CalendarHarness;
  // The quota minute passes on the emulator's clock, which only the test moves.
  const clock = new ManualClock();
  beforeAll(async () => {
    // Quota refusals do not depend on answer times: the latency model is off for this file's emulators.
    harness = await startCalendarHarness({ latency: { enabled: false }, clock });
  });
  afterAll(() => harness.stop());

  test("when a user makes more than 600 requests in a minute, then Calendar answers 403 rateLimitExceeded until the minute has passed", async () => {
    const calendar = harness.calendar(TEST_USER);
    let succeeded = 0;
    let failure: Awaited<ReturnType<typeof googleError>> | undefined;
    for (let call = 0; call < 700 && !failure; call += 1) {
      try {
        await calendar.calendarList.get({ calendarId: "primary" }, { retry: false });
        succeeded += 1;
      } catch (error) {
        failure = await googleError(Promise.reject(error));
      }
    }
    expect(succeeded).toBe(600);
    expect(failure?.body).toEqual({
      error: {
        code: 403,
        message: "Rate Limit Exceeded",
        errors: [{ message: "Rate Limit Exceeded", domain: "usageLimits", reason: "rateLimitExceeded" }],
        status: "PERMISSION_DENIED",
      },
    });
    const { body } = await harness.admin<QuotaStats>("GET", "/stats");
    expect(body.users[TEST_USER]?.["calendar.calendarList.get"]).toEqual({
      calls: 600,
      units: 600,
      rejected: 1,
    });
    await clock.advance(60_000);
    await expect(calendar.calendarList.get({ calendarId: "primary" })).resolves.toMatchObject({
      status: 200,
    });
  });

  test("when the project makes more than 10,000 requests in a minute, then Calendar names its service in the 403", async () => {
    const calendar = harness.calendar(TEST_USER);
    await calendar.calendarList.get({ calendarId: "primary" });
    for (;;) {
      try {
        harness.emulator.quota.begin("calendar.events.list", undefined)();
      } catch {
        break;
      }
    }
    const failure = await googleError(calendar.calendarList.list({}, { retry: false }));
    expect(failure).toMatchObject({ status: 403, reason: "rateLimitExceeded" });
    expect(failure.message).toBe(
      "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'calendar-json.googleapis.com' for consumer 'project_number:104857600'.",
    );
    await clock.advance(60_000);
  });
});

describe("scopes", () => {
  let harness: CalendarHarness;
  beforeAll(async () => {
    // Scope checks do not depend on answer times: the latency model is off.
    harness = await startCalendarHarness({ quota: { enabled: false }, latency: { enabled: false } });
  });
  afterAll(() => harness.stop());

  test("when a token lacks a Calendar scope, then Calendar answers 403 insufficientPermissions; a read-only token reads but cannot write", async () => {
    const gmailOnly = harness.calendar(TEST_USER, [SCOPES.gmailReadonly]);
    const refused = await googleError(gmailOnly.calendarList.list());
    expect(refused).toMatchObject({
      status: 403,
      reason: "insufficientPermissions",
      message: "Request had insufficient authentication scopes.",
    });
    const reader = harness.calendar(TEST_USER, [SCOPES.calendarReadonly]);
    await expect(reader.events.list({ calendarId: "primary" })).resolves.toMatchObject({ status: 200 });
    const write = await googleError(
      reader.events.insert({
        calendarId: "primary",
        requestBody: { start: { date: "2026-07-01" }, end: { date: "2026-07-02" } },
      }),
    );
    expect(write).toMatchObject({ status: 403, reason: "insufficientPermissions" });
    const events = harness.calendar(TEST_USER, [SCOPES.calendarEvents]);
    expect((await googleError(events.acl.list({ calendarId: "primary" }))).status).toBe(403);
    await expect(
      events.events.insert({
        calendarId: "primary",
        requestBody: { start: { date: "2026-07-01" }, end: { date: "2026-07-02" } },
      }),
    ).resolves.toMatchObject({ status: 200 });
  });
});

describe("snapshot and restore", () => {
  test("when the emulator's state is saved and restored, then calendars, rules, events and sync tokens survive", async () => {
    // State only, no timing: the latency model is off.
    const before = await startCalendarHarness({ quota: { enabled: false }, latency: { enabled: false } });
    const calendar = before.calendar(TEST_USER);
    const { data: created } = await calendar.calendars.insert({
      requestBody: { summary: "Restored 2026-12-01" },
    });
    const calendarId = created.id ?? "";
    await calendar.acl.insert({
      calendarId,
      requestBody: { role: "writer", scope: { type: "user", value: "b@x.test" } },
    });
    await calendar.events.insert({
      calendarId,
      requestBody: {
        summary: "Serie",
        start: { dateTime: "2026-07-01T08:00:00", timeZone: "Europe/Zurich" },
        end: { dateTime: "2026-07-01T09:00:00", timeZone: "Europe/Zurich" },
        recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260731T000000Z"],
      },
    });
    const listed = await calendar.events.list({ calendarId });
    const snapshot: unknown = JSON.parse(JSON.stringify(before.emulator.snapshot()));
    await before.stop();

    const after = await startCalendarHarness({
      quota: { enabled: false },
      latency: { enabled: false },
      empty: true,
    });
    try {
      after.emulator.restore(snapshot as ReturnType<typeof after.emulator.snapshot>);
      const restored = after.calendar(TEST_USER);
      expect((await restored.calendars.get({ calendarId })).data.summary).toBe("Restored 2026-12-01");
      const { data } = await restored.events.list({ calendarId });
      expect(data.items).toEqual(listed.data.items);
      const rules = await restored.acl.list({ calendarId });
      expect(rules.data.items?.map((rule) => rule.id).sort()).toEqual(["user:b@x.test", `user:${TEST_USER}`]);
      const changes = await restored.events.list({ calendarId, syncToken: listed.data.nextSyncToken ?? "" });
      expect(changes.data.items).toEqual([]);
      const instances = await restored.events.instances({ calendarId, eventId: data.items?.[0]?.id ?? "" });
      expect(instances.data.items).toHaveLength(9);
    } finally {
      await after.stop();
    }
  });
});

describe("latency", () => {
  let harness: CalendarHarness;
  // Answers take their time on the emulator's clock, which the test moves.
  const clock = new ManualClock();
  beforeAll(async () => {
    harness = await startCalendarHarness({ quota: { enabled: false }, clock });
  });
  afterAll(() => harness.stop());

  test("when events are listed and inserted, then each answer takes its draw of the Calendar entries of the latency model", async () => {
    const calendar = harness.calendar(TEST_USER);
    await clock.run(calendar.calendarList.get({ calendarId: "primary" })); // the token
    expect((await harness.admin("PATCH", "/latency", { seed: 2026 })).status).toBe(200);
    const model = harness.emulator.latency;
    expect(model.parameters("calendar.events.list").medianMs).toBe(200);
    expect(model.parameters("calendar.events.import").medianMs).toBe(320);
    for (let call = 0; call < 5; call += 1) {
      let started = clock.now();
      await clock.run(calendar.events.list({ calendarId: "primary" }));
      expect(
        Math.abs(clock.now() - started - model.sample("calendar.events.list", call)),
      ).toBeLessThanOrEqual(1);
      started = clock.now();
      const body = { start: { date: "2026-08-03" }, end: { date: "2026-08-04" } };
      await clock.run(calendar.events.insert({ calendarId: "primary", requestBody: body }));
      expect(
        Math.abs(clock.now() - started - model.sample("calendar.events.insert", call)),
      ).toBeLessThanOrEqual(1);
    }
  });
});
