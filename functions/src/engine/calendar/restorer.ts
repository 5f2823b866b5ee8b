/**
 * Restoring Calendar entries (docs/requirements.md#screens-and-navigation recovery) into a user's calendars.
 *
 * - Where: "original" puts an event back into the calendar it came from when the target user owns it,
 *   else into the calendar this restore recreated from that calendar's entry (when it holds it), else
 *   into the user's primary calendar; "new" creates one calendar (`calendars.insert`, once per restorer,
 *   named as asked, e.g. "Restored 2026-12-01") and puts everything in it; "existing" uses the calendar
 *   named. A "new" calendar with a marker carries it as its description, and a restorer finds a calendar
 *   of the user's with that marker before it creates one: a restore done in parts (a recovery's
 *   deliveries) fills one calendar.
 * - A restore in parts remembers, through `CalendarRestoreMemory`, the calendars an earlier part recreated
 *   and the series whose master an earlier part restored: an exception goes into its series' calendar,
 *   and a cancelled instance takes its series' duration.
 * - Events go in with `events.import`: the event keeps its iCalUID (and organizer, attendees and their
 *   answers), Google sends no invitation for it, and a repeated import updates the event holding that
 *   iCalUID instead of adding another, so an import may be retried (and a calendar that still holds the
 *   event gets it back as it was backed up). A recurring series is restored whole:
 *   its master first, then its changed and cancelled instances, each imported under the series' iCalUID
 *   with its `originalStartTime` (Google's way of writing an exception into a series). Google imports only
 *   default events: out-of-office, focus-time and working-location events go in with `events.insert`,
 *   `sendUpdates=none` (they have no guests), on the primary calendar only as Google requires; elsewhere
 *   Google's refusal is the answer. An insert is not retried once Google may have run it.
 * - A calendar entry is restored as a new calendar with its settings (summary, description, location, time
 *   zone), its sharing re-applied rule by rule with `acl.insert` (no notification mail), each rule Google
 *   refuses reported with Google's reason. The target user's own rule is theirs already.
 * - Each entry is answered: what was restored (the new event or calendar id) or why not (Google's reason
 *   for a refusal of that entry, or ours: content that cannot be read, a series that did not go in). Only
 *   what ends the whole restore (access withdrawn, quota, Google unavailable after the caller's retries)
 *   throws.
 * Every call goes through the caller as the target user, with Google's method id.
 */
import type { calendar_v3 } from "@googleapis/calendar";
import type { GoogleCaller } from "../google/caller";
import { classifyGoogleError } from "../google/errors";
import { googleReason, googleStatus } from "../sources/google-errors";
import type { ItemMetadata } from "../sources/source";
import { SharedByKey, inParallel } from "../../lib/parallel";
import type { CalendarContent } from "./entries";
import { calendarBody, cancelledInstanceBody, importBody, importable, insertBody } from "./restore-bodies";

export interface CalendarRestoreTarget {
  user: string;
  calendar:
    | { kind: "original" }
    | { kind: "new"; summary: string; marker?: string }
    | { kind: "existing"; calendarId: string };
}

/** What the earlier parts of a restore in parts did (see the header). */
export interface CalendarRestoreMemory {
  /** The calendar an earlier part recreated from the backed-up calendar `calendarId`. */
  recreated(calendarId: string): Promise<string | undefined>;
  /** The backed-up master of the series `eventId` of the backed-up calendar `calendarId`. */
  series(calendarId: string, eventId: string): Promise<calendar_v3.Schema$Event | undefined>;
}

/** A backed-up entry: a version's metadata and content. */
export interface CalendarRestoreEntry {
  metadata: ItemMetadata;
  content: Buffer;
  /**
   * An earlier part of the restore was at this entry when it stopped: a calendar entry may already have
   * been recreated then (Google's `calendars.insert` has no key), so an owned calendar with exactly its
   * settings is taken for it instead of a second one.
   */
  resumed?: boolean;
}

