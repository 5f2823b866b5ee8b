/**
 * Calendar v3 `calendarList.insert`, `calendarList.patch` and `calendarList.update`
 * (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/insert, …/patch,
 * …/update): the user's own settings of a calendar on their list, the writable fields of the CalendarList
 * resource (`summaryOverride`, `colorId`, `hidden`, `selected`, `defaultReminders`,
 * `notificationSettings`, and with `colorRgbFormat=true` `backgroundColor` and `foregroundColor`).
 *
 * - `insert` (`POST /users/me/calendarList`) puts a calendar the user can see on their list; `id` is
 *   required (400 `required`), a calendar they cannot see or that does not exist is 404 `notFound` (the
 *   answer google/googleapis.dart#93 quotes). The body is the whole entry: what it leaves out takes the
 *   reference's defaults (`selected` and `hidden` false); an entry already on the list is written anew.
 * - `update` (`PUT …/calendarList/{calendarId}`) replaces the entry's settings the same way; `patch`
 *   (`PATCH`) changes only those given (`null` clears one). Both answer 404 `notFound` for a calendar not
 *   on the user's list.
 * - `backgroundColor` and `foregroundColor` are written only with `colorRgbFormat=true`, as the reference
 *   says ("To set or change this property, you need to specify colorRgbFormat=true"); without it Google
 *   leaves the colours as they were (google/google-api-javascript-client#425), and so does the emulator.
 *   With it, a colour must be `#rrggbb` and `colorId` becomes the nearest colour of the palette.
 * - A value of the wrong type, a `colorId` outside the palette, a reminder method other than `email` or
 *   `popup`, reminder minutes outside 0–40320, a notification other than the reference's types by `email`:
 *   400 `invalid` (the reference lists the values; Google publishes no wording, ours names the field).
 *   Read-only fields (`summary`, `accessRole`, `timeZone`, …) are ignored, as Google ignores them.
 */
import type { DirectoryUser } from "../directory/store";
import { boolParam, type RequestContext } from "../http";
import { BACKGROUNDS, entryJson, listed } from "./calendar-list";
import { LIST_WRITE, type CalendarRoutes } from "./common";
import { calendarNotFound, invalidValue, required } from "./errors";
import type { CalendarStore } from "./store";
import type { ListNotification, ListReminder, StoredListEntry } from "./store-model";

type Settings = Omit<StoredListEntry, "seq" | "deleted">;

const NOTIFICATION_TYPES = new Set([
  "eventCreation",
  "eventChange",
  "eventCancellation",
  "eventResponse",
  "agenda",
]);
const RGB = /^#[0-9a-f]{6}$/i;

function bool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw invalidValue(`Invalid value for ${name}: ${String(value)}`);
  return value;
}

function reminders(value: unknown): ListReminder[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidValue("Invalid value for defaultReminders");
  return value.map((raw: unknown) => {
    const { method, minutes } = (raw ?? {}) as Record<string, unknown>;
    if (method !== "email" && method !== "popup")
      throw invalidValue(`Invalid value for defaultReminders.method: ${String(method)}`);
    if (typeof minutes !== "number" || !Number.isInteger(minutes) || minutes < 0 || minutes > 40_320)
      throw invalidValue(`Invalid value for defaultReminders.minutes: ${String(minutes)}`);
    return { method, minutes };
  });
}

function notifications(value: unknown): ListNotification[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = (value as { notifications?: unknown }).notifications ?? [];
  if (typeof value !== "object" || !Array.isArray(list))
    throw invalidValue("Invalid value for notificationSettings");
  return list.map((raw: unknown) => {
    const { type, method } = (raw ?? {}) as Record<string, unknown>;
    if (typeof type !== "string" || !NOTIFICATION_TYPES.has(type))
      throw invalidValue(`Invalid value for notificationSettings.notifications.type: ${String(type)}`);
    if (method !== "email")
      throw invalidValue(`Invalid value for notificationSettings.notifications.method: ${String(method)}`);
    return { type, method };
  });
}

function rgb(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || !RGB.test(value))
    throw invalidValue(`Invalid value for ${name}: ${String(value)}`);
  return value.toLowerCase();
}

/** The palette colour (`colorId`) nearest to an RGB colour. */
function nearestColorId(color: string): string {
  const parts = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  const [r, g, b] = parts(color) as [number, number, number];
  let best = 0;
  let bestDistance = Infinity;
  BACKGROUNDS.forEach((candidate, index) => {
    const [cr, cg, cb] = parts(candidate) as [number, number, number];
    const distance = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [index, distance];
  });
  return String(best + 1);
}

