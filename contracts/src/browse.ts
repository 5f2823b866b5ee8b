/**
 * Browsing a resource's backups at a point in time (docs/requirements.md#backup-activity "Browse"): the
 * mailbox by label, the drive by folder, as the backups held them at the end of a day; the items in the
 * search results' shapes, so that they are selected, recovered and exported as search results are.
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

/**
 * GET /v1/organizations/{id}/resources/{resourceId}/browse?service&date&label|folder&page&pageSize&pageToken:
 * the page of items (a search answer) and what to browse on to: the mailbox's labels, or the folder's
 * sub-folders (`foldersAtLeast`: more than listed).
 */
export type BrowseResponse = SearchResponse & {
  /** The end of the chosen day (ISO 8601), or null: the backups as they are now. */
  asOf: string | null;
  labels: BrowseLabel[];
  /** The folder browsed ("" for the top, whose sub-folders are the drives' roots). */
  folder: string;
  folders: BrowseFolder[];
  foldersAtLeast: boolean;
};

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

export const BROWSE_MESSAGES = {
  unknownService: "Browse Gmail by label or Drive by folder: browsing calendars and contacts is coming soon",
  labelForMail: "A label is for browsing Gmail; Drive is browsed by folder",
  folderForDrive: "A folder is for browsing Drive; Gmail is browsed by label",
  invalidLabel: "The label must be one of the mailbox's labels",
  invalidFolder: "The folder must be a folder path of at most 1,000 characters",
} as const;
