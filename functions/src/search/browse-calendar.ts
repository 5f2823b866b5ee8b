/**
 * Browsing a user's calendar by day or week (docs/api.md "Browse"): the calendars the backups hold (the
 * primary first, then by name), and the events of the chosen one that take place in the days shown, in
 * the calendar's time zone, in time order:
 * - single events and the changed instances of series that take place in the days: found by their start
 *   in the days or up to `LONG_EVENT_DAYS` before them, and the events longer than that by their mark
 *   (`search.long`, engine/calendar/entries.ts), whenever they began;
 * - each recurring series at each of its occurrences in the days (engine/calendar/occurrences.ts), except
 *   those the backups keep an instance of (changed: shown at its own time; cancelled: not shown). A row of
 *   a series selects the series: it is recovered or exported whole with its exceptions;
 * - with a date, what the backups held at its end, each event at its times and each series by its rules
 *   as held then (found among the events whose start as backed up last is in the days or the lookback, and
 *   the long ones).
 * At most `MAX_BROWSE_EVENTS` events are shown (`view.eventsAtLeast`: there are more); the page is cut
 * from them.
 */
import {
  addDays,
  BROWSE_MESSAGES,
  BROWSE_SPANS,
  MAX_BROWSE_EVENTS,
  MAX_BROWSE_PLACES,
  type BrowseCalendar,
  type BrowseSpan,
} from "@alpvault/contracts/browse";
import type { CalendarSearchResult } from "@alpvault/contracts/search";
import { LONG_EVENT_DAYS, eventItemKey, parseItemKey } from "../engine/calendar/entries";
import { dayOf, dayStart, knownTimeZone, occurrencesBetween, timeMs } from "../engine/calendar/occurrences";
import type { CalendarSearchFields } from "../engine/sources/source";
import { DomainError } from "../lib/errors";
import type { Scope } from "../lib/tenancy";
import { NO_ITEMS, placeKeys, type BrowseContext, type BrowsePage, type PlaceBrowser } from "./browse-place";
import {
  calendarEntriesMarked,
  calendarEntriesStarting,
  entriesOf,
  heldItemKeys,
  type ItemKind,
  type PlaceFilter,
  type SearchableItem,
} from "./repo";
import { calendarResult, fieldsOf } from "./results";
import { heldAt, single } from "./service";

/** The most recurring series of a calendar a browse expands, and the most events longer than the lookback. */
const MAX_SERIES = 500;
const MAX_CALENDAR_ID = 1_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

interface CalendarPlace {
  calendar?: string;
  day?: string;
  span: BrowseSpan;
}

function parsePlace(query: Record<string, unknown>): CalendarPlace {
  const calendar = single(query, "calendar");
  if (calendar !== undefined && (calendar.trim() === "" || calendar.length > MAX_CALENDAR_ID)) {
    throw DomainError.invalid(BROWSE_MESSAGES.invalidCalendar);
  }
  const day = single(query, "day");
  if (day !== undefined) {
    const ms = DAY.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN;
    const valid = Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day;
    if (!valid) throw DomainError.invalid(BROWSE_MESSAGES.invalidDay);
  }
  const span = single(query, "span") ?? "week";
  if (!(BROWSE_SPANS as readonly string[]).includes(span))
    throw DomainError.invalid(BROWSE_MESSAGES.invalidSpan);
  return {
    ...(calendar !== undefined ? { calendar } : {}),
    ...(day !== undefined ? { day } : {}),
    span: span as BrowseSpan,
  };
}

interface HeldCalendar extends BrowseCalendar {
  timeZone: string | undefined;
}

