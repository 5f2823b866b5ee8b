/**
 * Recovering calendars through the API, end to end on the stack: a user's backed-up calendars lose a
 * single event, a recurring series (with a changed and a cancelled instance) and a whole secondary
 * calendar at Google. A recovery to the original place imports the events back with their iCalUIDs, the
 * series whole with its exceptions, recreates the lost calendar with its event, and skips the calendar the
 * user still has; a recovery into a new calendar puts every event into one calendar of the name asked.
 * Their export is a ZIP of one iCalendar file per calendar, read back by parsers nobody here wrote
 * (Python's zipfile, Mozilla's ical.js).
 */
import { BROWSE_MESSAGES, type BrowseResponse } from "@alpvault/contracts/browse";
import type { ExportJob } from "@alpvault/contracts/exports";
import type { SearchResponse } from "@alpvault/contracts/search";
import type { RegionId } from "@alpvault/contracts/regions";
import { RECOVERY_ITEM_REASONS, type Recovery } from "@alpvault/contracts/recovery";
import type { calendar_v3 } from "@googleapis/calendar";
import ICAL from "ical.js";
import { SCOPES } from "../../emulators/workspace/src/index";
import {
  backdateCatalog,
  backedUpWithPolicy,
  backupNow,
  finishedRun,
  itemsOf,
  type StoredRun,
} from "../support/backup-runs";
import { exportsOf, unzipWithPython } from "../support/exports";
import { startExport } from "../../functions/src/export/jobs";
import { executeExport } from "../../functions/src/export/job";
import { exportDeps } from "../../functions/src/export/task";
import { onboarded, setAccount } from "../support/organizations";
import { recoveriesOf, resumeDeadRecovery } from "../support/recoveries";
import { calendarFor } from "../support/workspace";
import { termsBody } from "../support/requests";

jest.setTimeout(180_000);

let setup: Awaited<ReturnType<typeof onboarded>>;
let resourceId: string;
let calendar: calendar_v3.Calendar;
let single: calendar_v3.Schema$Event;
let series: calendar_v3.Schema$Event;
let projectsName: string;

const recover = (body: Record<string, unknown>) => recoveriesOf(setup.call, setup.organization).start(body);
const finished = (recoveryId: string) => recoveriesOf(setup.call, setup.organization).finished(recoveryId);

async function report(recoveryId: string): Promise<string> {
  const answer = await setup.call(
    `/organizations/${setup.organization.organizationId}/recoveries/${recoveryId}/report`,
  );
  expect(answer.status).toBe(200);
  return answer.bytes.toString("utf8");
}

/** The user's events of a calendar with this iCalUID (what Google's `iCalUID` filter finds). */
async function withICalUID(calendarId: string, iCalUID: string) {
  const { data } = await calendar.events.list({ calendarId, iCalUID, showDeleted: false });
  return data.items ?? [];
}

/** A series' instances as Google expands them: original start, summary, cancelled or not. */
async function instancesOf(calendarId: string, eventId: string) {
  const { data } = await calendar.events.instances({ calendarId, eventId, showDeleted: true });
  return (data.items ?? []).map((instance) => ({
    original: instance.originalStartTime?.dateTime,
    summary: instance.summary,
    status: instance.status,
  }));
}

async function calendarNamed(summary: string): Promise<string | undefined> {
  const { data } = await calendar.calendarList.list({ showHidden: true });
  return (data.items ?? []).find((entry) => entry.summary === summary)?.id ?? undefined;
}