/** What re-applying a calendar's sharing did: the rules Google took, and each it refused with why. */
export interface CalendarSharingOutcome {
  applied: number;
  refused: { scope: string; role: string; reason: string }[];
}

/**
 * An entry's answer; `calendarId` is where it went (`primary`: the target user's primary calendar).
 * `already-there`: a calendar entry restored to its original place whose calendar the user still owns.
 */
export type CalendarRestoreOutcome =
  | { restored: true; calendarId: string; eventId?: string; sharing?: CalendarSharingOutcome }
  | { restored: false; reason: string; detail?: string };

export const ALREADY_THERE = "already-there";

/** Google's refusals that concern the entry asked for, not the restore (403s Calendar uses for one event). */
const ENTRY_FORBIDDEN = new Set(["forbidden", "forbiddenForNonOrganizer", "requiredAccessLevel"]);

/** Google's refusal of one entry (its reason and message), or undefined when the error ends the restore. */
function refusalOf(error: unknown): { reason: string; detail?: string } | undefined {
  const { kind, status } = classifyGoogleError(error);
  const reason = googleReason(error);
  if (kind !== "item" && !(status === 403 && reason && ENTRY_FORBIDDEN.has(reason))) return undefined;
  const message = (error as { response?: { data?: { error?: { message?: unknown } } } }).response?.data?.error
    ?.message;
  return {
    reason: reason ?? `http-${String(googleStatus(error) ?? status)}`,
    ...(typeof message === "string" ? { detail: message } : {}),
  };
}

/** Events restored at once (the caller keeps within the user's quota and concurrency). */
const PARALLEL_EVENTS = 4;

interface EventEntry {
  index: number;
  calendarId: string;
  event: calendar_v3.Schema$Event;
  metadata: ItemMetadata;
}

/** The entries read: calendars and events apart, and the answer of each that cannot be read. */
function decodeEntries(entries: readonly CalendarRestoreEntry[]) {
  const outcomes: CalendarRestoreOutcome[] = entries.map(() => ({ restored: false, reason: "not-restored" }));
  const events: EventEntry[] = [];
  const calendars: { index: number; calendarId: string; content: CalendarContent; resumed: boolean }[] = [];
  entries.forEach(({ metadata, content, resumed }, index) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content.toString("utf8"));
    } catch {
      parsed = undefined;
    }
    const calendarId = metadata.calendarId ?? "";
    if (typeof parsed !== "object" || parsed === null || !calendarId) {
      outcomes[index] = { restored: false, reason: "unreadable-content" };
    } else if (metadata.calendarEntry === "calendar") {
      calendars.push({ index, calendarId, content: parsed as CalendarContent, resumed: resumed === true });
    } else {
      events.push({ index, calendarId, event: parsed as calendar_v3.Schema$Event, metadata });
    }
  });
  return { outcomes, calendars, events };
}

export class CalendarRestorer {
  /** The calendar a "new" target creates, once. */
  private newCalendar?: Promise<string>;
  /** Whether the target user owns a calendar, by id. */
  private readonly owned = new SharedByKey<boolean>();
  /** Calendars recreated from calendar entries, by the backed-up calendar's id. */
  private readonly recreated = new Map<string, string>();

  constructor(
    private readonly calendar: calendar_v3.Calendar,
    private readonly target: CalendarRestoreTarget,
    private readonly caller: GoogleCaller,
    private readonly memory?: CalendarRestoreMemory,
  ) {}

  private call<T>(method: string, idempotent: boolean, send: () => Promise<T>): Promise<T> {
    return this.caller.call({ api: "calendar", user: this.target.user, method, idempotent }, send);
  }

