/**
 * The Calendar source's reads of one user's calendars, each through the caller as that user: the calendars
 * they own (their calendar list), a calendar's content (resource, list entry, sharing), one event, a
 * series' iCalUID and a calendar's name, with what a run learns of them kept for its fetches.
 */
import type { calendar_v3 } from "@googleapis/calendar";
import { googleStatus } from "../sources/google-errors";
import { ItemGoneError } from "../sources/source";
import {
  calendarContent,
  calendarItemKey,
  calendarName,
  isDeletedEvent,
  type CalendarContent,
} from "./entries";
import { CALENDAR_LIST_PAGE_SIZE } from "./limits";

/** One Calendar read as the user (`method`: Google's method id). */
export type CalendarCall = <T>(method: string, send: () => Promise<T>) => Promise<T>;

export interface OwnedCalendar {
  id: string;
  entry: calendar_v3.Schema$CalendarListEntry;
}

/** Primary first, then by id: the order calendars are listed in, the same every run. */
export function calendarOrder(
  a: { id: string; primary?: boolean },
  b: { id: string; primary?: boolean },
): number {
  if (a.primary !== b.primary) return a.primary ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class CalendarReads {
  /** Calendar names by id, for the events' search fields (from the calendar list, else `calendars.get`). */
  private readonly names = new Map<string, Promise<string>>();
  /** Series' iCalUIDs by `<calendarId>/<series id>`, from the masters listed (their instances need it). */
  private readonly seriesUIDs = new Map<string, string>();

  constructor(
    private readonly calendar: calendar_v3.Calendar,
    private readonly call: CalendarCall,
  ) {}

  /** Keeps a listed master's iCalUID for its instances' metadata. */
  rememberSeries(calendarId: string, event: calendar_v3.Schema$Event): void {
    if (event.id && event.recurrence && event.iCalUID)
      this.seriesUIDs.set(`${calendarId}/${event.id}`, event.iCalUID);
  }

  /** The calendars on the user's list they own, hidden ones included, in listing order. */
  async ownedCalendars(): Promise<OwnedCalendar[]> {
    const owned: OwnedCalendar[] = [];
    let pageToken: string | undefined;
    do {
      const { data } = await this.call("calendar.calendarList.list", () =>
        this.calendar.calendarList.list({
          minAccessRole: "owner",
          showHidden: true,
          maxResults: CALENDAR_LIST_PAGE_SIZE,
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      for (const entry of data.items ?? []) {
        if (!entry.id || entry.deleted || entry.accessRole !== "owner") continue;
        owned.push({ id: entry.id, entry });
        this.names.set(entry.id, Promise.resolve(entry.summaryOverride ?? entry.summary ?? ""));
      }
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    return owned.sort((a, b) =>
      calendarOrder(
        { id: a.id, primary: a.entry.primary === true },
        { id: b.id, primary: b.entry.primary === true },
      ),
    );
  }

  /** A calendar's content: its resource, the user's list entry of it (read when not given) and its rules. */
  async readCalendar(
    calendarId: string,
    listed?: calendar_v3.Schema$CalendarListEntry,
  ): Promise<CalendarContent> {
    const itemKey = calendarItemKey(calendarId);
    const gone = (error: unknown): never => {
      if (googleStatus(error) === 404 || googleStatus(error) === 410) throw new ItemGoneError(itemKey);
      throw error;
    };
    const calendar = (
      await this.call("calendar.calendars.get", () => this.calendar.calendars.get({ calendarId })).catch(gone)
    ).data;
    const entry =
      listed ??
      (
        await this.call("calendar.calendarList.get", () =>
          this.calendar.calendarList.get({ calendarId }),
        ).catch(gone)
      ).data;
    const rules: calendar_v3.Schema$AclRule[] = [];
    let pageToken: string | undefined;
    do {
      const { data } = await this.call("calendar.acl.list", () =>
        this.calendar.acl.list({
          calendarId,
          maxResults: CALENDAR_LIST_PAGE_SIZE,
          ...(pageToken ? { pageToken } : {}),
        }),
      ).catch(gone);
      rules.push(...(data.items ?? []));
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    return calendarContent(calendar, entry, rules);
  }

  async readEvent(
    itemKey: string,
    key: { calendarId: string; eventId: string },
  ): Promise<calendar_v3.Schema$Event> {
    let event: calendar_v3.Schema$Event;
    try {
      ({ data: event } = await this.call("calendar.events.get", () =>
        this.calendar.events.get({ calendarId: key.calendarId, eventId: key.eventId }),
      ));
    } catch (error) {
      if (googleStatus(error) === 404 || googleStatus(error) === 410) throw new ItemGoneError(itemKey);
      throw error;
    }
    // Google answers a deleted event (for a while) as cancelled: gone, as the listing would have said.
    if (isDeletedEvent(event)) throw new ItemGoneError(itemKey);
    return event;
  }

  /** The iCalUID of a series: from its master seen in the listing, else its `events.get` (undefined: gone). */
  async seriesICalUID(calendarId: string, seriesId: string): Promise<string | undefined> {
    const known = this.seriesUIDs.get(`${calendarId}/${seriesId}`);
    if (known) return known;
    try {
      const { data } = await this.call("calendar.events.get", () =>
        this.calendar.events.get({ calendarId, eventId: seriesId }),
      );
      if (data.iCalUID) this.seriesUIDs.set(`${calendarId}/${seriesId}`, data.iCalUID);
      return data.iCalUID ?? undefined;
    } catch (error) {
      if (googleStatus(error) === 404 || googleStatus(error) === 410) return undefined;
      throw error;
    }
  }

  /** A calendar's name for the events' search fields (`calendars.get` once when the list was not read). */
  nameOf(calendarId: string): Promise<string> {
    let name = this.names.get(calendarId);
    if (!name) {
      name = this.call("calendar.calendars.get", () => this.calendar.calendars.get({ calendarId })).then(
        ({ data }) => calendarName(data),
        () => "",
      );
      this.names.set(calendarId, name);
    }
    return name;
  }
}