beforeAll(async () => {
  setup = await onboarded();
  const { organization, workspace } = setup;
  await setAccount(organization, { planId: "zurich", seats: 5 });
  calendar = calendarFor(workspace.user, [SCOPES.calendar]);
  const marker = organization.organizationId;
  single = (
    await calendar.events.insert({
      calendarId: "primary",
      requestBody: {
        summary: `Board meeting ${marker}`,
        start: { dateTime: "2027-03-01T09:00:00Z" },
        end: { dateTime: "2027-03-01T10:00:00Z" },
      },
    })
  ).data;
  series = (
    await calendar.events.insert({
      calendarId: "primary",
      requestBody: {
        summary: "Weekly sync",
        start: { dateTime: "2027-03-02T09:00:00", timeZone: "Europe/Zurich" },
        end: { dateTime: "2027-03-02T09:30:00", timeZone: "Europe/Zurich" },
        recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4"],
      },
    })
  ).data;
  const instances = (await calendar.events.instances({ calendarId: "primary", eventId: series.id! })).data
    .items!;
  // The second week's meeting changed (an exception imported into the series), the third's cancelled.
  await calendar.events.import({
    calendarId: "primary",
    requestBody: {
      iCalUID: series.iCalUID!,
      originalStartTime: instances[1]!.originalStartTime!,
      summary: "Weekly sync (moved)",
      start: { dateTime: "2027-03-09T14:00:00", timeZone: "Europe/Zurich" },
      end: { dateTime: "2027-03-09T14:30:00", timeZone: "Europe/Zurich" },
      sequence: 1,
    },
  });
  await calendar.events.delete({ calendarId: "primary", eventId: instances[2]!.id! });
  projectsName = `Projects ${marker}`;
  const projects = (await calendar.calendars.insert({ requestBody: { summary: projectsName } })).data.id!;
  await calendar.events.insert({
    calendarId: projects,
    requestBody: {
      summary: "Projekt Säntis",
      start: { date: "2027-03-08" },
      end: { date: "2027-03-09" },
    },
  });

  let run: StoredRun;
  ({ resourceId, run } = await backedUpWithPolicy(setup, "Calendars", ["calendars"]));
  expect(run.services).toMatchObject({ calendar: { state: "succeeded" } });

  // Lost at Google: the single event, the whole series, and the secondary calendar with its event.
  await calendar.events.delete({ calendarId: "primary", eventId: single.id! });
  await calendar.events.delete({ calendarId: "primary", eventId: series.id! });
  await calendar.calendars.delete({ calendarId: projects });
});

describe("a user's calendars recovered", () => {
  test("when they are recovered to the original place, then the events come back with their iCalUIDs, the series with its changed and cancelled instances, and the lost calendar is recreated with its event", async () => {
    const started = await recover({
      resourceId,
      service: "calendar",
      location: "original",
      method: "overwrite",
    });
    expect(started.status).toBe(202);
    const recovery = await finished((started.body as Recovery).recoveryId);
    expect(recovery).toMatchObject({ state: "succeeded", progress: { failed: 0, skipped: 1 } });
    expect(recovery.progress.restored).toBeGreaterThanOrEqual(5);

    const [restoredSingle] = await withICalUID("primary", single.iCalUID!);
    expect(restoredSingle).toMatchObject({
      summary: single.summary,
      start: { dateTime: "2027-03-01T09:00:00Z" },
    });
    const seriesEvents = await withICalUID("primary", series.iCalUID!);
    const restoredSeries = seriesEvents.find((event) => event.recurrence);
    expect(restoredSeries?.recurrence).toEqual(["RRULE:FREQ=WEEKLY;COUNT=4"]);
    const instances = await instancesOf("primary", restoredSeries!.id!);
    expect(instances.map((instance) => [instance.summary, instance.status])).toEqual([
      ["Weekly sync", "confirmed"],
      ["Weekly sync (moved)", "confirmed"],
      [undefined, "cancelled"],
      ["Weekly sync", "confirmed"],
    ]);

    const projects = await calendarNamed(projectsName);
    expect(projects).toBeDefined();
    const { data } = await calendar.events.list({ calendarId: projects! });
    expect((data.items ?? []).map((event) => event.summary)).toEqual(["Projekt Säntis"]);

    // The primary calendar is still the user's: its entry is skipped as already there.
    const lines = (await report(recovery.recoveryId)).split("\r\n");
    expect(lines.filter((line) => line.includes(RECOVERY_ITEM_REASONS.alreadyThere))).toHaveLength(1);

    // Again: the imports update the events they made, nothing is added twice.
    const again = await recover({
      resourceId,
      service: "calendar",
      location: "original",
      method: "overwrite",
    });
    expect(again.status).toBe(202);
    expect(await finished((again.body as Recovery).recoveryId)).toMatchObject({ state: "succeeded" });
    expect(await withICalUID("primary", single.iCalUID!)).toHaveLength(1);
    expect(await withICalUID("primary", series.iCalUID!)).toHaveLength(seriesEvents.length);
  });

  test("when they are recovered into a new calendar, then one calendar of that name holds every event and the calendars themselves are not recreated", async () => {
    const folderName = `Restored_${Date.now()}`;
    const started = await recover({
      resourceId,
      service: "calendar",
      location: "original",
      method: "folder",
      folderName,
    });
    expect(started.status).toBe(202);
    const recovery = await finished((started.body as Recovery).recoveryId);
    expect(recovery).toMatchObject({ state: "succeeded", progress: { failed: 0 } });
    const restored = await calendarNamed(folderName);
    expect(restored).toBeDefined();
    const { data } = await calendar.events.list({ calendarId: restored!, singleEvents: false });
    expect((data.items ?? []).map((event) => event.summary).sort()).toEqual(
      [single.summary, "Projekt Säntis", "Weekly sync", "Weekly sync (moved)"].sort(),
    );
    const lines = (await report(recovery.recoveryId)).split("\r\n");
    expect(lines.filter((line) => line.includes(RECOVERY_ITEM_REASONS.calendarNotRecreated))).toHaveLength(2);
  });

  test("when a delivery stopped after Google recreated a lost calendar, then the next one takes that calendar for it and makes no second one", async () => {
    const entry = (await itemsOf(setup.organization, resourceId)).find(
      (item) => item.itemKey.startsWith("calendar:") && JSON.stringify(item).includes(projectsName),
    )!;
    const timeZone = (entry as unknown as { search?: { timeZone?: string } }).search?.timeZone;
    // Only the calendar the stopped delivery had made is left of that name (earlier recoveries made others).
    const named = async () =>
      ((await calendar.calendarList.list({ showHidden: true })).data.items ?? []).filter(
        (listed) => listed.summary === projectsName,
      );
    for (const listed of await named()) await calendar.calendars.delete({ calendarId: listed.id! });
    const made = (
      await calendar.calendars.insert({
        requestBody: { summary: projectsName, ...(timeZone ? { timeZone } : {}) },
      })
    ).data;
    const recoveryId = await resumeDeadRecovery(setup.organization, {
      service: "calendar",
      resourceId,
      folderName: "",
      method: "overwrite",
      itemId: entry.itemKey,
      requestedBy: setup.workspace.user,
    });
    expect(await finished(recoveryId)).toMatchObject({
      state: "succeeded",
      progress: { restored: 1, failed: 0 },
    });
    expect((await named()).map((listed) => listed.id)).toEqual([made.id]);
  });
});

