/**
 * Export jobs: a resource's backed-up mail (MBOX, or one .eml file per message in a ZIP), Drive files
 * (ZIP), calendars (a ZIP of one iCalendar file per calendar) or contacts (one vCard 4.0 file), written by a background job into the organisation's regional bucket and downloaded from there.
 * The request's rules and texts are shared by the browser and the API.
 */
import * as yup from "yup";
import type { WorkPace } from "./eta";
import { isId } from "./ids";
import { SEARCH_MESSAGES, testSearchDate } from "./search";
import { isServiceId, SERVICES, type ServiceFacts, type ServiceId } from "./services";

/** What a browse of the named service is organised by (undefined for a value that names no service). */
const browsedBy = (service: unknown): ServiceFacts["browseBy"] | undefined =>
  isServiceId(service) ? SERVICES[service].browseBy : undefined;

export const EXPORT_MESSAGES = {
  started: "Export started",
  invalid:
    "An export names a resource, the service (gmail, drive, calendar or contacts), a format it offers (mbox or eml for gmail, zip for drive, ics for calendar, vcf for contacts) and optionally up to 1000 item ids, or a label (gmail), a folder (drive), a calendar (calendar) or a group (contacts)",
  resourceNotFound: "Resource not found",
  exportNotFound: "Export not found",
  notReady: "The export is not finished yet",
  expired: "The export has expired and was deleted. Start a new one.",
  nothingToExport: "There is nothing backed up to export for this choice",
  tooManyInPlace:
    "This place holds more than 10,000 items: export the whole service of the resource, or select the items to export",
} as const;

/** Why an item was left out of an export (the job's problems and its report). */
export const EXPORT_ITEM_REASONS = {
  integrity: "integrity check failed",
  notBackedUp: "Not in the backups at the export's date",
  notFound: "Not in the backups",
} as const;

/** The formats of each service's export, the first its default. */
export const EXPORT_FORMATS = {
  gmail: ["mbox", "eml"],
  drive: ["zip"],
  calendar: ["ics"],
  contacts: ["vcf"],
} as const satisfies Record<ServiceId, readonly string[]>;
export type ExportService = keyof typeof EXPORT_FORMATS;
export type ExportFormat = (typeof EXPORT_FORMATS)[ExportService][number];
export const EXPORT_SERVICES = Object.keys(EXPORT_FORMATS) as ExportService[];
export const EXPORT_FORMAT_NAMES = [...new Set(Object.values(EXPORT_FORMATS).flat())] as ExportFormat[];

/** The most items an export of a label or a folder takes (its item ids are kept with the job). */
export const MAX_EXPORT_PLACE_ITEMS = 10_000;

/** How long a finished export stays downloadable before it is deleted. */
export const EXPORT_LIFETIME_DAYS = 7;
/** How long a download link works. */
export const EXPORT_LINK_MINUTES = 15;

/** The request's fields that name a browse's place, one per way of browsing. */
export const EXPORT_PLACE_FIELDS = [
  "label",
  "folder",
  "calendar",
  "group",
] as const satisfies readonly ServiceFacts["browseBy"][];
export type ExportPlaceField = (typeof EXPORT_PLACE_FIELDS)[number];

/** A place field: only for the service browsed by it, alone, without item ids, not blank, at most 1,000 characters. */
function placeField(field: ExportPlaceField) {
  return yup
    .string()
    .optional()
    .test(
      field,
      EXPORT_MESSAGES.invalid,
      (value, context) =>
        value === undefined ||
        (browsedBy(context.parent.service) === field &&
          context.parent.itemIds === undefined &&
          EXPORT_PLACE_FIELDS.every((other) => other === field || context.parent[other] === undefined) &&
          value.trim() !== "" &&
          value.length <= 1_000),
    );
}

