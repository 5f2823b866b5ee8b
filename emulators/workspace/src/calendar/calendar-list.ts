/**
 * Calendar v3 `calendarList.list` and `calendarList.get`
 * (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/list): the calendars on
 * the user's list with their role on each; paging (`maxResults` ≤ 250, default 100), `showHidden`,
 * `showDeleted`, and `syncToken` (only entries changed since, deleted and hidden ones always included;
 * `minAccessRole` and `showOwnOrganizationOnly` refused with it, as the reference says; entries the
 * user lost access to are deleted entries). An entry is the CalendarList resource
 * (https://developers.google.com/workspace/calendar/api/v3/reference/calendarList#resource): `summary` is
 * the calendar's own title (read-only), `summaryOverride` the name the user gave it, present only when
 * set; colours, reminders and notifications are the user's settings (the writes: `calendar-list-write.ts`).
 */
import type { DirectoryUser } from "../directory/store";
import { boolParam } from "../http";
import { LIST_READ, etag, maxResultsParam, page, type CalendarRoutes } from "./common";
import { calendarNotFound, invalidValue, notWithSyncToken } from "./errors";
import type { CalendarStore } from "./store";
import { ROLES, type Role, type StoredListEntry, roleRank } from "./store-model";

/** Google's calendar colours (the `colors.get` palette, `calendar` part). */
export const BACKGROUNDS = [
  "#ac725e",
  "#d06b64",
  "#f83a22",
  "#fa573c",
  "#ff7537",
  "#ffad46",
  "#42d692",
  "#16a765",
  "#7bd148",
  "#b3dc6c",
  "#fbe983",
  "#fad165",
  "#92e1c0",
  "#9fe1e7",
  "#9fc6e7",
  "#4986e7",
  "#9a9cff",
  "#b99aff",
  "#c2c2c2",
  "#cabdbf",
  "#cca6ac",
  "#f691b2",
  "#cd74e6",
  "#a47ae2",
];

/** The background of a palette colour (`colorId` "1" to "24"). */
export const paletteColor = (colorId: string): string =>
  BACKGROUNDS[(Number(colorId) - 1) % BACKGROUNDS.length] ?? (BACKGROUNDS[0] as string);

export interface ListedEntry {
  entry: StoredListEntry;
  role: Role;
  gone: boolean;
}

export function listed(store: CalendarStore, user: DirectoryUser, entry: StoredListEntry): ListedEntry {
  const calendar = store.calendar(entry.calendarId);
  const role = calendar ? store.accessRole(calendar, user) : "none";
  return { entry, role, gone: entry.deleted || !calendar || role === "none" };
}

export function entryJson(
  store: CalendarStore,
  user: DirectoryUser,
  { entry, role, gone }: ListedEntry,
): Record<string, unknown> {
  const calendar = store.calendar(entry.calendarId);
  if (gone || !calendar)
    return { kind: "calendar#calendarListEntry", etag: etag(entry.seq), id: entry.calendarId, deleted: true };
  // The primary calendar's defaults for its owner, until the user sets their own.
  const ownPrimary = calendar.primary && role === "owner";
  const notifications =
    entry.notifications ??
    (ownPrimary
      ? ["eventCreation", "eventChange", "eventCancellation", "eventResponse"].map((type) => ({
          type,
          method: "email",
        }))
      : []);
  return {
    kind: "calendar#calendarListEntry",
    etag: etag(entry.seq),
    id: calendar.id,
    summary: calendar.summary,
    ...(entry.summaryOverride !== undefined ? { summaryOverride: entry.summaryOverride } : {}),
    ...(calendar.description !== undefined ? { description: calendar.description } : {}),
    ...(calendar.location !== undefined ? { location: calendar.location } : {}),
    timeZone: calendar.timeZone,
    colorId: entry.colorId,
    backgroundColor: entry.backgroundColor ?? paletteColor(entry.colorId),
    foregroundColor: entry.foregroundColor ?? "#000000",
    ...(entry.hidden ? { hidden: true } : {}),
    ...(entry.selected ? { selected: true } : {}),
    accessRole: role,
    defaultReminders: entry.defaultReminders ?? (ownPrimary ? [{ method: "popup", minutes: 10 }] : []),
    ...(notifications.length > 0 ? { notificationSettings: { notifications } } : {}),
    ...(calendar.primary && calendar.ownerId === user.id ? { primary: true } : {}),
    conferenceProperties: { allowedConferenceSolutionTypes: ["hangoutsMeet"] },
  };
}

export function registerCalendarListRoutes({ store, route }: CalendarRoutes): void {
  route("GET", "/users/me/calendarList", "calendar.calendarList.list", LIST_READ, (context, user) => {
    const { query } = context;
    const syncToken = query.get("syncToken");
    const list = store.userCalendars(user);
    const maxResults = maxResultsParam(context, 100, 250);
    const minRole = query.get("minAccessRole");
    if (minRole !== null && (!ROLES.includes(minRole as Role) || minRole === "none")) {
      throw invalidValue(`Invalid value for minAccessRole: ${minRole}`);
    }
    let since: number | undefined;
    if (syncToken) {
      if (minRole !== null) throw notWithSyncToken("minAccessRole");
      if (query.has("showOwnOrganizationOnly")) throw notWithSyncToken("showOwnOrganizationOnly");
      if (query.get("showDeleted") === "false") throw notWithSyncToken("showDeleted");
      if (query.get("showHidden") === "false") throw notWithSyncToken("showHidden");
      since = store.acceptToken("calendarList", user.id, syncToken, list.listSyncFloor);
    }
    const showDeleted = since !== undefined || boolParam(query, "showDeleted");
    const showHidden = since !== undefined || boolParam(query, "showHidden");
    boolParam(query, "showOwnOrganizationOnly");
    const startSeq = store.currentSeq();
    const items = [...list.entries.values()]
      .map((entry) => listed(store, user, entry))
      .filter(({ entry, role, gone }) => {
        if (since !== undefined && entry.seq <= since) return false;
        if (gone) return showDeleted;
        if (entry.hidden && !showHidden) return false;
        return minRole === null || roleRank(role) >= roleRank(minRole as Role);
      })
      .map((item) => ({ key: item.entry.calendarId, item: entryJson(store, user, item) }));
    const result = page(context, items, maxResults, startSeq, (seq) =>
      store.issueToken("calendarList", user.id, seq),
    );
    return { kind: "calendar#calendarList", etag: etag(startSeq), ...result };
  });

  route(
    "GET",
    "/users/me/calendarList/:calendarId",
    "calendar.calendarList.get",
    LIST_READ,
    (context, user) => {
      const raw = context.params.calendarId ?? "";
      const id = raw === "primary" ? user.primaryEmail : raw;
      const entry = store.userCalendars(user).entries.get(id);
      if (!entry) throw calendarNotFound();
      const item = listed(store, user, entry);
      if (item.gone) throw calendarNotFound();
      return entryJson(store, user, item);
    },
  );
}