/** The user's calendars in the backups: the primary (its id is the user's address) first, then by name. */
async function calendarsOf(
  scope: Scope,
  resourceId: string,
  email: string | null | undefined,
  kind: ItemKind,
): Promise<HeldCalendar[]> {
  const entries = await entriesOf(scope, resourceId, kind, "calendar", MAX_BROWSE_PLACES);
  const primary = email?.toLowerCase();
  return entries
    .flatMap((entry) => fieldsOf(entry, "calendar") ?? [])
    .map((search) => ({
      calendar: search.calendarId,
      name: search.display?.summary || search.summary || search.calendarId,
      timeZone: search.timeZone,
    }))
    .sort(
      (a, b) =>
        Number(b.calendar.toLowerCase() === primary) - Number(a.calendar.toLowerCase() === primary) ||
        a.name.localeCompare(b.name),
    );
}

/** The days shown: the day asked for (today in the calendar's zone), or the week (Monday first) around it. */
function daysShown(place: CalendarPlace, zone: string, now: Date) {
  const day = place.day ?? dayOf(now.getTime(), zone);
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  const from = place.span === "week" ? addDays(day, -((weekday + 6) % 7)) : day;
  const to = addDays(from, place.span === "week" ? 7 : 1);
  return { from, to, fromMs: dayStart(from, zone), toMs: dayStart(to, zone) };
}

/** A row of the days shown: an event (or an instance), or a series at one of its occurrences. */
interface Row {
  item: SearchableItem;
  startMs: number;
  occurrence?: { start: string; end: string };
}

/** Whether an item was in the backups at `asOf`: first backed up before it, not deleted at the source by then. */
const heldThen = (item: SearchableItem, asOf: string | undefined) =>
  !asOf || (item.firstSeenAt < asOf && !(item.deletedAtSource && item.deletedAtSource < asOf));

/** The single events and changed instances of the days shown. */
function eventRows(entries: SearchableItem[], zone: string, fromMs: number, toMs: number): Row[] {
  return entries.flatMap((item) => {
    const search = fieldsOf(item, "calendar");
    if (!search || search.recurring || search.cancelled) return [];
    const startMs = timeMs(search.start, zone);
    const endMs = search.end ? timeMs(search.end, zone) : startMs;
    const overlaps = startMs < toMs && (endMs > fromMs || (endMs === startMs && startMs >= fromMs));
    return overlaps ? [{ item, startMs }] : [];
  });
}

/** Each series at each occurrence of the days shown that the backups keep no instance of. */
async function seriesRows(
  context: BrowseContext,
  calendarId: string,
  series: SearchableItem[],
  zone: string,
  window: { fromMs: number; toMs: number },
): Promise<Row[]> {
  const candidates: { item: SearchableItem; start: string; end: string; instanceKey: string }[] = [];
  for (const item of series) {
    const search: CalendarSearchFields | undefined = fieldsOf(item, "calendar");
    const key = parseItemKey(item.itemKey);
    if (!search?.recurrence || !key || !("eventId" in key)) continue;
    const times = {
      start: search.start,
      end: search.end,
      timeZone: knownTimeZone(search.timeZone) ? search.timeZone : zone,
      recurrence: search.recurrence,
    };
    for (const occurrence of occurrencesBetween(times, window.fromMs, window.toMs)) {
      if (candidates.length > MAX_BROWSE_EVENTS) break;
      candidates.push({
        item,
        start: occurrence.start,
        end: occurrence.end,
        instanceKey: eventItemKey(calendarId, `${key.eventId}_${occurrence.suffix}`),
      });
    }
  }
  const kept = await heldItemKeys(
    context.scope,
    context.resource.resourceId,
    candidates.map((candidate) => candidate.instanceKey),
  );
  return candidates
    .filter((candidate) => !kept.has(candidate.instanceKey))
    .map((candidate) => ({
      item: candidate.item,
      startMs: timeMs(candidate.start, zone),
      occurrence: { start: candidate.start, end: candidate.end },
    }));
}

