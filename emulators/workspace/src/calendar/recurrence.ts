/**
 * Event times and recurring series: RFC 3339 instants, wall-clock times in an IANA time zone, and the
 * expansion of a series' RRULE / EXDATE lines (RFC 5545) into instances, as Calendar does for
 * `events.instances` and `singleEvents=true`. A series keeps its wall-clock time across daylight-saving
 * changes in its time zone, so the instances' UTC times (and ids) move with it.
 *
 * Supported: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY with INTERVAL, COUNT, UNTIL and (weekly) BYDAY; EXDATE.
 * Anything else in a rule is refused with 400 when the event is written, never half-honoured.
 */
import { invalidValue } from "./errors";
import type { EventTime } from "./store-model";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An RFC 3339 timestamp with a mandatory offset, as `timeMin`/`timeMax` and `dateTime` need. */
export function parseInstant(value: string, name: string): number {
  const match = RFC3339.exec(value);
  const ms = match ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw invalidValue(`Invalid value for ${name}: ${value}`);
  return ms;
}

export function isDate(value: string): boolean {
  return DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

export function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, found);
  }
  return found;
}

/** The wall-clock time of an instant in a zone. */
export function wallOf(ms: number, zone: string): Wall {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(ms))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

function wallAsUtc(wall: Wall): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** The instant a wall-clock time in a zone stands for (the earlier one in a repeated hour). */
export function instantOf(wall: Wall, zone: string): number {
  const guess = wallAsUtc(wall);
  let ms = guess;
  for (let round = 0; round < 3; round += 1) ms = guess - (wallAsUtc(wallOf(ms, zone)) - ms);
  return ms;
}

/** The instant an event time starts at: a date is midnight in the calendar's (or the event's) zone. */
export function startMs(time: EventTime, zone: string): number {
  if (time.dateTime) return Date.parse(time.dateTime);
  const [year, month, day] = (time.date ?? "1970-01-01").split("-").map(Number) as [number, number, number];
  return instantOf({ year, month, day, hour: 0, minute: 0, second: 0 }, time.timeZone ?? zone);
}

/** The suffix Calendar gives an instance's id: `20260105T080000Z` (timed) or `20260105` (all-day). */
export function instanceSuffix(original: EventTime): string {
  if (original.date) return original.date.replace(/-/g, "");
  return new Date(Date.parse(original.dateTime ?? "")).toISOString().replace(/[-:]|\.\d{3}/g, "");
}

interface Rule {
  freq: "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";
  interval: number;
  count?: number;
  until?: number;
  byDay?: number[];
}

const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
const SUPPORTED = new Set(["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST"]);

