/**
 * Calendar as a backup source: the calendars a user owns (primary and secondary calendars on their
 * calendar list with `accessRole: "owner"`, hidden ones included) and their events.
 *
 * Every run reads the calendar list (`calendarList.list`), then:
 * - calendar items: each owned calendar's resource (`calendars.get`), list settings and sharing
 *   (`acl.list`), read `PARALLEL_CALENDARS` at once, one batch, every run (most users have a few calendars, and an unchanged one lists with the same
 *   version key, so the engine skips it). A calendar gone from the list (deleted, given away, no longer
 *   owned) is a delete of its calendar item; its events stay in the catalog as they were (nothing lists
 *   them any more, and a restore of the calendar wants them), and its sync token is dropped, so a
 *   calendar that comes back gets a full listing;
 * - events, calendar after calendar (primary first, then by id; the next `PARALLEL_CALENDARS` calendars'
 *   first pages asked for while one is listed, and yielded in their turn), through the shared sync-token loop
 *   (`../sources/sync-token-listing.ts`): a calendar without a token gets a full listing (`events.list`
 *   with `singleEvents=false`: a recurring series is its master event plus its changed and cancelled
 *   instances as entries of their own), page by page, and the last page's `nextSyncToken` is its
 *   incremental token; one with a token lists what changed since (Google refuses most other parameters
 *   with `syncToken`, so none is sent but the page size). A cancelled entry without `recurringEventId` is a
 *   deleted event (a delete); a cancelled instance of a series is the series' exception (an upsert),
 *   unless its series is deleted in the same listing (a delete: it went with its series). A 410
 *   `fullSyncRequired` for a calendar is that calendar's full listing, asked with `showDeleted` so that
 *   the events deleted while the token was refused come as deletes, its first batch marked `resynced`,
 *   never a failure. It is not marked `fullListing`: the runner's sweep of unseen items after a full
 *   listing covers every item of the service, and the other calendars' unchanged events are not listed.
 * - A first backup (no cursor) or a cursor that cannot be read is a full listing of everything: its first
 *   batch (the calendar items) says `fullListing` (and `resynced` for the unreadable cursor), the last
 *   event batch `done`. Google counts nothing a listing could announce, so no batch says `expected`.
 *
 * Fetch: the listing's entry (`hint`) when it has one, else `events.get` (or the calendar's three reads);
 * a 404 or 410, or an event Google answers as deleted, is `ItemGoneError`. A cancelled instance carries
 * no `iCalUID`: its metadata takes its series' (seen in the listing, else `events.get` of the series),
 * which a restore needs to import it as the series' exception.
 *
 * Parts: `entries.ts` (item keys, content, keys, metadata, search fields), `cursor.ts` (the cursor),
 * `reads.ts` (the reads of the user's calendars and what a run learns of them).
 */
import type { calendar_v3 } from "@googleapis/calendar";
import type { GoogleCaller } from "../google/caller";
import { googleStatus } from "../sources/google-errors";
import { syncTokenSteps, type SyncTokenCollection, type SyncTokenPage } from "../sources/sync-token-listing";
import type { Change, ChangeBatch, FetchedItem, ItemRef, Source } from "../sources/source";
import { readCalendarCursor, writeCalendarCursor, type CalendarCursor } from "./cursor";
import {
  calendarBytes,
  calendarItemKey,
  calendarSearchFields,
  eventBytes,
  eventItemKey,
  eventMetadata,
  eventSearchFields,
  isDeletedEvent,
  parseItemKey,
  type CalendarContent,
} from "./entries";
import { inParallel } from "../../lib/parallel";
import { CALENDAR_EVENTS_PAGE_SIZE } from "./limits";
import { CalendarReads, calendarOrder, type OwnedCalendar } from "./reads";

export interface CalendarSourceOptions {
  /** The user's client (delegated to `user`). */
  calendar: calendar_v3.Calendar;
  /** The user's address: whose quota the calls spend. */
  user: string;
  caller: GoogleCaller;
  /** Aborts the run's calls (the worker nears its deadline): passed to the caller with every request. */
  signal?: AbortSignal;
  /** Events per `events.list` page (Calendar's maximum, 2,500, unless a test asks for less). */
  pageSize?: number;
}

