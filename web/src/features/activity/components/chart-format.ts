import type { Theme } from "@mui/material/styles";
import { successRate, type DailyActivity, type RunOutcomeMark } from "@alpvault/contracts/activity";
import { SERVICE_LABELS } from "@alpvault/contracts/backups";
import { SERVICE_IDS, type ServiceId } from "@alpvault/contracts/services";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/** The colour a run's outcome is marked in: the theme's status colours, so both themes keep their contrast. */
export function outcomeColor(theme: Theme, outcome: RunOutcomeMark): string {
  switch (outcome) {
    case "ok":
      return theme.palette.success.main;
    case "partial":
      return theme.palette.warning.main;
    case "failed":
      return theme.palette.error.main;
    case "running":
      return theme.palette.info.main;
  }
}

/** Dates with times in the console's language (medium date, short time). */
export function useDateTimeFormat(): Intl.DateTimeFormat {
  const { i18n } = useTranslation();
  return useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }),
    [i18n.language],
  );
}

/** A duration in words of hours, minutes and seconds: "1 h 5 min", "4 min 10 s", "12 s". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return rest > 0 ? `${minutes} min ${rest} s` : `${minutes} min`;
  return `${rest} s`;
}

/** The unit a chart of sizes up to `largest` bytes is drawn in (binary units, as `formatStorage`). */
export function sizeUnit(largest: number): { label: string; bytes: number } {
  const units = [
    { label: "GB", bytes: 1024 ** 3 },
    { label: "MB", bytes: 1024 ** 2 },
    { label: "KB", bytes: 1024 },
  ];
  return units.find((unit) => largest >= unit.bytes) ?? { label: "B", bytes: 1 };
}

/** `bytes` in `unit`, to three decimals. */
export function inUnit(bytes: number, unit: { bytes: number }): number {
  return Math.round((bytes / unit.bytes) * 1000) / 1000;
}

/**
 * The protected-storage chart's series: each service at its own figure of the day, in `unit` (null before
 * the first backup). Not stacked: a mark sits where its tooltip says, Drive's at Drive's figure (stacked,
 * Drive's mark sat at Gmail + Drive while its tooltip said Drive's alone).
 */
export function storageSeries(days: readonly DailyActivity[], unit: { label: string; bytes: number }) {
  return SERVICE_IDS.map((service) => ({
    id: service,
    label: SERVICE_LABELS[service],
    data: days.map((day) => (day.storage ? inUnit(day.storage[service], unit) : null)),
  }));
}

/** The colour of each service's storage line: the theme's, so both themes keep their contrast. */
export function serviceColor(theme: Theme, service: ServiceId): string {
  const colors: Record<ServiceId, string> = {
    gmail: theme.palette.primary.main,
    drive: theme.palette.success.main,
    calendar: theme.palette.warning.main,
    contacts: theme.palette.secondary.main,
  };
  return colors[service];
}

/** The day's protected storage, every service's together (0 before the first backup). */
export const totalStorage = (day: DailyActivity): number =>
  day.storage ? SERVICE_IDS.reduce((sum, service) => sum + day.storage![service], 0) : 0;

/** Each day's success rate in percent (`successRate`), null on a day without backups that ended. */
export function successRates(days: readonly DailyActivity[]): (number | null)[] {
  return days.map((day) => successRate(day.runs));
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The steps a time axis ticks at, smallest first. */
const TIME_STEPS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
  60 * DAY,
  90 * DAY,
  180 * DAY,
  365 * DAY,
];

/** A time axis: its ends, its ticks and how a tick is written. */
export interface TimeAxis {
  min: number;
  max: number;
  ticks: number[];
  format: (value: number) => string;
}

/** How a tick of `step` is written: precise enough that ticks a step apart never read the same. */
function tickFormat(step: number, spansDays: boolean, locale: string, timeZone: string | undefined) {
  const zone = timeZone ? { timeZone } : {};
  if (step >= DAY) return new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", ...zone });
  const time: Intl.DateTimeFormatOptions =
    step < MINUTE
      ? { hour: "numeric", minute: "2-digit", second: "2-digit" }
      : { hour: "numeric", minute: "2-digit" };
  return new Intl.DateTimeFormat(locale, {
    ...(spansDays ? { month: "short", day: "numeric" } : {}),
    ...time,
    ...zone,
  });
}

/**
 * The time axis of a chart of `times` (a run history): at most `maxTicks` ticks at a round step, written
 * as precisely as the step needs (seconds under a minute, the day once the axis spans days), so no two
 * read the same, and the axis reaching half a step beyond the first and last time, so that a tick's label
 * is never cut at the chart's edge. `timeZone`: the zone ticks are written in (the browser's by default).
 */
export function timeAxis(
  times: readonly number[],
  locale: string,
  timeZone?: string,
  maxTicks = 6,
): TimeAxis {
  const first = Math.min(...times);
  const last = Math.max(...times);
  // A lone run (or runs seconds apart) is shown within two minutes around it.
  const middle = (first + last) / 2;
  const span = Math.max(last - first, 2 * MINUTE);
  const step =
    TIME_STEPS.find((candidate) => span / candidate <= maxTicks - 2) ?? (TIME_STEPS.at(-1) as number);
  const min = Math.min(first, middle - span / 2) - step / 2;
  const max = Math.max(last, middle + span / 2) + step / 2;
  const ticks: number[] = [];
  for (let tick = Math.ceil((min + step / 3) / step) * step; tick <= max - step / 3; tick += step)
    ticks.push(tick);
  const day = new Intl.DateTimeFormat("en-CA", { dateStyle: "short", ...(timeZone ? { timeZone } : {}) });
  const spansDays = day.format(new Date(min)) !== day.format(new Date(max));
  const format = tickFormat(step, spansDays, locale, timeZone);
  return { min, max, ticks, format: (value) => format.format(new Date(value)) };
}