function parseUntil(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(value);
  if (!m) throw invalidValue(`Invalid recurrence rule UNTIL=${value}`);
  const [, y, mo, d, h, mi, s] = m;
  if (h === undefined) return Date.UTC(Number(y), Number(mo) - 1, Number(d), 23, 59, 59);
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

function parseRule(line: string): Rule {
  const body = line.replace(/^RRULE:/i, "");
  const parts = new Map(body.split(";").map((part) => part.split("=") as [string, string]));
  for (const key of parts.keys()) {
    if (!SUPPORTED.has(key.toUpperCase())) throw invalidValue(`Invalid recurrence rule: ${line}`);
  }
  const freq = parts.get("FREQ");
  if (freq !== "DAILY" && freq !== "WEEKLY" && freq !== "MONTHLY" && freq !== "YEARLY") {
    throw invalidValue(`Invalid recurrence rule: ${line}`);
  }
  const interval = Number(parts.get("INTERVAL") ?? "1");
  const count = parts.has("COUNT") ? Number(parts.get("COUNT")) : undefined;
  if (!Number.isInteger(interval) || interval < 1 || (count !== undefined && !(count >= 1))) {
    throw invalidValue(`Invalid recurrence rule: ${line}`);
  }
  const byDay = parts
    .get("BYDAY")
    ?.split(",")
    .map((day) => WEEKDAYS.indexOf(day));
  if (byDay?.some((day) => day < 0)) throw invalidValue(`Invalid recurrence rule: ${line}`);
  return {
    freq,
    interval,
    ...(count !== undefined ? { count } : {}),
    ...(parts.has("UNTIL") ? { until: parseUntil(parts.get("UNTIL") ?? "") } : {}),
    ...(byDay ? { byDay } : {}),
  };
}

/** Checks a `recurrence` array when an event is written (RRULE lines we can expand, EXDATE, RDATE). */
export function checkRecurrence(lines: unknown): string[] {
  if (!Array.isArray(lines) || !lines.every((line) => typeof line === "string")) {
    throw invalidValue("Invalid recurrence");
  }
  const rules = (lines as string[]).filter((line) => /^RRULE:/i.test(line));
  if (rules.length !== 1) throw invalidValue("Invalid recurrence: exactly one RRULE is supported");
  rules.forEach(parseRule);
  for (const line of lines as string[]) {
    if (!/^(RRULE|EXDATE|RDATE|EXRULE)[:;]/i.test(line)) throw invalidValue(`Invalid recurrence: ${line}`);
  }
  return lines as string[];
}

/** EXDATE values as instants (ms, as text) or, for dates, `YYYYMMDD`. */
function exdates(lines: string[], zone: string): Set<string> {
  const out = new Set<string>();
  for (const line of lines) {
    if (!/^EXDATE/i.test(line)) continue;
    const head = line.slice(0, line.indexOf(":"));
    const tz = /TZID=([^;:]+)/i.exec(head)?.[1] ?? zone;
    for (const value of line.slice(line.indexOf(":") + 1).split(",")) {
      const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(value.trim());
      if (!m) continue;
      const [, y, mo, d, h, mi, sec, z] = m;
      if (h === undefined) {
        out.add(`${y}${mo}${d}`);
        continue;
      }
      const wall = { year: +y!, month: +mo!, day: +d!, hour: +h, minute: +mi!, second: +sec! };
      out.add(String(z ? wallAsUtc(wall) : instantOf(wall, tz)));
    }
  }
  return out;
}

function addDays(wall: Wall, days: number): Wall {
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Candidate wall times of a rule, in order (months or years that lack the day are skipped). */
function* candidates(first: Wall, rule: Rule): Generator<Wall> {
  for (let step = 0; step < 100_000; step += 1) {
    if (rule.freq === "DAILY") yield addDays(first, step * rule.interval);
    else if (rule.freq === "WEEKLY") {
      const weekStart = addDays(first, step * 7 * rule.interval);
      const firstDow = new Date(Date.UTC(first.year, first.month - 1, first.day)).getUTCDay();
      const days = (rule.byDay ?? [firstDow]).map((day) => (day - firstDow + 7) % 7).sort((a, b) => a - b);
      for (const offset of days) yield addDays(weekStart, offset);
    } else {
      const months = rule.freq === "MONTHLY" ? step * rule.interval : step * 12 * rule.interval;
      const total = first.month - 1 + months;
      const wall = { ...first, year: first.year + Math.floor(total / 12), month: (total % 12) + 1 };
      const check = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
      if (check.getUTCDate() === wall.day) yield wall;
    }
  }
}

/**
 * The original start times of a series' instances (as event times), from its first start on, stopping
 * at the rule's end, at `untilMs` or after `limit` instances.
 */
export function expand(
  start: EventTime,
  recurrence: string[],
  zone: string,
  untilMs: number,
  limit: number,
): EventTime[] {
  const rule = parseRule(recurrence.find((line) => /^RRULE:/i.test(line)) ?? "");
  const excluded = exdates(recurrence, start.timeZone ?? zone);
  const allDay = start.date !== undefined;
  const tz = start.timeZone ?? zone;
  const firstMs = startMs(start, zone);
  const first = allDay ? wallOf(Date.parse(`${start.date ?? ""}T00:00:00Z`), "UTC") : wallOf(firstMs, tz);
  const out: EventTime[] = [];
  let produced = 0;
  for (const wall of candidates(first, rule)) {
    const ms = allDay ? wallAsUtc(wall) : instantOf(wall, tz);
    if (ms < (allDay ? wallAsUtc(first) : firstMs)) continue;
    if (rule.until !== undefined && ms > rule.until) break;
    if (ms >= untilMs || out.length >= limit) break;
    if (rule.count !== undefined && produced >= rule.count) break;
    produced += 1;
    const time: EventTime = allDay
      ? { date: new Date(ms).toISOString().slice(0, 10) }
      : {
          dateTime: new Date(ms).toISOString().replace(".000Z", "Z"),
          ...(start.timeZone ? { timeZone: tz } : {}),
        };
    if (excluded.has(allDay ? (time.date ?? "").replace(/-/g, "") : String(ms))) continue;
    out.push(time);
  }
  return out;
}