describe("a user's calendars searched", () => {
  test("when the calendars are searched by a word of a title, then its events are listed, newest start first, with their calendar, organiser and times; without a word the calendars are listed too", async () => {
    const search = async (query: Record<string, string>) => {
      const answer = await setup.call(`/organizations/${setup.organization.organizationId}/search`, {
        method: "POST",
        body: termsBody(query),
      });
      expect(answer.status).toBe(200);
      return answer.body as Extract<SearchResponse, { service: "calendar" }>;
    };
    const weekly = await search({
      service: "calendar",
      resource: setup.workspace.user,
      keyword: "weekly sync",
    });
    expect(weekly.service).toBe("calendar");
    expect(weekly.results.map((result) => [result.summary, result.start])).toEqual([
      ["Weekly sync (moved)", "2027-03-09T13:00:00.000Z"],
      ["Weekly sync", "2027-03-02T08:00:00.000Z"],
    ]);
    expect(weekly.results[1]).toMatchObject({
      entry: "event",
      organizer: setup.workspace.user.toLowerCase(),
    });
    const all = await search({ service: "calendar", resource: setup.workspace.user });
    expect(
      all.results.filter((result) => result.entry === "calendar").map((result) => result.summary),
    ).toContain(projectsName);
    const holiday = all.results.find((result) => result.summary === "Projekt Säntis");
    expect(holiday).toMatchObject({ calendar: projectsName, start: "2027-03-08", end: "2027-03-09" });
  });
});

const browse = async (query: Record<string, string>) => {
  const answer = await setup.call(
    `/organizations/${setup.organization.organizationId}/resources/${resourceId}/browse`,
    { method: "POST", body: termsBody(query) },
  );
  return answer;
};
const browsed = async (query: Record<string, string>) => {
  const answer = await browse({ service: "calendar", ...query });
  expect(answer.status).toBe(200);
  return answer.body as Extract<BrowseResponse, { service: "calendar" }>;
};
const rows = (answer: Extract<BrowseResponse, { service: "calendar" }>) =>
  answer.results.map((result) => [result.summary, result.start, result.occurrenceOf ?? "event"]);

