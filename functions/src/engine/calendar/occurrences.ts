/**
 * The occurrences of a recurring series in a span of time (RFC 5545 §3.3.10, §3.8.5), as a browse of a
 * calendar's day or week shows them:
 * - each RRULE line is expanded by ical.js from the series' first start as a wall-clock time in the
 *   series' time zone, so that an occurrence keeps its wall-clock time across daylight-saving changes (as
 *   Calendar does: its instances' UTC times move with the zone); an UNTIL is compared with each occurrence's
 *   instant here, not by ical.js (which would compare a UTC limit with a wall-clock time);
 * - RDATE lines add occurrences and EXDATE lines take them out (a date-time with its TZID, in UTC with a
 *   Z, or in the series' zone; a date for an all-day series);
 * - each occurrence carries the id suffix Calendar gives that instance (`20260105T080000Z` for a timed
 *   series, `20260105` for an all-day one: developers.google.com/calendar/api/guides/recurringevents), so
 *   that a changed or cancelled instance the backups keep is found by its item key.
 * A series expands at most `MAX_STEPS` occurrences from its start (a daily series over 270 years).
 */
import { TZDate } from "@date-fns/tz";
import { addDays } from "@alpvault/contracts/browse";
import ICAL from "ical.js";

/** A series' times as search keeps them (`CalendarSearchFields`). */
export interface SeriesTimes {
  /** A date (an all-day series) or an instant (ISO 8601, UTC). */
  start: string;
  end: string;
  /** The series' time zone (IANA); an unknown one is taken as UTC. */
  timeZone: string;
  recurrence: readonly string[];
}

export interface Occurrence {
  /** As the series' times are written: a date, or an instant in UTC. */
  start: string;
  end: string;
  /** The suffix of the instance's event id (`<seriesId>_<suffix>`). */
  suffix: string;
}

const MAX_STEPS = 100_000;
const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ICAL_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Whether a time zone is one the platform knows. */
export function knownTimeZone(zone: string | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function wallOf(ms: number, zone: string): Wall {
  const date = new TZDate(ms, zone);
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
  };
}

