/**
 * The Calendar part of the emulator-only admin API, under `/emulator/v1` (no token), for tests: add a
 * calendar to a user (owned, or someone else's on their list), add events (any event type; with an
 * `iCalUID` as `events.import` adds them, keeping organizer and iCalUID), expire a user's sync tokens,
 * set how long sync tokens last, and add the awkward cases (`generator.ts`).
 */
import { ADMIN_PREFIX, pathUser } from "../admin";
import type { WorkspaceEmulator } from "../emulator";
import { GoogleApiError, badRequest, type RequestContext } from "../http";
import { calendarJson, calendarInput } from "./calendars";
import { eventJson } from "./event-json";
import { importEvent, insertEvent } from "./events-write";
import { addAwkwardCalendar } from "./generator";

export function registerCalendarAdmin(emulator: WorkspaceEmulator): void {
  const store = emulator.calendar;
  const add = (method: string, path: string, handler: (context: RequestContext) => unknown): void =>
    emulator.router.add({ method, path: `${ADMIN_PREFIX}${path}`, id: `emulator/calendar${path}`, handler });

  // {summary, description?, location?, timeZone?}: a secondary calendar the user owns.
  add("POST", "/users/:user/calendar/calendars", async (context) => {
    const user = pathUser(emulator, context);
    return calendarJson(store.addCalendar(user, calendarInput(await context.json())));
  });
  // {calendarId, hidden?, role?}: another calendar on the user's list (with an ACL rule for them, default reader).
  add("POST", "/users/:user/calendar/calendarList", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    const calendar = typeof body.calendarId === "string" ? store.calendar(body.calendarId) : undefined;
    if (!calendar) throw new GoogleApiError(404, "No such calendar", "notFound");
    if (body.hidden !== undefined && typeof body.hidden !== "boolean")
      throw badRequest("hidden must be a boolean");
    const role = (body.role ?? "reader") as "reader" | "writer" | "owner" | "freeBusyReader";
    if (!["freeBusyReader", "reader", "writer", "owner"].includes(role)) throw badRequest("invalid role");
    if (store.accessRole(calendar, user) === "none" || body.role !== undefined) {
      store.putRule(calendar, { type: "user", value: user.primaryEmail }, role);
    }
    const entry = store.subscribe(user, calendar.id, body.hidden === true ? { hidden: true } : {});
    return { calendarId: entry.calendarId, hidden: entry.hidden };
  });
  // An Events resource; with `iCalUID` it is imported (organizer and iCalUID kept), else inserted.
  add("POST", "/users/:user/calendar/calendars/:calendarId/events", async (context) => {
    const user = pathUser(emulator, context);
    const id =
      context.params.calendarId === "primary" ? user.primaryEmail : (context.params.calendarId ?? "");
    store.userCalendars(user);
    const calendar = store.calendar(id);
    if (!calendar) throw new GoogleApiError(404, "No such calendar", "notFound");
    const body = await context.json();
    const options = { primary: calendar.primary, supportsAttachments: true, conferenceDataVersion: 1 };
    const event =
      typeof body.iCalUID === "string"
        ? importEvent(store, calendar, user, body, { ...options, kind: "import" })
        : insertEvent(store, calendar, user, body, { ...options, kind: "insert" });
    return eventJson(calendar, event, { viewer: user });
  });
  // Every sync token the user holds (calendar list, their calendars' ACLs and events) answers 410.
  add("POST", "/users/:user/calendar:expireSyncTokens", (context) => {
    store.expireSyncTokens(pathUser(emulator, context));
    return { expired: true };
  });
  // {tokenLifetimeSeconds}: how long a sync token is accepted (on the emulator's clock).
  add("PATCH", "/calendar/sync", async (context) => {
    const value = (await context.json()).tokenLifetimeSeconds;
    if (typeof value !== "number" || !(value > 0))
      throw badRequest("tokenLifetimeSeconds must be a number > 0");
    store.tokenLifetimeMs = value * 1000;
    return { tokenLifetimeSeconds: value };
  });
  // {days?, attendees?, firstDay?}: the awkward cases in the user's primary calendar.
  add("POST", "/users/:user/calendar:awkward", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    return addAwkwardCalendar(store, user, {
      ...(typeof body.days === "number" ? { days: body.days } : {}),
      ...(typeof body.attendees === "number" ? { attendees: body.attendees } : {}),
      ...(typeof body.firstDay === "string" ? { firstDay: body.firstDay } : {}),
    });
  });
}