describe("a user's calendars browsed", () => {
  test("when the primary calendar is browsed by week and by day, then each day shows its events and the series at each occurrence, its changed instance at its own time and its cancelled one not at all", async () => {
    const firstWeek = await browsed({ day: "2027-03-03", span: "week" });
    expect(firstWeek.calendars.map((entry) => entry.name)).toEqual([
      expect.any(String) as string,
      projectsName,
    ]);
    expect(firstWeek.calendar).toBe(firstWeek.calendars[0]!.calendar);
    expect(firstWeek.view).toMatchObject({ span: "week", from: "2027-03-01", to: "2027-03-08" });
    expect(rows(firstWeek)).toEqual([
      [single.summary, "2027-03-01T09:00:00.000Z", "event"],
      ["Weekly sync", "2027-03-02T08:00:00.000Z", "series"],
    ]);
    // A row of the series is the series: the item a recovery or an export takes whole.
    const seriesRow = firstWeek.results[1]!;
    expect(seriesRow.itemId).toMatch(new RegExp(`/${series.id!}$`));
    expect(seriesRow.end).toBe("2027-03-02T08:30:00.000Z");

    const moved = await browsed({ day: "2027-03-09", span: "day" });
    expect(moved.view).toMatchObject({ span: "day", from: "2027-03-09", to: "2027-03-10" });
    expect(rows(moved)).toEqual([["Weekly sync (moved)", "2027-03-09T13:00:00.000Z", "event"]]);
    expect(rows(await browsed({ day: "2027-03-16", span: "day" }))).toEqual([]);
    expect(rows(await browsed({ day: "2027-03-23", span: "day" }))).toEqual([
      ["Weekly sync", "2027-03-23T08:00:00.000Z", "series"],
    ]);
    // After the series' four occurrences, nothing.
    expect(rows(await browsed({ day: "2027-03-30", span: "week" }))).toEqual([]);
  });

  test("when another calendar is browsed, then its all-day event is on its day; a calendar the user does not have, a span or a day that is not one is refused", async () => {
    const first = await browsed({ day: "2027-03-08" });
    const projects = first.calendars.find((entry) => entry.name === projectsName)!;
    const week = await browsed({ calendar: projects.calendar, day: "2027-03-08" });
    expect(rows(week)).toEqual([["Projekt Säntis", "2027-03-08", "event"]]);
    expect(week.results[0]).toMatchObject({ calendar: projectsName, end: "2027-03-09" });

    for (const [query, message] of [
      [{ calendar: "nobody@example.com" }, BROWSE_MESSAGES.invalidCalendar],
      [{ span: "month" }, BROWSE_MESSAGES.invalidSpan],
      [{ day: "03-08-2027" }, BROWSE_MESSAGES.invalidDay],
      [{ group: "all" }, BROWSE_MESSAGES.groupForContacts],
    ] as const) {
      const answer = await browse({ service: "calendar", ...query });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: 400, message });
    }
  });
});

