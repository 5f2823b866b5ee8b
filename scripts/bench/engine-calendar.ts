/**
 * Section "calendar": the production `CalendarSource` and `CalendarRestorer` against the Workspace emulator
 * with quotas on (2026 model: Calendar's 600 requests a minute per user, 10,000 per project; every call
 * costs one), its latency model compressed by the time scale, through one `quotaAwareCaller` each.
 *
 * - Backup ceiling: a user with `CALENDARS` calendars (shared team calendars, rooms: each a few events) is
 *   the backup that quota bounds, at three calls a calendar (`calendars.get`, `acl.list`, `events.list`).
 *   The requests the emulator charged, sampled every 100 ms, per quota minute over the run's steady part
 *   (`steadyRate`), as a fraction of the per-user limit. The caller aims at 97 %; its bucket and the
 *   emulator's (both token buckets of a minute's quota) are emptied at one instant just before each
 *   measured run (`BenchWorkspace.emptyBuckets`), so that the steady part is not a burst on top of the limit.
 * - Units per event: a user whose primary calendar holds `EVENTS` events (a daily series with exceptions
 *   among them), backed up in full: `events.list` pages of 2,500, so a few hundredths of a unit an event.
 * - Restore ceiling: `RESTORED` events imported (`events.import`, one call an event, 4 at once as the
 *   restorer sends them) into a new calendar of another user: requests per quota minute ÷ the limit.
 */
import { calendar_v3 } from "@googleapis/calendar";

import { SCOPES } from "../../emulators/workspace/src/index";
import { eventBytes, eventMetadata } from "../../functions/src/engine/calendar/entries";
import { CalendarRestorer } from "../../functions/src/engine/calendar/restorer";
import { CalendarSource } from "../../functions/src/engine/calendar/source";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import { GOOGLE_QUOTA_LIMITS } from "../../functions/src/engine/google/costs";
import type { MeasuredFigure } from "./types";
import { BackupStore, busyShare, sampler, steadyRate } from "./engine-store";
import { BenchWorkspace, CALLER_FRACTION } from "./engine-workspace";

const TIME_SCALE = 10;
const SEED = 8_001;
const LIMIT = GOOGLE_QUOTA_LIMITS.calendar.perUserPerMinute;
/** About 6 quota minutes of backup calls at the caller's 97 %. */
const CALENDARS = 1_200;
const EVENTS_PER_CALENDAR = 3;
const EVENTS = 20_000;
/** About 4 quota minutes of imports (from one `events.list` page). */
const RESTORED = 2_400;

const count = (value: number): string => value.toLocaleString("en-US");
const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;

/** The users' calendars as the worker builds them (`backups/stream-builders.ts`). */
function calendarClient(workspace: BenchWorkspace, user: string): calendar_v3.Calendar {
  const auth = workspace.harness.jwt(user, [SCOPES.calendar]);
  return new calendar_v3.Calendar(googleClientOptions({ auth, rootUrl: `${workspace.harness.url}/` }));
}

async function admin(workspace: BenchWorkspace, path: string, body: Record<string, unknown>) {
  const answer = await workspace.harness.admin<{ id: string }>("POST", path, body);
  if (answer.status !== 200) throw new Error(`POST ${path}: ${answer.status}`);
  return answer.body;
}

const timed = (day: number, hour: number) => {
  const date = new Date(Date.UTC(2026, 0, 5 + day, hour));
  return { dateTime: date.toISOString(), timeZone: "Europe/Zurich" };
};

/** `events` single events on the user's primary calendar, and a daily series over years. */
async function fillPrimary(workspace: BenchWorkspace, user: string, events: number): Promise<void> {
  const path = `/users/${user}/calendar/calendars/${encodeURIComponent(user)}/events`;
  await admin(workspace, path, {
    summary: "Daily stand-up",
    start: timed(0, 8),
    end: timed(0, 9),
    recurrence: ["RRULE:FREQ=DAILY;COUNT=1500"],
  });
  for (let index = 1; index < events; index++) {
    await admin(workspace, path, {
      summary: `Meeting ${index}`,
      location: `Room ${index % 40}`,
      start: timed(index % 1_500, 10 + (index % 6)),
      end: timed(index % 1_500, 11 + (index % 6)),
      attendees: [{ email: `guest${index % 50}@partner.test` }],
    });
  }
}

/** `calendars` secondary calendars of the user, each with a few events. */
async function addCalendars(workspace: BenchWorkspace, user: string, calendars: number): Promise<void> {
  for (let index = 0; index < calendars; index++) {
    const calendar = await admin(workspace, `/users/${user}/calendar/calendars`, {
      summary: `Team ${index}`,
    });
    const path = `/users/${user}/calendar/calendars/${encodeURIComponent(calendar.id)}/events`;
    for (let event = 0; event < EVENTS_PER_CALENDAR; event++) {
      await admin(workspace, path, {
        summary: `Team event ${event}`,
        start: timed(event, 9),
        end: timed(event, 10),
      });
    }
  }
}

/** Empties the user's buckets at once (see `BenchWorkspace.emptyBuckets`), charged as `calendarList.list`. */
function spendFirstBucket(workspace: BenchWorkspace, user: string, caller: GoogleCaller): Promise<number> {
  const request = { api: "calendar", user, idempotent: true, method: "calendar.calendarList.list" } as const;
  return workspace.emptyBuckets(caller, request, LIMIT * CALLER_FRACTION);
}