/**
 * Calendars read at once, and calendars whose first page of events is asked for ahead: a user with many
 * calendars (team calendars, rooms) is listed at the quota's pace instead of one answer's time after
 * another (the caller keeps within the per-user limit and concurrency).
 */
const PARALLEL_CALENDARS = 4;

/** What the listing hands its fetch: the entry it already read. */
type CalendarHint =
  { entry: "calendar"; content: CalendarContent } | { entry: "event"; event: calendar_v3.Schema$Event };

export class CalendarSource implements Source {
  readonly kind = "calendar" as const;
  private readonly calendar: calendar_v3.Calendar;
  private readonly user: string;
  private readonly caller: GoogleCaller;
  private readonly signal?: AbortSignal;
  private readonly pageSize: number;
  /** The reads of the user's calendars, and what this run learnt of them. */
  private readonly reads: CalendarReads;
  /** First pages of events asked for ahead of their calendar's turn, by calendar. */
  private readonly ahead = new Map<string, { params: string; page: Promise<SyncTokenPage> }>();
  private readonly deletedSeries = new Map<string, Set<string>>();

  constructor(options: CalendarSourceOptions) {
    this.calendar = options.calendar;
    this.user = options.user;
    this.caller = options.caller;
    this.signal = options.signal;
    this.pageSize = options.pageSize ?? CALENDAR_EVENTS_PAGE_SIZE;
    this.reads = new CalendarReads(this.calendar, (method, send) => this.call(method, send));
  }

  /** One Calendar call as the user (every one is a read: repeating it does nothing twice). */
  private call<T>(method: string, send: () => Promise<T>): Promise<T> {
    return this.caller.call(
      {
        api: "calendar",
        user: this.user,
        method,
        idempotent: true,
        ...(this.signal ? { signal: this.signal } : {}),
      },
      send,
    );
  }

  listChanges(cursor: string | null): AsyncIterable<ChangeBatch> {
    return this.list(cursor);
  }

  private async *list(cursor: string | null): AsyncGenerator<ChangeBatch, void> {
    const read = readCalendarCursor(cursor);
    const owned = await this.reads.ownedCalendars();
    let state = read.state;
    if (!state.at) {
      const listed = await this.calendarBatch(state, owned);
      state = listed.state;
      yield {
        ...listed.batch,
        ...(read.fresh || read.unreadable ? { fullListing: true } : {}),
        ...(read.unreadable ? { resynced: true } : {}),
      };
      if (owned.length === 0) return;
    }
    yield* this.eventBatches(state, owned);
  }

  /** The calendar items' batch: every owned calendar as an upsert, those gone from the list as deletes. */
  private async calendarBatch(
    state: CalendarCursor,
    owned: OwnedCalendar[],
  ): Promise<{ batch: ChangeBatch; state: CalendarCursor }> {
    // Each calendar's reads wait on Google's answer, not on the quota: several calendars at once.
    const upserts: Change[] = new Array<Change>(owned.length);
    await inParallel([...owned.keys()], PARALLEL_CALENDARS, async (index) => {
      const { id, entry } = owned[index] as OwnedCalendar;
      const content = await this.reads.readCalendar(id, entry);
      const { versionKey, contentKey } = calendarBytes(content);
      const hint: CalendarHint = { entry: "calendar", content };
      upserts[index] = {
        type: "upsert",
        item: { itemKey: calendarItemKey(id), versionKey, contentKey, hint },
      };
    });
    const changes: Change[] = [...upserts];
    const ids = new Set(owned.map((calendar) => calendar.id));
    for (const id of state.calendars) {
      if (!ids.has(id)) changes.push({ type: "delete", itemKey: calendarItemKey(id) });
    }
    const tokens = Object.fromEntries(Object.entries(state.tokens).filter(([id]) => ids.has(id)));
    const first = owned[0];
    const next: CalendarCursor = {
      v: state.v,
      calendars: [...ids],
      tokens,
      ...(first ? { at: { calendarId: first.id } } : {}),
    };
    return {
      batch: { changes, nextCursor: writeCalendarCursor(next), ...(first ? {} : { done: true }) },
      state: next,
    };
  }