describe("a user's calendars exported", () => {
  test("when the calendars are exported, then the ZIP holds one iCalendar file per calendar whose events an independent parser reads back as Google had them", async () => {
    const exports = exportsOf(setup.call, setup.organization);
    const started = await exports.start({ resourceId, service: "calendar" });
    expect(started.status).toBe(202);
    const job = await exports.finished((started.body as ExportJob).exportId);
    expect(job).toMatchObject({ state: "succeeded", format: "ics", progress: { failed: 0 } });
    expect(job.fileName).toMatch(/\.zip$/);
    const files = unzipWithPython((await exports.download(job.exportId)).bytes);
    expect(files.size).toBe(2);
    const calendarOf = (name: string) => {
      const text = files.get(name)!.toString("utf8");
      // RFC 5545 §3.1: CRLF line ends, no line longer than 75 octets.
      for (const line of text.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
      return new ICAL.Component(ICAL.parse(text) as unknown[]);
    };

    const projects = calendarOf(`${projectsName}.ics`);
    expect(projects.getFirstPropertyValue("x-wr-calname")).toBe(projectsName);
    const [holiday] = projects.getAllSubcomponents("vevent");
    expect(projects.getAllSubcomponents("vevent")).toHaveLength(1);
    expect(holiday!.getFirstPropertyValue("summary")).toBe("Projekt Säntis");
    const holidayStart = holiday!.getFirstProperty("dtstart")!;
    expect([holidayStart.type, String(holidayStart.getFirstValue())]).toEqual(["date", "2027-03-08"]);

    const primaryName = [...files.keys()].find((name) => name !== `${projectsName}.ics`)!;
    const primary = calendarOf(primaryName);
    const zones = primary.getAllSubcomponents("vtimezone").map((zone) => zone.getFirstPropertyValue("tzid"));
    expect(zones).toContain("Europe/Zurich");
    const events = primary.getAllSubcomponents("vevent").map((vevent) => ({
      uid: vevent.getFirstPropertyValue("uid"),
      summary: vevent.getFirstPropertyValue("summary"),
      start: String(vevent.getFirstPropertyValue("dtstart")),
      zone: vevent.getFirstProperty("dtstart")!.getParameter("tzid") ?? null,
      rrule: vevent.getFirstPropertyValue("rrule")?.toString() ?? null,
      recurrenceId: vevent.hasProperty("recurrence-id"),
      status: vevent.getFirstPropertyValue("status"),
    }));
    expect(events.find((event) => event.uid === single.iCalUID)).toMatchObject({
      summary: single.summary,
      start: "2027-03-01T09:00:00Z",
      rrule: null,
    });
    const seriesEvents = events.filter((event) => event.uid === series.iCalUID);
    expect(seriesEvents.find((event) => !event.recurrenceId)).toMatchObject({
      summary: "Weekly sync",
      start: "2027-03-02T09:00:00",
      zone: "Europe/Zurich",
      rrule: "FREQ=WEEKLY;COUNT=4",
    });
    const exceptions = seriesEvents.filter((event) => event.recurrenceId);
    expect(exceptions.map((event) => event.status).sort()).toEqual(["CANCELLED", "CONFIRMED"]);
    expect(exceptions.find((event) => event.status === "CONFIRMED")?.summary).toBe("Weekly sync (moved)");
  });

  test("when one calendar of a browse is exported, then the ZIP holds that calendar's file alone, with its events, and the job says which calendar", async () => {
    const answer = await setup.call(
      `/organizations/${setup.organization.organizationId}/resources/${resourceId}/browse`,
      { method: "POST", body: { service: "calendar" } },
    );
    const projects = (answer.body as BrowseResponse).calendars.find((entry) => entry.name === projectsName)!;
    const exports = exportsOf(setup.call, setup.organization);
    const started = await exports.start({ resourceId, service: "calendar", calendar: projects.calendar });
    expect(started.status).toBe(202);
    const job = await exports.finished((started.body as ExportJob).exportId);
    expect(job).toMatchObject({ state: "succeeded", within: projectsName, progress: { failed: 0 } });
    const files = unzipWithPython((await exports.download(job.exportId)).bytes);
    expect([...files.keys()]).toEqual([`${projectsName}.ics`]);
    const vevents = new ICAL.Component(
      ICAL.parse(files.get(`${projectsName}.ics`)!.toString("utf8")) as unknown[],
    ).getAllSubcomponents("vevent");
    expect(vevents.map((vevent) => vevent.getFirstPropertyValue("summary"))).toEqual(["Projekt Säntis"]);

    for (const body of [
      { resourceId, service: "calendar", calendar: "nobody@example.com" },
      { resourceId, service: "calendar", calendar: projects.calendar, group: "all" },
      { resourceId, service: "contacts", calendar: projects.calendar },
    ]) {
      const refused = await exports.start(body);
      expect(refused.status).toBe(400);
    }
  });

  test("when the export is written one item a delivery (each delivery at its deadline), then its calendars' files are the same as one delivery writes", async () => {
    const exports = exportsOf(setup.call, setup.organization);
    const whole = await exports.start({ resourceId, service: "calendar" });
    const wholeJob = await exports.finished((whole.body as ExportJob).exportId);
    const regionId = setup.organization.subscriptions[0]!.region.id as RegionId;
    const scope = { organizationId: setup.organization.organizationId, regionId };
    const queued: string[] = [];
    const enqueue = async (_region: unknown, task: { exportId: string }) => {
      queued.push(task.exportId);
    };
    const job = await startExport(scope, { resourceId, service: "calendar" }, "test@alpvault.test", enqueue);
    const task = { organizationId: scope.organizationId, exportId: job.exportId };
    const outcomes: string[] = [];
    // A budget of 0: every delivery checkpoints after its first item and hands the rest over.
    for (let delivery = 0; delivery < 100 && outcomes.at(-1) !== "succeeded"; delivery++) {
      outcomes.push(await executeExport(task, { ...exportDeps(), enqueue, budgetMs: 0 }));
    }
    expect(outcomes.at(-1)).toBe("succeeded");
    expect(outcomes.filter((outcome) => outcome === "continued").length).toBeGreaterThanOrEqual(5);
    const pieced = unzipWithPython((await exports.download(job.exportId)).bytes);
    const inOne = unzipWithPython((await exports.download(wholeJob.exportId)).bytes);
    expect([...pieced.keys()]).toEqual([...inOne.keys()]);
    for (const [name, bytes] of inOne)
      expect(pieced.get(name)?.toString("utf8")).toBe(bytes.toString("utf8"));
  });
});

describe("an event longer than the browse's lookback, and a meeting moved since a date", () => {
  let leave: string;
  let handover: calendar_v3.Schema$Event;

  beforeAll(async () => {
    leave = (
      await calendar.calendars.insert({
        requestBody: { summary: `Leave ${setup.organization.organizationId}` },
      })
    ).data.id!;
    // Three months away, and a meeting of one of its weeks.
    await calendar.events.insert({
      calendarId: leave,
      requestBody: { summary: "Sabbatical", start: { date: "2027-06-01" }, end: { date: "2027-08-31" } },
    });
    handover = (
      await calendar.events.insert({
        calendarId: leave,
        requestBody: {
          summary: "Handover",
          start: { dateTime: "2027-07-21T09:00:00Z" },
          end: { dateTime: "2027-07-21T10:00:00Z" },
        },
      })
    ).data;
    const answer = await backupNow(setup.call, setup.organization, resourceId);
    expect(answer.status).toBe(202);
    const run = await finishedRun(setup.organization, resourceId, (answer.body as { runId: string }).runId);
    expect(run.state).toBe("succeeded");
  });

  test("when a week seven weeks into it is browsed, then it is listed with the week's meeting; the week before it began and the week after it ended do not list it", async () => {
    expect(rows(await browsed({ calendar: leave, day: "2027-07-21", span: "week" }))).toEqual([
      ["Sabbatical", "2027-06-01", "event"],
      ["Handover", "2027-07-21T09:00:00.000Z", "event"],
    ]);
    expect(rows(await browsed({ calendar: leave, day: "2027-05-25", span: "week" }))).toEqual([]);
    expect(rows(await browsed({ calendar: leave, day: "2027-09-01", span: "day" }))).toEqual([]);
    expect(rows(await browsed({ calendar: leave, day: "2027-08-30", span: "day" }))).toEqual([
      ["Sabbatical", "2027-06-01", "event"],
    ]);
  });

  test("when the meeting moved to the next day after a date, then browsed at that date it is on its day then at its time then, and as last backed up on its new day", async () => {
    const earlier = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const [year, month, day] = earlier.split("-");
    await backdateCatalog(setup.organization, resourceId, `${earlier}T12:00:00.000Z`);
    // Moved by its organiser: Google's import of the same iCalUID with a later sequence updates it.
    await calendar.events.import({
      calendarId: leave,
      requestBody: {
        iCalUID: handover.iCalUID!,
        summary: "Handover",
        sequence: 1,
        start: { dateTime: "2027-07-22T13:00:00Z" },
        end: { dateTime: "2027-07-22T14:00:00Z" },
      },
    });
    const answer = await backupNow(setup.call, setup.organization, resourceId);
    expect(answer.status).toBe(202);
    const run = await finishedRun(setup.organization, resourceId, (answer.body as { runId: string }).runId);
    expect(run.state).toBe("succeeded");

    const sabbatical = ["Sabbatical", "2027-06-01", "event"];
    const then = { calendar: leave, span: "day", date: `${month}-${day}-${year}` };
    expect(rows(await browsed({ ...then, day: "2027-07-21" }))).toEqual([
      sabbatical,
      ["Handover", "2027-07-21T09:00:00.000Z", "event"],
    ]);
    expect(rows(await browsed({ ...then, day: "2027-07-22" }))).toEqual([sabbatical]);
    const now = { calendar: leave, span: "day" };
    expect(rows(await browsed({ ...now, day: "2027-07-21" }))).toEqual([sabbatical]);
    expect(rows(await browsed({ ...now, day: "2027-07-22" }))).toEqual([
      sabbatical,
      ["Handover", "2027-07-22T13:00:00.000Z", "event"],
    ]);
  });
});