async function calendarPage(context: BrowseContext, place: CalendarPlace): Promise<BrowsePage> {
  const calendars = await calendarsOf(
    context.scope,
    context.resource.resourceId,
    context.resource.email,
    context.kind,
  );
  const chosen =
    place.calendar === undefined
      ? calendars[0]
      : calendars.find((entry) => entry.calendar === place.calendar);
  if (!chosen) {
    if (place.calendar !== undefined) throw DomainError.invalid(BROWSE_MESSAGES.invalidCalendar);
    return { found: NO_ITEMS, results: [], extras: { calendars: [], calendar: null, view: null } };
  }
  const zone = knownTimeZone(chosen.timeZone) ? chosen.timeZone : "UTC";
  const days = daysShown(place, zone, context.now);
  const { scope, resource, kind, common } = context;
  // Starts as search keeps them (dates and UTC instants, compared as text): from the day before the
  // lookback (a date sorts before that day's instants) to the day after the last one shown.
  const range = { from: addDays(days.from, -LONG_EVENT_DAYS - 1), to: addDays(days.to, 1) };
  const [entries, long, series] = await Promise.all([
    calendarEntriesStarting(scope, resource.resourceId, kind, chosen.calendar, range, MAX_BROWSE_EVENTS * 2),
    calendarEntriesMarked(scope, resource.resourceId, kind, chosen.calendar, "long", MAX_SERIES),
    calendarEntriesMarked(scope, resource.resourceId, kind, chosen.calendar, "recurring", MAX_SERIES),
  ]);
  // A long event that also starts within the lookback is found twice: once is shown.
  const lookedBack = new Set(entries.map((entry) => entry.itemKey));
  // With a date, each event as the backups held it then: its times and a series' rules of that time.
  const asHeld = (found: SearchableItem[]) =>
    heldAt(
      scope,
      resource.resourceId,
      found.filter((item) => heldThen(item, common.asOf)),
      common.asOf,
    );
  const [events, heldSeries] = await Promise.all([
    asHeld([...entries, ...long.filter((entry) => !lookedBack.has(entry.itemKey))]),
    asHeld(series),
  ]);
  const rows = [
    ...eventRows(events, zone, days.fromMs, days.toMs),
    ...(await seriesRows(context, chosen.calendar, heldSeries, zone, days)),
  ].sort((a, b) => a.startMs - b.startMs || a.item.itemKey.localeCompare(b.item.itemKey));
  const eventsAtLeast = rows.length > MAX_BROWSE_EVENTS;
  const shown = rows.slice(0, MAX_BROWSE_EVENTS);
  const onPage = shown.slice((common.page - 1) * common.pageSize, common.page * common.pageSize);
  const results = onPage.map((row): CalendarSearchResult => {
    const result = calendarResult(row.item);
    return row.occurrence ? { ...result, ...row.occurrence, occurrenceOf: "series" } : result;
  });
  return {
    found: { items: [], total: shown.length, totalAtLeast: eventsAtLeast, next: null },
    results,
    extras: {
      calendars: calendars.map(({ calendar, name }) => ({ calendar, name })),
      calendar: chosen.calendar,
      view: { span: place.span, from: days.from, to: days.to, timeZone: zone, eventsAtLeast },
    },
  };
}

export const calendarBrowser: PlaceBrowser = {
  params: ["calendar", "day", "span"],
  misplaced: BROWSE_MESSAGES.placeForCalendar,
  open(query) {
    const place = parsePlace(query);
    return {
      key: [place.calendar ?? null, place.day ?? null, place.span],
      page: (context) => calendarPage(context, place),
      // An export of a calendar takes the calendar (its settings and sharing) and every event in it.
      async keys(context, asOf, limit) {
        const calendars = await calendarsOf(context.scope, context.resourceId, undefined, context.kind);
        const chosen = calendars.find((entry) => entry.calendar === place.calendar);
        if (!chosen) throw DomainError.invalid(BROWSE_MESSAGES.invalidCalendar);
        const filter: PlaceFilter = { field: "search.calendarId", op: "==", value: chosen.calendar };
        return { ...(await placeKeys(context, filter, asOf, limit)), within: chosen.name };
      },
    };
  },
};