  /** The events' batches, calendar after calendar, from where the cursor says. */
  private async *eventBatches(state: CalendarCursor, owned: OwnedCalendar[]): AsyncGenerator<ChangeBatch> {
    const at = state.at?.calendarId ?? "";
    // The calendar the run stopped in, or (gone since) the first one after it in listing order.
    let index = owned.findIndex((calendar) => calendar.id === at);
    if (index < 0) {
      index = owned.findIndex(
        (calendar) =>
          calendarOrder({ ...calendar, primary: calendar.entry.primary === true }, { id: at }) > 0,
      );
    }
    if (index < 0) index = owned.length;
    let tokens = state.tokens;
    for (let i = index; i < owned.length; i += 1) {
      const calendarId = (owned[i] as OwnedCalendar).id;
      // The next calendars' first pages are asked for while this one is listed (they are yielded in order).
      for (const ahead of owned.slice(i + 1, i + 1 + PARALLEL_CALENDARS)) {
        const token = tokens[ahead.id];
        this.askAhead(ahead.id, token ? { syncToken: token } : {});
      }
      const following = owned[i + 1]?.id;
      const saved = tokens[calendarId];
      const from =
        state.at?.calendarId === calendarId && state.at.position
          ? state.at.position
          : saved
            ? ({ mode: "incremental", syncToken: saved } as const)
            : undefined;
      const cursorAfter = (done: boolean, position?: CalendarCursor["at"]): string =>
        writeCalendarCursor({
          v: state.v,
          calendars: state.calendars,
          tokens,
          ...(done ? (following ? { at: { calendarId: following } } : {}) : { at: position }),
        });
      try {
        for await (const step of syncTokenSteps(this.eventsOf(calendarId), from)) {
          if (step.done && step.next.mode === "incremental")
            tokens = { ...tokens, [calendarId]: step.next.syncToken };
          yield {
            changes: step.changes,
            nextCursor: cursorAfter(step.done, { calendarId, position: step.next }),
            ...(step.resynced ? { resynced: true } : {}),
            ...(step.done && !following ? { done: true } : {}),
          };
        }
      } catch (error) {
        // Deleted (or no longer the user's) since the calendar list was read: the next run's calendar
        // batch deletes its item; this run goes on with the next calendar.
        if (googleStatus(error) !== 404) throw error;
        const { [calendarId]: _dropped, ...rest } = tokens;
        void _dropped;
        tokens = rest;
        yield { changes: [], nextCursor: cursorAfter(true), ...(following ? {} : { done: true }) };
      }
    }
  }

  /** Asks for a calendar's first page of events now (once), for `eventsOf` to take when it asks the same. */
  private askAhead(calendarId: string, params: calendar_v3.Params$Resource$Events$List): void {
    if (this.ahead.has(calendarId)) return;
    const page = this.eventsPage(calendarId, params);
    // Its failure is the listing's, when it takes the page; until then it is not unhandled.
    page.catch(() => undefined);
    this.ahead.set(calendarId, { params: JSON.stringify(params), page });
  }

  /** Series deleted in this run's listing of a calendar: their cancelled instances went with them. */
  private deletedSeriesOf(calendarId: string): Set<string> {
    let deleted = this.deletedSeries.get(calendarId);
    if (!deleted) {
      deleted = new Set();
      this.deletedSeries.set(calendarId, deleted);
    }
    return deleted;
  }

  /** One page of a calendar's events (the one asked ahead, when it was asked with these parameters). */
  private eventsPage(
    calendarId: string,
    params: calendar_v3.Params$Resource$Events$List,
  ): Promise<SyncTokenPage> {
    const early = this.ahead.get(calendarId);
    if (early?.params === JSON.stringify(params)) {
      this.ahead.delete(calendarId);
      return early.page;
    }
    return this.readEventsPage(calendarId, params, this.deletedSeriesOf(calendarId));
  }

