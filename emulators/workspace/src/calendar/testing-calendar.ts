/**
 * Test helpers for Calendar: an emulator whose test customer granted the Calendar scopes besides the
 * default ones, and the official client (`@googleapis/calendar`) pointed at it.
 */
import { calendar_v3 } from "@googleapis/calendar";
import { DEFAULT_GRANTED_SCOPES, SCOPES } from "../auth";
import { TEST_DOMAIN, startHarness, type Harness } from "../testing/harness";

export const CALENDAR_GRANTS = [
  SCOPES.calendar,
  SCOPES.calendarReadonly,
  SCOPES.calendarEvents,
  SCOPES.calendarEventsReadonly,
  SCOPES.calendarAcls,
];

export interface CalendarHarness extends Harness {
  calendar(subject: string, scopes?: string[]): calendar_v3.Calendar;
}

export async function startCalendarHarness(
  options: Parameters<typeof startHarness>[0] = {},
): Promise<CalendarHarness> {
  const harness = await startHarness(options);
  // An empty emulator has no customer to install for (a test restores one).
  if (!options.empty) {
    const installed = await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:install`, {
      scopes: [...DEFAULT_GRANTED_SCOPES, ...CALENDAR_GRANTS],
    });
    if (installed.status !== 200) throw new Error(`install failed: ${String(installed.status)}`);
  }
  return {
    ...harness,
    calendar: (subject, scopes = [SCOPES.calendar]) =>
      new calendar_v3.Calendar({ auth: harness.jwt(subject, scopes), rootUrl: `${harness.url}/` }),
  };
}
