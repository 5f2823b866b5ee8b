/**
 * The engine's side of the services registry (`contracts/src/services.ts` says what each service is): what
 * the engine's generic parts ask of a service's items, answered per kind of search fields, so that no part
 * outside the services' folders compares with a service's name (lint: alpvault/no-service-branches).
 */
import type { SearchFields } from "./sources/source";

/** An item's title as people read it (a mail's subject, a file's name, an event's summary, a contact's name). */
export function itemTitle(search: SearchFields): string | undefined {
  switch (search.kind) {
    case "mail":
      return search.display?.subject;
    case "drive":
      return search.display?.name;
    case "calendar":
      return search.display?.summary;
    case "contact":
      return search.display?.name;
  }
}

/** What a catalog item of format v2 indexes (docs/backup-format.md §9.3): the values it makes tokens of, and what it keeps clear. */
export interface IndexedParts {
  tokens: { labels?: string[]; groups?: string[]; path?: string; calendar?: string };
  clear: {
    date?: string;
    modified?: string;
    start?: string;
    end?: string;
    size?: number;
    entry?: string;
    recurring?: true;
    long?: true;
    cancelled?: true;
  };
}

/** An item's indexed parts besides its keywords, per kind of search fields. */
export function indexedParts(search: SearchFields): IndexedParts {
  switch (search.kind) {
    case "mail":
      return { tokens: { labels: search.labels }, clear: { date: search.date, size: search.size } };
    case "drive":
      return { tokens: { path: search.path }, clear: { modified: search.modifiedTime, size: search.size } };
    case "calendar":
      return {
        tokens: { calendar: search.calendarId },
        clear: {
          start: search.start,
          end: search.end,
          entry: search.entry,
          ...(search.recurring ? { recurring: true as const } : {}),
          ...(search.long ? { long: true as const } : {}),
          ...(search.cancelled ? { cancelled: true as const } : {}),
        },
      };
    case "contact":
      return { tokens: { groups: search.groups }, clear: { entry: search.entry } };
  }
}

/** When an item starts (a calendar entry's start as search keeps it); undefined for items without one. */
export function itemStart(search: SearchFields): string | undefined {
  return search.kind === "calendar" ? search.start : undefined;
}

/** The folder an item is in (a Drive file's path, as search keeps it and as written); undefined for others. */
export function itemFolder(search: SearchFields): { path: string; shown: string } | undefined {
  return search.kind === "drive"
    ? { path: search.path, shown: search.display?.path ?? search.path }
    : undefined;
}
