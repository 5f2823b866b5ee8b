/**
 * When a scheduled restore drill is due (pure; the settings route and the dispatcher use it): at 03:00 UTC,
 * daily; weekly on Sundays; monthly on the first day of the month. Always strictly after `now`.
 */
import type { DrillSchedule } from "@alpvault/contracts/drills";

const DRILL_HOUR_UTC = 3;
const DAY_MS = 24 * 3600 * 1000;

export function nextDrillAt(schedule: DrillSchedule, now: Date): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  if (schedule === "monthly") {
    const first = new Date(Date.UTC(year, month, 1, DRILL_HOUR_UTC));
    return first > now ? first : new Date(Date.UTC(year, month + 1, 1, DRILL_HOUR_UTC));
  }
  // Today's slot (daily), or this week's Sunday's (weekly); then step until it is after now.
  const today = Date.UTC(year, month, now.getUTCDate(), DRILL_HOUR_UTC);
  const step = schedule === "daily" ? DAY_MS : 7 * DAY_MS;
  let candidate = schedule === "daily" ? today : today - now.getUTCDay() * DAY_MS;
  while (candidate <= now.getTime()) candidate += step;
  return new Date(candidate);
}