function source(workspace: BenchWorkspace, user: string, caller: GoogleCaller): CalendarSource {
  return new CalendarSource({ calendar: calendarClient(workspace, user), user, caller });
}

export async function measureCalendar(): Promise<MeasuredFigure[]> {
  const workspace = await BenchWorkspace.start(TIME_SCALE, {
    users: 3,
    messagesPerUser: 1,
    filesPerUser: 1,
    seed: SEED,
  });
  try {
    const [teams, big, target] = workspace.users;
    if (!teams || !big || !target) throw new Error("the generated organisation has too few users");
    await addCalendars(workspace, teams, CALENDARS);
    await fillPrimary(workspace, big, EVENTS);
    const { minuteMs } = workspace;
    const store = new BackupStore();

    // The backup quota bounds: many calendars.
    const teamsShared = quotaAwareCaller({ minuteMs });
    const spentTeams = await spendFirstBucket(workspace, teams, teamsShared);
    const teamsCaller = meteredCaller(teamsShared);
    const before = workspace.charged("calendar");
    const calls = sampler(100, () => workspace.charged("calendar").calls);
    const { value: teamsRun, busy } = await busyShare(() =>
      store.backup(teams, source(workspace, teams, teamsCaller), teamsCaller.usage),
    );
    const backupSteady = steadyRate(calls.stop(), teamsRun, minuteMs);
    const teamsItems = teamsRun.result.progress.items;
    const expectedTeams = 1 + CALENDARS * (1 + EVENTS_PER_CALENDAR);
    if (teamsItems !== expectedTeams)
      throw new Error(`the backup stored ${teamsItems} of ${expectedTeams} entries`);
    const refused = workspace.charged("calendar").rejected - before.rejected;

    // Units per event: one large calendar.
    const bigCaller = meteredCaller(quotaAwareCaller({ minuteMs }));
    const bigRun = await store.backup(big, source(workspace, big, bigCaller), bigCaller.usage);
    const bigItems = bigRun.result.progress.items;
    if (bigItems !== EVENTS + 1)
      throw new Error(`the large calendar stored ${bigItems} of ${EVENTS + 1} entries`);

    // A restore of events into a new calendar of another user, as the recovery worker restores them.
    const { data } = await calendarClient(workspace, big).events.list({
      calendarId: big,
      maxResults: 2_500,
    });
    const entries = (data.items ?? [])
      .filter((event) => !event.recurrence)
      .slice(0, RESTORED)
      .map((event) => ({ metadata: eventMetadata(big, event), content: eventBytes(event).bytes }));
    if (entries.length !== RESTORED) throw new Error(`only ${entries.length} events to restore`);
    const restoreCaller = quotaAwareCaller({ minuteMs });
    const spentTarget = await spendFirstBucket(workspace, target, restoreCaller);
    const restorer = new CalendarRestorer(
      calendarClient(workspace, target),
      { user: target, calendar: { kind: "new", summary: "Restored" } },
      restoreCaller,
    );
    const restoreCalls = sampler(100, () => workspace.charged("calendar").calls);
    const startedAt = performance.now();
    const outcomes = await restorer.restore(entries);
    const restoreRun = { startedAt, finishedAt: performance.now() };
    const restoreSteady = steadyRate(restoreCalls.stop(), restoreRun, minuteMs);
    const restored = outcomes.filter((outcome) => outcome.restored).length;
    if (restored !== entries.length) throw new Error(`restored ${restored} of ${entries.length} events`);

    return [
      {
        id: "calendar-ceiling-fraction",
        value: backupSteady.perMinute / LIMIT,
        note:
          `time scale ${TIME_SCALE} (a quota minute = ${(minuteMs / 1000).toFixed(1)} s), latency model on; ` +
          `${count(CALENDARS)} calendars of ${EVENTS_PER_CALENDAR} events (${count(teamsItems)} entries), ` +
          `${count(teamsCaller.usage.units)} requests in ${backupSteady.runMinutes.toFixed(1)} quota minutes, steady ` +
          `part ${backupSteady.minutes.toFixed(1)} minutes at ${count(Math.round(backupSteady.perMinute))} ` +
          `requests/min of ${count(LIMIT)}; the caller aims at 97 %, its bucket and the emulator's emptied ` +
          `just before (${spentTeams} charged); refused by the emulator: ${refused}; ` +
          `event loop busy ${percent(busy)}`,
      },
      {
        id: "calendar-units-per-event",
        value: bigCaller.usage.units / EVENTS,
        note:
          `one calendar of ${count(EVENTS)} entries (a daily series of 1,500 occurrences among them): ` +
          `${count(bigCaller.usage.units)} requests (pages of 2,500)`,
      },
      {
        id: "calendar-restore-ceiling-fraction",
        value: restoreSteady.perMinute / LIMIT,
        note:
          `${count(restored)} events imported into a new calendar of another user (events.import, one request ` +
          `each, 4 at once): ${restoreSteady.runMinutes.toFixed(1)} quota minutes, steady part ` +
          `${restoreSteady.minutes.toFixed(1)} minutes at ${count(Math.round(restoreSteady.perMinute))} ` +
          `requests/min of ${count(LIMIT)}; the caller's bucket and the emulator's emptied just before ` +
          `(${spentTarget} charged)`,
      },
    ];
  } finally {
    await workspace.stop();
  }
}