/** The instant a wall-clock time in a zone stands for. */
export function instantOf(wall: Wall, zone: string): number {
  return new TZDate(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, zone).getTime();
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");
const dateText = (wall: Pick<Wall, "year" | "month" | "day">) =>
  `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;

/** The day (YYYY-MM-DD) an instant falls on in a zone. */
export const dayOf = (ms: number, zone: string): string => dateText(wallOf(ms, zone));

/** Midnight of a date (YYYY-MM-DD) in a zone. */
export function dayStart(date: string, zone: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return instantOf({ year, month, day, hour: 0, minute: 0, second: 0 }, zone);
}

/** Where an event time (as search keeps it) begins: a date at midnight in the zone, else its instant. */
export function timeMs(time: string, zone: string): number {
  return DATE.test(time) ? dayStart(time, zone) : Date.parse(time);
}

/** An instant as search keeps times (ISO 8601, UTC, milliseconds). */
const instantText = (ms: number) => new Date(ms).toISOString();
const utcSuffix = (ms: number) => instantText(ms).replace(/[-:]|\.\d{3}/g, "");

/** The values of an RDATE or EXDATE line, each as an occurrence's key (a date, or an instant's ms). */
function listedKeys(line: string, zone: string, allDay: boolean): (string | number)[] {
  const colon = line.indexOf(":");
  if (colon < 0) return [];
  const params = line.slice(0, colon).split(";").slice(1);
  const tzid = params.find((param) => param.toUpperCase().startsWith("TZID="))?.slice(5);
  const valueZone = knownTimeZone(tzid) ? tzid : zone;
  const keys: (string | number)[] = [];
  for (const value of line.slice(colon + 1).split(",")) {
    const match = ICAL_VALUE.exec(value.trim());
    if (!match) continue;
    const [, year, month, day, hour, minute, second, utc] = match;
    const wall = {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: Number(hour ?? 0),
      minute: Number(minute ?? 0),
      second: Number(second ?? 0),
    };
    if (allDay) keys.push(dateText(wall));
    else if (hour === undefined) continue;
    else
      keys.push(
        utc
          ? Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
          : instantOf(wall, valueZone),
      );
  }
  return keys;
}

/** The occurrences of one RRULE, as keys, from the series' first start until `to` (exclusive). */
function ruleKeys(rule: string, first: Wall, allDay: boolean, zone: string, to: number): (string | number)[] {
  let recur: ICAL.Recur;
  try {
    recur = ICAL.Recur.fromString(rule);
  } catch {
    return [];
  }
  // The limit is checked here at each occurrence's instant; ical.js is given a day more than it.
  let until: number | undefined;
  if (recur.until) {
    const limit = recur.until;
    until = limit.isDate
      ? dayStart(dateText(limit), zone) + DAY_MS - 1
      : limit.zone === ICAL.Timezone.utcTimezone
        ? Date.UTC(limit.year, limit.month - 1, limit.day, limit.hour, limit.minute, limit.second)
        : instantOf(limit, zone);
    const later = limit.clone();
    later.adjust(2, 0, 0, 0);
    recur.until = later;
  }
  const keys: (string | number)[] = [];
  try {
    const iterator = recur.iterator(ICAL.Time.fromData({ ...first, isDate: allDay }));
    for (let steps = 0; steps < MAX_STEPS; steps++) {
      const next = iterator.next();
      if (!next) break;
      const ms = allDay ? dayStart(dateText(next), zone) : instantOf(next, zone);
      if (ms >= to || (until !== undefined && ms > until)) break;
      keys.push(allDay ? dateText(next) : ms);
    }
  } catch {
    // A rule ical.js reads but cannot expand (no FREQ): the occurrences found so far.
  }
  return keys;
}

/**
 * The occurrences of a series that overlap [from, to) (instants), in time order: those starting before
 * `to` and ending after `from` (an occurrence without length: starting at or after `from`).
 */
export function occurrencesBetween(series: SeriesTimes, from: number, to: number): Occurrence[] {
  const zone = knownTimeZone(series.timeZone) ? series.timeZone : "UTC";
  const allDay = DATE.test(series.start);
  const startMs = timeMs(series.start, zone);
  if (!Number.isFinite(startMs)) return [];
  const endMs = series.end ? timeMs(series.end, zone) : startMs;
  const first: Wall = allDay
    ? { ...wallOf(Date.parse(`${series.start}T00:00:00Z`), "UTC"), hour: 0, minute: 0, second: 0 }
    : wallOf(startMs, zone);
  const lengthDays =
    allDay && series.end ? Math.round((Date.parse(series.end) - Date.parse(series.start)) / DAY_MS) : 0;
  const lengthMs = Math.max(0, endMs - startMs);

  const excluded = new Set<string | number>();
  const keys = new Set<string | number>();
  for (const line of series.recurrence) {
    const name = (line.split(/[;:]/)[0] ?? "").toUpperCase();
    if (name === "RRULE") {
      for (const key of ruleKeys(line.slice(line.indexOf(":") + 1), first, allDay, zone, to)) keys.add(key);
    } else if (name === "RDATE") {
      for (const key of listedKeys(line, zone, allDay)) keys.add(key);
    } else if (name === "EXDATE") {
      for (const key of listedKeys(line, zone, allDay)) excluded.add(key);
    }
  }
  const occurrences: { ms: number; occurrence: Occurrence }[] = [];
  for (const key of keys) {
    if (excluded.has(key)) continue;
    if (typeof key === "string") {
      const begins = dayStart(key, zone);
      const endDate = addDays(key, lengthDays);
      const ends = dayStart(endDate, zone);
      if (begins >= to || !(ends > from || (ends === begins && begins >= from))) continue;
      occurrences.push({
        ms: begins,
        occurrence: { start: key, end: endDate, suffix: key.replace(/-/g, "") },
      });
    } else {
      const ends = key + lengthMs;
      if (key >= to || !(ends > from || (lengthMs === 0 && key >= from))) continue;
      occurrences.push({
        ms: key,
        occurrence: { start: instantText(key), end: instantText(ends), suffix: utcSuffix(key) },
      });
    }
  }
  return occurrences.sort((a, b) => a.ms - b.ms).map((entry) => entry.occurrence);
}