/**
 * The settings a body writes over `current`: with `replace` (insert, update) every writable field, those
 * left out taking their defaults; without (patch) only the fields the body has.
 */
export function listSettings(
  body: Record<string, unknown>,
  current: Settings,
  options: { replace: boolean; colorRgbFormat: boolean },
): Settings {
  const has = (key: string): boolean => options.replace || key in body;
  const next: Settings = { ...current };
  if (has("summaryOverride")) {
    const value = body.summaryOverride;
    if (value !== undefined && value !== null && typeof value !== "string")
      throw invalidValue(`Invalid value for summaryOverride: ${String(value)}`);
    if (typeof value === "string") next.summaryOverride = value;
    else delete next.summaryOverride;
  }
  if (has("hidden")) next.hidden = bool(body.hidden, "hidden") ?? false;
  if (has("selected")) next.selected = bool(body.selected, "selected") ?? false;
  if (has("defaultReminders")) next.defaultReminders = reminders(body.defaultReminders) ?? [];
  if (has("notificationSettings")) next.notifications = notifications(body.notificationSettings) ?? [];
  if (body.colorId !== undefined && body.colorId !== null) {
    const id = body.colorId;
    if (typeof id !== "string" || !/^\d+$/.test(id) || Number(id) < 1 || Number(id) > BACKGROUNDS.length)
      throw invalidValue(`Invalid value for colorId: ${String(id)}`);
    next.colorId = id;
    delete next.backgroundColor;
    delete next.foregroundColor;
  }
  if (options.colorRgbFormat) {
    const background = rgb(body.backgroundColor, "backgroundColor");
    const foreground = rgb(body.foregroundColor, "foregroundColor");
    if (background !== undefined) {
      next.backgroundColor = background;
      next.colorId = nearestColorId(background);
      next.foregroundColor = foreground ?? next.foregroundColor ?? "#000000";
    } else if (foreground !== undefined) next.foregroundColor = foreground;
  }
  return next;
}

/** The calendar a path's `calendarId` names on the user's list (`primary` their own), or 404. */
function entryOf(store: CalendarStore, context: RequestContext, user: DirectoryUser): StoredListEntry {
  const raw = context.params.calendarId ?? "";
  const id = raw === "primary" ? user.primaryEmail : raw;
  const entry = store.userCalendars(user).entries.get(id);
  if (!entry || listed(store, user, entry).gone) throw calendarNotFound();
  return entry;
}

export function registerCalendarListWriteRoutes({ store, route }: CalendarRoutes): void {
  const answer = (user: DirectoryUser, entry: StoredListEntry) =>
    entryJson(store, user, listed(store, user, entry));
  const colorRgbFormat = (context: RequestContext) => boolParam(context.query, "colorRgbFormat");

  route(
    "POST",
    "/users/me/calendarList",
    "calendar.calendarList.insert",
    LIST_WRITE,
    async (context, user) => {
      const rgbFormat = colorRgbFormat(context);
      const body = await context.json();
      if (body.id === undefined || body.id === null || body.id === "") throw required("Missing id.");
      if (typeof body.id !== "string") throw invalidValue(`Invalid value for id: ${String(body.id)}`);
      const calendar = store.calendar(body.id);
      if (!calendar || store.accessRole(calendar, user) === "none") throw calendarNotFound();
      const list = store.userCalendars(user);
      const existing = list.entries.get(calendar.id);
      const fresh: Settings = {
        calendarId: calendar.id,
        hidden: false,
        selected: false,
        colorId: existing?.colorId ?? String((list.entries.size % BACKGROUNDS.length) + 1),
      };
      const settings = listSettings(body, fresh, { replace: true, colorRgbFormat: rgbFormat });
      return answer(user, store.putListEntry(user, settings));
    },
  );

  for (const [method, id, replace] of [
    ["PUT", "calendar.calendarList.update", true],
    ["PATCH", "calendar.calendarList.patch", false],
  ] as const) {
    route(method, "/users/me/calendarList/:calendarId", id, LIST_WRITE, async (context, user) => {
      const rgbFormat = colorRgbFormat(context);
      const { seq: _seq, deleted: _deleted, ...current } = entryOf(store, context, user);
      void _seq;
      void _deleted;
      const settings = listSettings(await context.json(), current, { replace, colorRgbFormat: rgbFormat });
      return answer(user, store.putListEntry(user, settings));
    });
  }
}
