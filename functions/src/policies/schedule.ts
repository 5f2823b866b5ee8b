/**
 * When a policy's next scheduled backup is due. Pure: the policy and a point in time in, a point in time
 * out; the resources' `nextBackupAt` is computed with it, and the backup dispatcher uses it to decide what
 * is due.
 *
 * The rule (times in UTC, the organisation's region runs them):
 * - a day has `frequency` backup slots, evenly spaced from 02:00: 1 per day → 02:00; 3 per day → 02:00,
 *   10:00, 18:00; 24 per day → every hour on the hour;
 * - slots only fall on the schedule's days: every day; weekdays Monday to Friday; weekends Saturday and
 *   Sunday; or the chosen days. Schedule "none" has no scheduled backups (manual and policy-assigned
 *   backups only), so there is no next one;
 * - the next backup is the first slot strictly after `after`.
 */
import type { Frequency, Schedule, Weekday } from "@alpvault/contracts/policies";

/** The hour (UTC) of a day's first backup slot. */
export const FIRST_SLOT_HOUR = 2;

/** getUTCDay() order: Sunday is 0. */
const DAY_NAMES: readonly Weekday[] = [
  "sunday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
];

const SCHEDULE_DAYS: Record<Exclude<Schedule, "days" | "none">, readonly Weekday[]> = {
  "every-day": DAY_NAMES,
  weekdays: ["monday", "tuesday", "wednesday", "thursday", "friday"],
  weekends: ["saturday", "sunday"],
};

export interface BackupTiming {
  frequency: Frequency;
  schedule: Schedule;
  /** The chosen days when `schedule` is "days". */
  days: readonly Weekday[];
}

/** The hours (UTC) of a day's backup slots. */
export function slotHours(frequency: Frequency): number[] {
  const step = 24 / frequency;
  return Array.from({ length: frequency }, (_, index) => (FIRST_SLOT_HOUR + index * step) % 24).sort(
    (a, b) => a - b,
  );
}

/** The weekdays a schedule backs up on (none for "none"). */
export function scheduledDays(timing: Pick<BackupTiming, "schedule" | "days">): readonly Weekday[] {
  if (timing.schedule === "none") return [];
  if (timing.schedule === "days") return timing.days;
  return SCHEDULE_DAYS[timing.schedule];
}

/** The first backup slot of `timing` strictly after `after`, or null when the schedule has no days. */
export function nextBackupAt(timing: BackupTiming, after: Date): Date | null {
  const days = new Set(scheduledDays(timing));
  if (days.size === 0) return null;
  const hours = slotHours(timing.frequency);
  const midnight = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  // Today and the next seven days cover every weekday once more, so a slot is always found.
  for (let offset = 0; offset <= 7; offset += 1) {
    const day = new Date(midnight + offset * 86_400_000);
    if (!days.has(DAY_NAMES[day.getUTCDay()] as Weekday)) continue;
    for (const hour of hours) {
      const slot = new Date(day.getTime() + hour * 3_600_000);
      if (slot.getTime() > after.getTime()) return slot;
    }
  }
  return null;
}
