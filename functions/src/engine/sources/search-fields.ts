/**
 * Each service's search fields (docs/backup-format.md §6), as a version keeps them (`FetchedItem.search`):
 * the union `SearchFields`, told apart by `kind` (the registry's search kind of the service).
 */

/**
 * Search fields (docs/backup-format.md §6): lower-cased and bounded for matching; `display` keeps the texts
 * result lists show as they were written (bounded).
 */
export interface MailSearchFields {
  kind: "mail";
  display?: { subject: string; fromName: string };
  subject: string;
  fromName: string;
  fromEmail: string;
  to: string[];
  /** ISO 8601 (the Date header, else Gmail's internal date). */
  date: string;
  labels: string[];
  size: number;
  keywords: string[];
}

export interface DriveSearchFields {
  kind: "drive";
  display?: { name: string; path: string };
  name: string;
  path: string;
  mimeType: string;
  createdBy: string;
  /** ISO 8601. */
  modifiedTime: string;
  size: number;
  googleId: string;
  keywords: string[];
}

/** A calendar or an event; for a calendar, `summary` is its name and the times are empty. */
export interface CalendarSearchFields {
  kind: "calendar";
  display?: { summary: string; calendar: string };
  entry: "calendar" | "event";
  summary: string;
  /** The organiser's address (lower-cased). */
  organizer: string;
  /** The attendees' addresses (lower-cased, bounded). */
  attendees: string[];
  /** ISO 8601: a date for an all-day event, else a date-time; "" for a calendar. */
  start: string;
  end: string;
  /** An event longer than `LONG_EVENT_DAYS` (engine/calendar/entries.ts): a browse finds it by this mark. */
  long?: true;
  calendarId: string;
  /** The calendar's time zone (a calendar), or the event's start time zone; absent when Google gives none. */
  timeZone?: string;
  /** A recurring series' master: its RRULE, EXDATE and RDATE lines as Google keeps them (a browse expands them). */
  recurrence?: string[];
  /** Only on a series' master: what a browse queries the series of a calendar by. */
  recurring?: true;
  /** A cancelled instance of a series (the occurrence it names does not take place). */
  cancelled?: true;
  keywords: string[];
}

/** A contact, a contact group (its name in `name`) or an other contact. */
export interface ContactSearchFields {
  kind: "contact";
  /** As written: its name, first address and (a contact's) groups' names (absent: backed up before they were kept). */
  display?: { name: string; email: string; groups?: string[] };
  entry: "contact" | "group" | "other-contact";
  name: string;
  /** Addresses and phone numbers, lower-cased (phones also as digits only), bounded. */
  emails: string[];
  phones: string[];
  /** The names of the contact groups it belongs to. */
  groups: string[];
  keywords: string[];
}

export type SearchFields = MailSearchFields | DriveSearchFields | CalendarSearchFields | ContactSearchFields;