  /** Restores `entries`; answers each, in their order. */
  async restore(entries: readonly CalendarRestoreEntry[]): Promise<CalendarRestoreOutcome[]> {
    const { outcomes, calendars, events } = decodeEntries(entries);
    // Calendars first: their events may go into them.
    for (const entry of calendars)
      outcomes[entry.index] = await this.restoreCalendar(entry.calendarId, entry.content, entry.resumed);
    // Series masters and single events, then the exceptions, which need their series in place.
    const exceptions = events.filter((entry) => entry.event.recurringEventId);
    const masters = events.filter((entry) => !entry.event.recurringEventId);
    const seriesOf = new Map(masters.map((entry) => [`${entry.calendarId}/${entry.event.id ?? ""}`, entry]));
    await inParallel(masters, PARALLEL_EVENTS, async (entry) => {
      outcomes[entry.index] = await this.restoreEvent(entry);
    });
    await inParallel(exceptions, PARALLEL_EVENTS, async (entry) => {
      const seriesId = entry.event.recurringEventId ?? "";
      const series = seriesOf.get(`${entry.calendarId}/${seriesId}`);
      const seriesOutcome = series ? outcomes[series.index] : undefined;
      if (seriesOutcome && !seriesOutcome.restored) {
        outcomes[entry.index] = { restored: false, reason: "series-not-restored" };
        return;
      }
      const master = series?.event ?? (await this.memory?.series(entry.calendarId, seriesId));
      outcomes[entry.index] = await this.restoreEvent(entry, master, seriesOutcome?.calendarId);
    });
    return outcomes;
  }

  /** A calendar entry as a new calendar with its settings and sharing. */
  private async restoreCalendar(
    calendarId: string,
    content: CalendarContent,
    resumed = false,
  ): Promise<CalendarRestoreOutcome> {
    let created: string;
    try {
      if (this.target.calendar.kind === "original" && (await this.owns(calendarId)))
        return { restored: false, reason: ALREADY_THERE };
      const body = calendarBody(content);
      created =
        (resumed ? await this.ownedCalendarLike(body) : undefined) ?? (await this.insertCalendar(body));
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return { restored: false, ...refusal };
    }
    this.recreated.set(calendarId, created);
    return {
      restored: true,
      calendarId: created,
      sharing: await this.applySharing(created, content.acl ?? []),
    };
  }

  private async insertCalendar(body: calendar_v3.Schema$Calendar): Promise<string> {
    const { data } = await this.call("calendar.calendars.insert", false, () =>
      this.calendar.calendars.insert({ requestBody: body }),
    );
    if (!data.id) throw new Error("Calendar created a calendar without an id");
    return data.id;
  }

  /** Each rule of a calendar's sharing on `calendarId` (Google keeps one rule per scope: repeats are harmless). */
  private async applySharing(
    calendarId: string,
    rules: readonly calendar_v3.Schema$AclRule[],
  ): Promise<CalendarSharingOutcome> {
    const outcome: CalendarSharingOutcome = { applied: 0, refused: [] };
    for (const rule of rules) {
      const scope = rule.scope ?? {};
      const role = rule.role ?? "";
      if (role === "none") continue;
      if (scope.type === "user" && scope.value?.toLowerCase() === this.target.user.toLowerCase()) continue;
      try {
        await this.call("calendar.acl.insert", true, () =>
          this.calendar.acl.insert({
            calendarId,
            sendNotifications: false,
            requestBody: {
              role,
              scope: { type: scope.type ?? "default", ...(scope.value ? { value: scope.value } : {}) },
            },
          }),
        );
        outcome.applied += 1;
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        outcome.refused.push({
          scope: scope.type === "default" ? "default" : `${scope.type ?? ""}:${scope.value ?? ""}`,
          role,
          reason: refusal.reason,
        });
      }
    }
    return outcome;
  }

