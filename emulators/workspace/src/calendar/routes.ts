/**
 * Google Calendar API v3 with Calendar's paths (`/calendar/v3/…`, as the Discovery document of
 * `@googleapis/calendar` has them), scopes, JSON shapes and errors, one file per resource: the calendar
 * list (reading in `calendar-list.ts`, writing in `calendar-list-write.ts`), calendars, ACLs, events
 * (reading in `events-read.ts`, writing in `events-write.ts`); plus the emulator-only admin state changes
 * (`admin-routes.ts`). Routes are registered in this order.
 */
import type { WorkspaceEmulator } from "../emulator";
import { registerAclRoutes } from "./acl";
import { registerCalendarAdmin } from "./admin-routes";
import { registerCalendarListRoutes } from "./calendar-list";
import { registerCalendarListWriteRoutes } from "./calendar-list-write";
import { registerCalendarRoutes } from "./calendars";
import { calendarRoutes } from "./common";
import { registerEventReadRoutes } from "./events-read";
import { registerEventWriteRoutes } from "./events-write";

export function registerCalendarApi(emulator: WorkspaceEmulator): void {
  const routes = calendarRoutes(emulator);
  registerCalendarListRoutes(routes);
  registerCalendarListWriteRoutes(routes);
  registerCalendarRoutes(routes);
  registerAclRoutes(routes);
  registerEventReadRoutes(routes);
  registerEventWriteRoutes(routes);
  registerCalendarAdmin(emulator);
}
