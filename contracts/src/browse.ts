/**
 * Browsing a resource's backups at a point in time (docs/requirements.md#backup-activity "Browse"): the
 * mailbox by label, the drive by folder, a calendar by day or week (recurring series shown at each of their
 * occurrences), the address book by contact group, as the backups held them at the end of a day; the items
 * in the search results' shapes, so that they are selected, recovered and exported as search results are.
 */
import type { SearchResponse } from "./search";

/** A label of the mailbox to browse by: its name as Gmail shows it. */
export interface BrowseLabel {
  /** What the browse call takes as `label`. */
  label: string;
  name: string;
  /** A system label (Inbox, Sent…) or one of the user's. */
  system: boolean;
}

/** A folder under the one browsed. */
export interface BrowseFolder {
  /** Its last part, as Drive shows it. */
  name: string;
  /** Its whole path, root first ("My Drive/Projects"): what the browse call takes as `folder`. */
  path: string;
}

/** A calendar of the user's to browse: its name as its owner sees it. */
export interface BrowseCalendar {
  /** What the browse call takes as `calendar` (Google's calendar id). */
  calendar: string;
  name: string;
}

/** The days a calendar browse shows: one day, or the week (Monday to Sunday) around it. */
export interface BrowseView {
  span: BrowseSpan;
  /** The first day shown and the day after the last (YYYY-MM-DD, in `timeZone`). */
  from: string;
  to: string;
  /** The calendar's time zone the days are in (UTC when the backups do not know it). */
  timeZone: string;
  /** The view holds more events than one answer lists (`MAX_BROWSE_EVENTS`): the rest are not shown. */
  eventsAtLeast: boolean;
}

export const BROWSE_SPANS = ["day", "week"] as const;
export type BrowseSpan = (typeof BROWSE_SPANS)[number];

/** What an address book is browsed by: all contacts, a contact group, or the other contacts. */
export interface BrowseGroup {
  /** What the browse call takes as `group`: "all", "other", or "group:<name>" (the group's name as kept). */
  group: string;
  name: string;
}

/**
 * GET /v1/organizations/{id}/resources/{resourceId}/browse?service&date&page&pageSize&pageToken and the
 * place: `label` (Gmail), `folder` (Drive), `calendar`, `day` and `span` (Calendar), `group` (Contacts).
 * The page of items (a search answer) and what to browse on to: the mailbox's labels, the folder's
 * sub-folders (`foldersAtLeast`: more than listed), the user's calendars and the days shown, the contact
 * groups. What belongs to another service is empty.
 */
export type BrowseResponse = SearchResponse & {
  /** The end of the chosen day (ISO 8601), or null: the backups as they are now. */
  asOf: string | null;
  labels: BrowseLabel[];
  /** The folder browsed ("" for the top, whose sub-folders are the drives' roots). */
  folder: string;
  folders: BrowseFolder[];
  foldersAtLeast: boolean;
  calendars: BrowseCalendar[];
  /** The calendar browsed (null: the user has none in the backups). */
  calendar: string | null;
  view: BrowseView | null;
  groups: BrowseGroup[];
  /** The group browsed (Contacts), else null. */
  group: string | null;
};

/** What a browse answer says besides its page: the places of every service. */
export type BrowsePlaces = Omit<BrowseResponse, keyof SearchResponse | "asOf">;

/** The places of a browse of another service: none. */
export const NO_BROWSE_PLACES: BrowsePlaces = {
  labels: [],
  folder: "",
  folders: [],
  foldersAtLeast: false,
  calendars: [],
  calendar: null,
  view: null,
  groups: [],
  group: null,
};

/** A day `days` after another (both YYYY-MM-DD): how a calendar browse steps through days and weeks. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Gmail's system labels a mailbox is browsed by, with the names Gmail shows. */
export const SYSTEM_LABELS: readonly { id: string; name: string }[] = [
  { id: "INBOX", name: "Inbox" },
  { id: "STARRED", name: "Starred" },
  { id: "IMPORTANT", name: "Important" },
  { id: "SENT", name: "Sent" },
  { id: "DRAFT", name: "Drafts" },
  { id: "SPAM", name: "Spam" },
  { id: "TRASH", name: "Trash" },
];

/** The most sub-folders one answer lists. */
export const MAX_BROWSE_FOLDERS = 100;
/** The most calendars and contact groups one answer lists. */
export const MAX_BROWSE_PLACES = 200;
/** The most events (occurrences of series included) a calendar's day or week shows. */
export const MAX_BROWSE_EVENTS = 1_000;

export const BROWSE_MESSAGES = {
  unknownService: "Browse Gmail, Drive, Calendar or Contacts",
  labelForMail: "A label is for browsing Gmail; Drive is browsed by folder",
  folderForDrive: "A folder is for browsing Drive; Gmail is browsed by label",
  placeForCalendar: "A calendar, a day and a span are for browsing Calendar",
  groupForContacts: "A group is for browsing Contacts",
  invalidLabel: "The label must be one of the mailbox's labels",
  invalidFolder: "The folder must be a folder path of at most 1,000 characters",
  invalidCalendar: "The calendar must be one of the user's calendars in the backups",
  invalidDay: "The day must be a date written YYYY-MM-DD",
  invalidSpan: "The span must be day or week",
  invalidGroup: "The group must be all, other or one of the user's contact groups",
} as const;