  /** One calendar's events as the sync-token loop lists them. */
  private eventsOf(calendarId: string): SyncTokenCollection {
    const page = (params: calendar_v3.Params$Resource$Events$List) => this.eventsPage(calendarId, params);
    return {
      fullPage: (pageToken, resync) =>
        page({ ...(pageToken ? { pageToken } : {}), ...(resync ? { showDeleted: true } : {}) }),
      changesPage: (syncToken, pageToken) => page({ syncToken, ...(pageToken ? { pageToken } : {}) }),
      isExpired: (error) => googleStatus(error) === 410,
    };
  }

  private async readEventsPage(
    calendarId: string,
    params: calendar_v3.Params$Resource$Events$List,
    deletedSeries: Set<string>,
  ): Promise<SyncTokenPage> {
    const { data } = await this.call("calendar.events.list", () =>
      this.calendar.events.list({ calendarId, singleEvents: false, maxResults: this.pageSize, ...params }),
    );
    return {
      changes: this.changesOf(calendarId, data.items ?? [], deletedSeries),
      ...(data.nextPageToken ? { nextPageToken: data.nextPageToken } : {}),
      ...(data.nextSyncToken ? { nextSyncToken: data.nextSyncToken } : {}),
    };
  }

  /** A page's entries as changes, one per item (the last entry of an event wins). */
  private changesOf(
    calendarId: string,
    events: calendar_v3.Schema$Event[],
    deletedSeries: Set<string>,
  ): Change[] {
    for (const event of events) if (event.id && isDeletedEvent(event)) deletedSeries.add(event.id);
    const byKey = new Map<string, Change>();
    for (const event of events) {
      if (!event.id) continue;
      const itemKey = eventItemKey(calendarId, event.id);
      byKey.delete(itemKey);
      if (isDeletedEvent(event) || (event.recurringEventId && deletedSeries.has(event.recurringEventId))) {
        byKey.set(itemKey, { type: "delete", itemKey });
        continue;
      }
      this.reads.rememberSeries(calendarId, event);
      const { versionKey, contentKey } = eventBytes(event);
      const hint: CalendarHint = { entry: "event", event };
      byKey.set(itemKey, { type: "upsert", item: { itemKey, versionKey, contentKey, hint } });
    }
    return [...byKey.values()];
  }

  // ------------------------------------------------------------------------------------------ fetch

  async fetch(item: ItemRef): Promise<FetchedItem> {
    const key = parseItemKey(item.itemKey);
    if (!key) throw new Error(`Not a Calendar item key: ${item.itemKey}`);
    const hint = item.hint as CalendarHint | undefined;
    if (key.entry === "calendar") {
      const content =
        hint?.entry === "calendar" ? hint.content : await this.reads.readCalendar(key.calendarId);
      const { bytes, versionKey, contentKey } = calendarBytes(content);
      return this.fetched(item.itemKey, bytes, versionKey, contentKey, {
        metadata: { calendarEntry: "calendar", calendarId: key.calendarId },
        search: calendarSearchFields(key.calendarId, content),
      });
    }
    const event = hint?.entry === "event" ? hint.event : await this.reads.readEvent(item.itemKey, key);
    const seriesUID =
      !event.iCalUID && event.recurringEventId
        ? await this.reads.seriesICalUID(key.calendarId, event.recurringEventId)
        : undefined;
    const { bytes, versionKey, contentKey } = eventBytes(event);
    return this.fetched(item.itemKey, bytes, versionKey, contentKey, {
      metadata: eventMetadata(key.calendarId, event, seriesUID),
      search: eventSearchFields(key.calendarId, await this.reads.nameOf(key.calendarId), event),
    });
  }

  private fetched(
    itemKey: string,
    bytes: Buffer,
    versionKey: string,
    contentKey: string,
    rest: Pick<FetchedItem, "metadata" | "search">,
  ): FetchedItem {
    return {
      itemKey,
      versionKey,
      contentKey,
      content: (async function* () {
        yield bytes;
      })(),
      size: bytes.length,
      ...rest,
    };
  }
}