  /** The calendar an event goes into (see the header). */
  private async calendarFor(calendarId: string): Promise<string> {
    const { calendar } = this.target;
    if (calendar.kind === "existing") return calendar.calendarId;
    if (calendar.kind === "new") {
      const { summary, marker } = calendar;
      return (this.newCalendar ??= (async () =>
        (marker ? await this.markedCalendar(marker) : undefined) ??
        this.insertCalendar({ summary, ...(marker ? { description: marker } : {}) }))());
    }
    if (await this.owns(calendarId)) return calendarId;
    const recreated = this.recreated.get(calendarId) ?? (await this.memory?.recreated(calendarId));
    if (recreated) this.recreated.set(calendarId, recreated);
    return recreated ?? "primary";
  }

  /** The user's own calendar whose description is `marker`, if an earlier part of the restore made it. */
  private markedCalendar(marker: string): Promise<string | undefined> {
    return this.ownedCalendar((entry) => entry.description === marker);
  }

  /**
   * The user's own calendar with exactly the settings `body` gives one (summary, description, location,
   * time zone): the one a stopped part of the restore recreated, or one the user made as it was.
   */
  private ownedCalendarLike(body: calendar_v3.Schema$Calendar): Promise<string | undefined> {
    const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? "") === (b ?? "");
    return this.ownedCalendar(
      (entry) =>
        same(entry.summary, body.summary) &&
        same(entry.description, body.description) &&
        same(entry.location, body.location) &&
        (!body.timeZone || entry.timeZone === body.timeZone),
    );
  }

  /** The first calendar the user owns that `matches`. */
  private async ownedCalendar(
    matches: (entry: calendar_v3.Schema$CalendarListEntry) => boolean,
  ): Promise<string | undefined> {
    let pageToken: string | undefined;
    do {
      const { data } = await this.call("calendar.calendarList.list", true, () =>
        this.calendar.calendarList.list({ minAccessRole: "owner", showHidden: true, pageToken }),
      );
      const found = (data.items ?? []).find((entry) => entry.id && matches(entry));
      if (found?.id) return found.id;
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    return undefined;
  }

  /** Whether the target user owns a calendar (their list entry of it says "owner"). */
  private owns(calendarId: string): Promise<boolean> {
    return this.owned.get(calendarId, async () => {
      try {
        const { data } = await this.call("calendar.calendarList.get", true, () =>
          this.calendar.calendarList.get({ calendarId }),
        );
        return data.accessRole === "owner";
      } catch (error) {
        if (googleStatus(error) === 404) return false;
        throw error;
      }
    });
  }

  /**
   * One event or exception; `series` is its master when the restore holds it, `seriesCalendar` where the
   * master went (an exception must go into its series' calendar).
   */
  private async restoreEvent(
    entry: EventEntry,
    series?: calendar_v3.Schema$Event,
    seriesCalendar?: string,
  ): Promise<CalendarRestoreOutcome> {
    const { event, metadata } = entry;
    try {
      const calendarId = seriesCalendar ?? (await this.calendarFor(entry.calendarId));
      if (!importable(event)) {
        const { data } = await this.call("calendar.events.insert", false, () =>
          this.calendar.events.insert({
            calendarId,
            sendUpdates: "none",
            conferenceDataVersion: 1,
            supportsAttachments: true,
            requestBody: insertBody(event),
          }),
        );
        return { restored: true, calendarId, eventId: data.id ?? "" };
      }
      const iCalUID = event.iCalUID ?? metadata.iCalUID ?? series?.iCalUID;
      if (!iCalUID) return { restored: false, reason: "no-ical-uid" };
      const body =
        event.recurringEventId && event.status === "cancelled"
          ? cancelledInstanceBody(event, iCalUID, series)
          : importBody(event, iCalUID);
      const { data } = await this.call("calendar.events.import", true, () =>
        this.calendar.events.import({
          calendarId,
          conferenceDataVersion: 1,
          supportsAttachments: true,
          requestBody: body,
        }),
      );
      return { restored: true, calendarId, eventId: data.id ?? "" };
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return { restored: false, ...refusal };
    }
  }
}
