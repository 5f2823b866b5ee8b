/**
 * Recovering calendars through the API, end to end on the stack: a user's backed-up calendars lose a
 * single event, a recurring series (with a changed and a cancelled instance) and a whole secondary
 * calendar at Google. A recovery to the original place imports the events back with their iCalUIDs, the
 * series whole with its exceptions, recreates the lost calendar with its event, and skips the calendar the
 * user still has; a recovery into a new calendar puts every event into one calendar of the name asked.
 */
import { RECOVERY_ITEM_REASONS, type Recovery } from "@alpvault/contracts/recovery";
import type { calendar_v3 } from "@googleapis/calendar";
import { SCOPES } from "../../emulators/workspace/src/index";
import { backedUpWithPolicy, type StoredRun } from "../support/backup-runs";
import { onboarded, setAccount } from "../support/organizations";
import { recoveriesOf } from "../support/recoveries";
import { calendarFor } from "../support/workspace";

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
});
