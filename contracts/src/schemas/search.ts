import { z } from "zod/mini";
import { BROWSE_SPANS, type BrowseResponse } from "../browse";
import type {
  CalendarSearchResult,
  ContactSearchResult,
  DriveSearchResult,
  MailSearchResult,
  SearchResponse,
} from "../search";
import { count, nullableString } from "./common";

export const mailSearchResultSchema: z.ZodMiniType<MailSearchResult> = z.object({
  itemId: z.string(),
  versionId: z.string(),
  subject: z.string(),
  fromName: z.string(),
  fromEmail: z.string(),
  to: z.array(z.string()),
  date: z.string(),
  size: count,
  deletedAtSource: nullableString,
});

export const driveSearchResultSchema: z.ZodMiniType<DriveSearchResult> = z.object({
  itemId: z.string(),
  versionId: z.string(),
  name: z.string(),
  path: z.string(),
  mimeType: z.string(),
  createdBy: z.string(),
  lastModified: z.string(),
  lastBackup: z.string(),
  size: count,
  googleId: z.string(),
  currentVersion: z.string(),
  deletedAtSource: nullableString,
  /** Absent: the file exports like any other. */
  notExportable: z.pipe(
    z.optional(z.boolean()),
    z.transform((value: boolean | undefined) => value === true),
  ),
});

export const calendarSearchResultSchema: z.ZodMiniType<CalendarSearchResult> = z.object({
  itemId: z.string(),
  versionId: z.string(),
  entry: z.enum(["calendar", "event"]),
  summary: z.string(),
  calendar: z.string(),
  organizer: z.string(),
  attendees: z.array(z.string()),
  start: z.string(),
  end: z.string(),
  lastBackup: z.string(),
  deletedAtSource: nullableString,
  occurrenceOf: z.optional(z.literal("series")),
});

export const contactSearchResultSchema: z.ZodMiniType<ContactSearchResult> = z.object({
  itemId: z.string(),
  versionId: z.string(),
  entry: z.enum(["contact", "group", "other-contact"]),
  name: z.string(),
  email: z.string(),
  emails: z.array(z.string()),
  phones: z.array(z.string()),
  groups: z.array(z.string()),
  lastBackup: z.string(),
  deletedAtSource: nullableString,
});

const page = {
  resource: z.object({ resourceId: z.string(), name: z.string(), email: nullableString }),
  total: count,
  totalAtLeast: z.boolean(),
  page: count,
  pageSize: count,
  nextPageToken: nullableString,
};

export const searchResponseSchema: z.ZodMiniType<SearchResponse> = z.discriminatedUnion("service", [
  z.object({ ...page, service: z.literal("gmail"), results: z.array(mailSearchResultSchema) }),
  z.object({ ...page, service: z.literal("drive"), results: z.array(driveSearchResultSchema) }),
  z.object({ ...page, service: z.literal("calendar"), results: z.array(calendarSearchResultSchema) }),
  z.object({ ...page, service: z.literal("contacts"), results: z.array(contactSearchResultSchema) }),
]);

const browseExtras = {
  asOf: nullableString,
  labels: z.array(z.object({ label: z.string(), name: z.string(), system: z.boolean() })),
  folder: z.string(),
  folders: z.array(z.object({ name: z.string(), path: z.string() })),
  foldersAtLeast: z.boolean(),
  calendars: z.array(z.object({ calendar: z.string(), name: z.string() })),
  calendar: nullableString,
  view: z.nullable(
    z.object({
      span: z.enum(BROWSE_SPANS),
      from: z.string(),
      to: z.string(),
      timeZone: z.string(),
      eventsAtLeast: z.boolean(),
    }),
  ),
  groups: z.array(z.object({ group: z.string(), name: z.string() })),
  group: nullableString,
};

export const browseResponseSchema: z.ZodMiniType<BrowseResponse> = z.discriminatedUnion("service", [
  z.object({
    ...page,
    ...browseExtras,
    service: z.literal("gmail"),
    results: z.array(mailSearchResultSchema),
  }),
  z.object({
    ...page,
    ...browseExtras,
    service: z.literal("drive"),
    results: z.array(driveSearchResultSchema),
  }),
  z.object({
    ...page,
    ...browseExtras,
    service: z.literal("calendar"),
    results: z.array(calendarSearchResultSchema),
  }),
  z.object({
    ...page,
    ...browseExtras,
    service: z.literal("contacts"),
    results: z.array(contactSearchResultSchema),
  }),
]);
