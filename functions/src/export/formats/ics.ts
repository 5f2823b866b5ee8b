/**
 * Calendar's export format: a ZIP holding one iCalendar file (RFC 5545, engine/calendar/ical.ts) per
 * calendar, named by the calendar, as Google's own export gives them.
 *
 * Items come in item-key order: the calendars, then each calendar's events together. A calendar's file
 * opens at its first event (the VCALENDAR's head: its name and time zone, from the calendar's backed-up
 * entry), takes each event as a VEVENT, and closes when the next calendar's events start, or after the
 * last item: the VTIMEZONE of every zone its events name and of the calendar's own, and its end. A file is
 * one ZIP entry, written across deliveries (zip.ts `openEntry`): the checkpoint keeps the open entry and
 * its calendar. After the last item, each calendar of the export without an event gets its file too (its
 * head and its zone's VTIMEZONE: an iCalendar object holds at least one component).
 */
import type { calendar_v3 } from "@googleapis/calendar";
import { z } from "zod/mini";
import { heldItem, itemsAfter, itemsByKey } from "../../backups/service";
import {
  calendarItemKey,
  isCalendarEntry,
  parseItemKey,
  type CalendarContent,
} from "../../engine/calendar/entries";
import { eventVEvent, icalHead, icalTail } from "../../engine/calendar/ical";
import { isIntegrityError, versionContent } from "../../engine/restore/content";
import type { CatalogItem } from "../../engine/runner/catalog";
import type { OpenZipEntry } from "../zip";
import {
  entryDate,
  exportKind,
  safeFileName,
  uniqueName,
  type ExportFile,
  type FormatWriter,
} from "./format";

const openEntrySchema: z.ZodMiniType<OpenZipEntry> = z.object({
  name: z.string(),
  zip64: z.boolean(),
  crc: z.number(),
  compressed: z.number(),
  size: z.number(),
  offset: z.number(),
  time: z.number(),
  date: z.number(),
});

interface Reminder {
  method: string;
  minutes: number;
}

/** What the writer keeps between deliveries (`checkpoint.format`). */
interface IcsState {
  /** The calendar whose file is open: its entry, the zones named so far, its default reminders. */
  open: { calendarId: string; entry: OpenZipEntry; zones: string[]; reminders: Reminder[] } | null;
  /** The calendars that have a file. */
  written: string[];
  /** The file names taken. */
  names: string[];
}

const stateSchema: z.ZodMiniType<IcsState> = z.object({
  open: z.nullable(
    z.object({
      calendarId: z.string(),
      entry: openEntrySchema,
      zones: z.array(z.string()),
      reminders: z.array(z.object({ method: z.string(), minutes: z.number() })),
    }),
  ),
  written: z.array(z.string()),
  names: z.array(z.string()),
});

/** The writer's state in this delivery: decoded from the checkpoint once, an open entry taken up. */
function stateOf(file: ExportFile): IcsState {
  if (file.formatState) return file.formatState as IcsState;
  const parsed = stateSchema.safeParse(file.job.checkpoint.format ?? undefined);
  const state: IcsState = parsed.success ? parsed.data : { open: null, written: [], names: [] };
  if (state.open) file.zip!.resumeEntry(state.open.entry);
  file.formatState = state;
  file.job.checkpoint.format = state as unknown as Record<string, unknown>;
  return state;
}

/** What a calendar's file takes from its backed-up entry (held at the export's date). */
interface CalendarFacts {
  name: string;
  timeZone: string | undefined;
  reminders: Reminder[];
  modified: Date;
}

/** The calendar's entry as the backups held it at the export's date (read by its key unless given). */
async function heldCalendar(file: ExportFile, calendarId: string, found?: CatalogItem) {
  const { scope, job } = file;
  const item = found ?? (await itemsByKey(scope, job.resourceId, [calendarItemKey(calendarId)]))[0];
  return heldItem(scope, { resourceId: job.resourceId, kind: exportKind(job), asOf: job.asOf }, item);
}

async function calendarFacts(
  file: ExportFile,
  calendarId: string,
  held: CatalogItem | undefined,
): Promise<CalendarFacts> {
  const { scope } = file;
  let content: CalendarContent | undefined;
  if (held) {
    try {
      const keys = await file.keys(held.current.dataKeyId);
      const bytes = await versionContent(
        file.blobStore,
        { organizationId: scope.organizationId, keys },
        held.current,
      );
      content = JSON.parse(bytes.toString("utf8")) as CalendarContent;
    } catch (error) {
      // A damaged calendar entry is left out on its own; its events' file is named by the calendar's id.
      if (!isIntegrityError(error)) throw error;
    }
  }
  const reminders = (content?.listEntry.defaultReminders ?? []).map(
    (reminder: calendar_v3.Schema$EventReminder) => ({
      method: reminder.method ?? "popup",
      minutes: reminder.minutes ?? 0,
    }),
  );
  return {
    name: content?.listEntry.summaryOverride ?? content?.calendar.summary ?? calendarId,
    timeZone: content?.calendar.timeZone ?? undefined,
    reminders,
    modified: entryDate(held?.lastSeenAt),
  };
}