export const exportRequestSchema = yup
  .object({
    resourceId: yup
      .string()
      .required(EXPORT_MESSAGES.invalid)
      .test("id", EXPORT_MESSAGES.invalid, (value) => isId(value)),
    service: yup.string().oneOf(EXPORT_SERVICES, EXPORT_MESSAGES.invalid).required(EXPORT_MESSAGES.invalid),
    format: yup
      .string()
      .oneOf(EXPORT_FORMAT_NAMES, EXPORT_MESSAGES.invalid)
      .optional()
      .test(
        "format",
        EXPORT_MESSAGES.invalid,
        (value, context) =>
          value === undefined ||
          (
            EXPORT_FORMATS[context.parent.service as ExportService] as readonly string[] | undefined
          )?.includes(value) === true,
      ),
    itemIds: yup
      .array(
        yup
          .string()
          .required()
          .test("id", EXPORT_MESSAGES.invalid, (value) => isId(value)),
      )
      .max(1000, EXPORT_MESSAGES.invalid)
      .optional(),
    /**
     * A browse's place, the one of the export's service (its `browseBy`): a label (Gmail, as the browse
     * names it: "INBOX", a user's label), a folder (Drive, a path: "My Drive/Projects", its own files), a
     * calendar (Calendar, its id: the calendar and all its events) or a group (Contacts, as the browse
     * names it: "all", "group:<name>", "other"): the items a browse of it shows, every page. Not with
     * `itemIds`, nor with another place.
     */
    label: placeField("label"),
    folder: placeField("folder"),
    calendar: placeField("calendar"),
    group: placeField("group"),
    /** MM-DD-YYYY: the items as the backups held them at the end of that day (UTC). */
    date: yup.string().trim().optional().test("date", SEARCH_MESSAGES.invalidDate, testSearchDate),
  })
  .noUnknown(EXPORT_MESSAGES.invalid);

export type ExportRequest = yup.InferType<typeof exportRequestSchema>;

export type ExportState = "pending" | "running" | "succeeded" | "failed" | "expired";

export interface ExportProblem {
  itemKey: string;
  /** The message's subject or the file's name, as backed up. */
  name: string;
  reason: string;
}

/**
 * An export's progress. total: the items chosen (for a whole resource, the items held at the date, counted
 * before it starts; at the end total = exported + failed). bytes: the export file's size so far; totalBytes:
 * the source bytes of the items chosen, as backed up. While it runs: its measured pace (null until it has
 * run a minute), the seconds left at that pace and the limit (no Google quota applies to an export: its
 * `kind` is "none"); null otherwise.
 */
export interface ExportProgress extends WorkPace {
  total: number;
  exported: number;
  failed: number;
  bytes: number;
}

/** GET /v1/organizations/{id}/exports/{exportId}; POST …/exports answers it with 202. */
export interface ExportJob {
  exportId: string;
  state: ExportState;
  service: ExportService;
  format: ExportFormat;
  resourceId: string;
  /** The mailbox's address or the drive's name, as when the export was asked for. */
  resourceName: string;
  /** The file the download saves as. */
  fileName: string;
  /** Items exported as held at this instant (the end of the request's date), or null: as backed up last. */
  asOf: string | null;
  /**
   * The place whose items the export holds, as a browse of it showed them: a label (by its name), a folder
   * (its path), a calendar or a contact group (by its name); null: the chosen items or the whole resource.
   */
  within: string | null;
  requestedAt: string;
  requestedBy: string;
  finishedAt: string | null;
  /** When the export's file is deleted (a week after it finished); null until it finishes. */
  expiresAt: string | null;
  progress: ExportProgress;
  failureReason: string | null;
  /** The first items (at most 20) left out, with why; the report (`…/report`, CSV) lists every one. */
  problems: ExportProblem[];
  /** How often a download link was handed out, and the last time. */
  downloads: number;
  lastDownloadedAt: string | null;
}

export interface ExportList {
  exports: ExportJob[];
}

/** POST …/exports/{exportId}/download: a short-lived link to the file. */
export interface ExportDownload {
  url: string;
  expiresAt: string;
}
