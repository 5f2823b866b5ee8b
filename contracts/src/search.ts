/**
 * Searching backups (docs/requirements.md#screens-and-navigation "Search backups", #data-the-console-shows email and drive items, #validation search validation): the query's
 * rules and texts, shared by the browser and the API (the API checks again with the same texts), and the
 * answer's types.
 */
import * as yup from "yup";

export const SEARCH_SERVICES = ["gmail", "drive", "calendar", "contacts"] as const;
export type SearchService = (typeof SEARCH_SERVICES)[number];
/** The services a browse shows (Gmail by label, Drive by folder, Calendar by calendar and day, Contacts by group). */
export const BROWSE_SERVICES = SEARCH_SERVICES;
export type BrowseService = (typeof BROWSE_SERVICES)[number];
/** Tabs shown as coming soon. */
export const COMING_SOON_SEARCH_SERVICES = ["chat", "directory"] as const;
/** The search screen's tabs, in the spec's order (docs/requirements.md#screens-and-navigation). */
export const SEARCH_TABS = [
  "gmail",
  "drive",
  "chat",
  "calendar",
  "contacts",
  "directory",
] as const satisfies readonly (SearchService | (typeof COMING_SOON_SEARCH_SERVICES)[number])[];

export const SEARCH_MESSAGES = {
  resourceRequired: "Please enter a resource name or email",
  resourceTooShort: "The resource name must be at least 3 characters",
  invalidDate: "Invalid date format",
  futureDate: "The date cannot be in the future: choose today or an earlier day",
  keywordTooShort: "The keyword must be at least 3 characters",
  keywordCharacters: "The keyword may only contain letters, numbers, spaces, hyphens and underscores",
  unknownService: "Search Gmail, Drive, Calendars or Contacts: Chat and Directory are coming soon",
  resourceNotFound: "No resource matches this name or email",
} as const;

/** MM-DD-YYYY of a real calendar day. */
export function parseSearchDate(value: string): { year: number; month: number; day: number } | undefined {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(value);
  if (!match) return undefined;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return { year, month, day };
}

/** The furthest a time zone is ahead of UTC (UTC+14): a day has begun somewhere once UTC is this close to it. */
const FURTHEST_AHEAD_MS = 14 * 3600 * 1000;

/**
 * What is wrong with a MM-DD-YYYY date of a search, a browse, a recovery or an export, or null: not a real
 * day ("Invalid date format"), or a day that has begun nowhere on Earth yet (its 00:00 UTC more than 14
 * hours ahead of `now`): the backups cannot hold anything of it, so it is refused rather than shown as
 * today. Today in any time zone is taken.
 */
export function searchDateProblem(value: string, now: number = Date.now()): string | null {
  const date = parseSearchDate(value);
  if (!date) return SEARCH_MESSAGES.invalidDate;
  const begins = Date.UTC(date.year, date.month - 1, date.day);
  return begins - FURTHEST_AHEAD_MS > now ? SEARCH_MESSAGES.futureDate : null;
}

/** A yup test of a date field with `searchDateProblem`'s texts (an empty field is left to the schema). */
export function testSearchDate(
  value: string | undefined,
  context: yup.TestContext,
): boolean | yup.ValidationError {
  const problem = value ? searchDateProblem(value) : null;
  return problem === null || context.createError({ message: problem });
}

/**
 * The end of a MM-DD-YYYY day (UTC, exclusive), ISO 8601: "as of that date" means what the backups held
 * at the end of the day. Undefined for anything but a real day.
 */
export function searchDateEnd(value: string): string | undefined {
  const date = parseSearchDate(value);
  return date ? new Date(Date.UTC(date.year, date.month - 1, date.day + 1)).toISOString() : undefined;
}

/** The search card's fields (all strings, as typed). */
export const searchFormSchema = yup.object({
  resource: yup
    .string()
    .trim()
    .required(SEARCH_MESSAGES.resourceRequired)
    .min(3, SEARCH_MESSAGES.resourceTooShort),
  date: yup.string().trim().test("date", SEARCH_MESSAGES.invalidDate, testSearchDate),
  keyword: yup
    .string()
    .trim()
    .test("length", SEARCH_MESSAGES.keywordTooShort, (value) => !value || value.length >= 3)
    .matches(/^[A-Za-z0-9 _-]*$/, SEARCH_MESSAGES.keywordCharacters),
});

export type SearchForm = yup.InferType<typeof searchFormSchema>;

export const MAX_SEARCH_PAGE_SIZE = 100;

/** An email in the results (docs/requirements.md#data-the-console-shows: subject, from parsed into name and email, to, date). */
export interface MailSearchResult {
  itemId: string;
  versionId: string;
  subject: string;
  fromName: string;
  fromEmail: string;
  to: string[];
  /** ISO 8601. */
  date: string;
  size: number;
  /** ISO 8601 when the message was deleted at the source (the backup keeps it). */
  deletedAtSource: string | null;
}

/** A Drive file in the results (docs/requirements.md#data-the-console-shows: created by, last modified, last backup, size, Google ID, version). */
export interface DriveSearchResult {
  itemId: string;
  versionId: string;
  name: string;
  path: string;
  mimeType: string;
  createdBy: string;
  /** ISO 8601. */
  lastModified: string;
  /** ISO 8601: the last backup that saw the file. */
  lastBackup: string;
  size: number;
  googleId: string;
  currentVersion: string;
  deletedAtSource: string | null;
  /** Google offers no export of it (a Form, a Site, a My Map, a Jamboard): its details are kept, no content. */
  notExportable: boolean;
}

/** A calendar or an event in the results: its title, calendar, organiser, guests and times. */
export interface CalendarSearchResult {
  itemId: string;
  versionId: string;
  entry: "calendar" | "event";
  /** The event's title, or the calendar's name. */
  summary: string;
  /** The name of the calendar it is in (a calendar: its own). */
  calendar: string;
  /** The organiser's address. */
  organizer: string;
  /** The guests' addresses, lower case (the first 50 an event names). */
  attendees: string[];
  /** ISO 8601: a date for an all-day event, else a date-time; "" for a calendar. */
  start: string;
  end: string;
  /** ISO 8601: the last backup that saw it. */
  lastBackup: string;
  deletedAtSource: string | null;
  /**
   * A browse's row for one occurrence of a recurring series (its start and end are the occurrence's): the
   * item is the series, recovered or exported whole with its changed and cancelled instances.
   */
  occurrenceOf?: "series";
}

/** A contact, a contact group or an other contact in the results. */
export interface ContactSearchResult {
  itemId: string;
  versionId: string;
  entry: "contact" | "group" | "other-contact";
  name: string;
  /** Its first address as written; `emails` and `phones` as searched (lower case). */
  email: string;
  emails: string[];
  phones: string[];
  /** The names of the groups it belongs to. */
  groups: string[];
  lastBackup: string;
  deletedAtSource: string | null;
}

/** GET /v1/organizations/{id}/search?service&resource&keyword&date&page&pageSize&pageToken */
export type SearchResponse = {
  resource: { resourceId: string; name: string; email: string | null };
  /** The matching items; a lower bound when `totalAtLeast` (counting stopped, or more may follow). */
  total: number;
  totalAtLeast: boolean;
  page: number;
  pageSize: number;
  /** Asks for the next page (with `page` + 1); null on the last page. */
  nextPageToken: string | null;
} & (
  | { service: "gmail"; results: MailSearchResult[] }
  | { service: "drive"; results: DriveSearchResult[] }
  | { service: "calendar"; results: CalendarSearchResult[] }
  | { service: "contacts"; results: ContactSearchResult[] }
);
