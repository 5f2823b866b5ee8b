/**
 * Calendar v3 `calendars.get`, `calendars.insert` and `calendars.delete`
 * (https://developers.google.com/workspace/calendar/api/v3/reference/calendars): a new calendar is owned
 * by the caller and put on their list; only an owner deletes one, and the primary calendar cannot be
 * deleted (the reference points to `calendars.clear` for it; Google publishes no wording, ours is 400).
 */
import { badRequest } from "../http";
import { CALENDAR_READ, CALENDAR_WRITE, etag, type CalendarRoutes } from "./common";
import { invalidValue, required } from "./errors";
import { validTimeZone } from "./recurrence";
import type { StoredCalendar } from "./store-model";

export function calendarJson(calendar: StoredCalendar): Record<string, unknown> {
  return {
    kind: "calendar#calendar",
    etag: etag(calendar.seq),
    id: calendar.id,
    summary: calendar.summary,
    ...(calendar.description !== undefined ? { description: calendar.description } : {}),
    ...(calendar.location !== undefined ? { location: calendar.location } : {}),
    timeZone: calendar.timeZone,
    conferenceProperties: { allowedConferenceSolutionTypes: ["hangoutsMeet"] },
  };
}

/** The writable fields of a calendar (`summary` required), checked. */
export function calendarInput(body: Record<string, unknown>): {
  summary: string;
  description?: string;
  location?: string;
  timeZone?: string;
} {
  if (typeof body.summary !== "string" || body.summary.trim() === "") throw required("Missing summary.");
  for (const key of ["description", "location", "timeZone"] as const) {
    if (body[key] !== undefined && typeof body[key] !== "string")
      throw invalidValue(`Invalid value for ${key}`);
  }
  const timeZone = body.timeZone as string | undefined;
  if (timeZone !== undefined && !validTimeZone(timeZone)) throw invalidValue("Invalid time zone definition.");
  return {
    summary: body.summary,
    ...(typeof body.description === "string" ? { description: body.description } : {}),
    ...(typeof body.location === "string" ? { location: body.location } : {}),
    ...(timeZone !== undefined ? { timeZone } : {}),
  };
}

export function registerCalendarRoutes({ store, route, access }: CalendarRoutes): void {
  route("GET", "/calendars/:calendarId", "calendar.calendars.get", CALENDAR_READ, (context, user) =>
    calendarJson(access(context, user, "freeBusyReader").calendar),
  );
  route("POST", "/calendars", "calendar.calendars.insert", CALENDAR_WRITE, async (context, user) =>
    calendarJson(store.addCalendar(user, calendarInput(await context.json()))),
  );
  route("DELETE", "/calendars/:calendarId", "calendar.calendars.delete", CALENDAR_WRITE, (context, user) => {
    const { calendar } = access(context, user, "owner");
    if (calendar.primary)
      throw badRequest("The primary calendar cannot be deleted. Use calendars.clear.", "invalid");
    store.deleteCalendar(calendar);
    return undefined;
  });
}