/** Opens the calendar's file: its entry in the archive, and the VCALENDAR's head. */
async function openCalendar(file: ExportFile, state: IcsState, calendarId: string, facts: CalendarFacts) {
  const name = uniqueName(safeFileName(facts.name).slice(0, 100) || "Calendar", ".ics", new Set(state.names));
  state.names.push(name);
  state.written.push(calendarId);
  const opened = file.zip!.openEntry(name, facts.modified);
  await file.output.write(opened.header);
  state.open = {
    calendarId,
    entry: opened.entry,
    zones: facts.timeZone ? [facts.timeZone] : [],
    reminders: facts.reminders,
  };
  const head = icalHead({ name: facts.name, ...(facts.timeZone ? { timeZone: facts.timeZone } : {}) });
  await file.output.write(file.zip!.append(opened.entry, Buffer.from(head, "utf8")));
}

/** Closes the open calendar's file: its zones, its end, the entry's end. */
async function closeCalendar(file: ExportFile, state: IcsState) {
  const open = state.open;
  if (!open) return;
  // The calendar's own zone, else UTC: a calendar without events still holds one component.
  const zones = open.zones.length > 0 ? open.zones : ["Etc/UTC"];
  await file.output.write(file.zip!.append(open.entry, Buffer.from(icalTail(zones), "utf8")));
  await file.output.write(file.zip!.close(open.entry));
  state.open = null;
}

export const ICS: FormatWriter = {
  contentType: "application/zip",
  extension: "zip",
  zip: true,
  async write(file, item, read) {
    const content = await read.content();
    const key = parseItemKey(item.itemKey);
    // A calendar's settings go into its file's head, written with its first event or at the end.
    if (!key || isCalendarEntry(item.current.metadata) || !("eventId" in key)) return;
    const state = stateOf(file);
    if (state.open?.calendarId !== key.calendarId) {
      await closeCalendar(file, state);
      const held = await heldCalendar(file, key.calendarId);
      await openCalendar(file, state, key.calendarId, await calendarFacts(file, key.calendarId, held));
    }
    const open = state.open!;
    const reminders = open.reminders;
    const vevent = eventVEvent(
      { metadata: item.current.metadata, content },
      { defaultReminders: reminders, ownerEmail: file.job.resourceName },
      Date.parse(item.lastSeenAt) || 0,
    );
    if (!vevent) return;
    for (const zone of vevent.zones) if (!open.zones.includes(zone)) open.zones.push(zone);
    await file.output.write(file.zip!.append(open.entry, Buffer.from(vevent.text, "utf8")));
  },
  async finish(file) {
    const state = stateOf(file);
    await closeCalendar(file, state);
    for await (const calendar of exportedCalendars(file)) {
      if (state.written.includes(calendar.calendarId)) continue;
      const held = await heldCalendar(file, calendar.calendarId, calendar.item);
      // A calendar the backups did not hold at the export's date has no file.
      if (!held) continue;
      await openCalendar(
        file,
        state,
        calendar.calendarId,
        await calendarFacts(file, calendar.calendarId, held),
      );
      await closeCalendar(file, state);
    }
  },
};

/** The calendar entries of the export: those chosen, or every one the resource's catalog holds. */
async function* exportedCalendars(
  file: ExportFile,
): AsyncGenerator<{ calendarId: string; item: CatalogItem }> {
  const { scope, job } = file;
  const prefix = calendarItemKey("");
  if (job.itemIds) {
    const keys = job.itemIds.filter((key) => key.startsWith(prefix));
    for (let start = 0; start < keys.length; start += 100) {
      const found = await itemsByKey(scope, job.resourceId, keys.slice(start, start + 100));
      for (const item of found) {
        const key = item && parseItemKey(item.itemKey);
        if (item && key && !("eventId" in key)) yield { calendarId: key.calendarId, item };
      }
    }
    return;
  }
  let after = prefix;
  for (;;) {
    const page = await itemsAfter(scope, job.resourceId, exportKind(job), after, 100);
    const calendars = page.filter((item) => item.itemKey.startsWith(prefix));
    for (const item of calendars) {
      const key = parseItemKey(item.itemKey);
      if (key && !("eventId" in key)) yield { calendarId: key.calendarId, item };
    }
    if (calendars.length < page.length || page.length < 100) return;
    after = page[page.length - 1]!.itemKey;
  }
}
