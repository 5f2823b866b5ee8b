/**
 * What a search or a browse shows of a catalog item, per service (docs/requirements.md#data-the-console-shows):
 * its texts as written when the catalog has them (`search.display`), else the lower-cased search fields.
 */
import type {
  CalendarSearchResult,
  ContactSearchResult,
  DriveSearchResult,
  MailSearchResult,
  SearchResponse,
  SearchService,
} from "@alpvault/contracts/search";
import type { SearchFields } from "../engine/sources/source";
import type { SearchableItem } from "./repo";

/** The item's search fields when they are of `kind` (an item of another kind shows empty fields). */
export function fieldsOf<K extends SearchFields["kind"]>(
  item: SearchableItem,
  kind: K,
): Extract<SearchFields, { kind: K }> | undefined {
  const search: SearchFields = item.search;
  return search.kind === kind ? (search as Extract<SearchFields, { kind: K }>) : undefined;
}

/** A mail item's result. */
export function mailResult(item: SearchableItem): MailSearchResult {
  const search = fieldsOf(item, "mail");
  return {
    itemId: item.itemKey,
    versionId: item.currentVersionId,
    subject: search?.display?.subject || (search?.subject ?? ""),
    fromName: search?.display?.fromName || (search?.fromName ?? ""),
    fromEmail: search?.fromEmail ?? "",
    to: search?.to ?? [],
    date: search?.date ?? "",
    size: search?.size ?? 0,
    deletedAtSource: item.deletedAtSource,
  };
}

/** A Drive item's result. */
export function driveResult(item: SearchableItem): DriveSearchResult {
  const search = fieldsOf(item, "drive");
  return {
    itemId: item.itemKey,
    versionId: item.currentVersionId,
    name: search?.display?.name || (search?.name ?? ""),
    path: search?.display?.path || (search?.path ?? ""),
    mimeType: search?.mimeType ?? "",
    createdBy: search?.createdBy ?? "",
    lastModified: search?.modifiedTime ?? "",
    lastBackup: item.lastSeenAt,
    size: search?.size ?? 0,
    googleId: search?.googleId ?? "",
    currentVersion: item.current?.metadata?.version ?? "",
    deletedAtSource: item.deletedAtSource,
    notExportable: item.current?.metadata?.contentSkipped === "not-exportable",
  };
}

/** A calendar's or an event's result. */
export function calendarResult(item: SearchableItem): CalendarSearchResult {
  const search = fieldsOf(item, "calendar");
  return {
    itemId: item.itemKey,
    versionId: item.currentVersionId,
    entry: search?.entry ?? "event",
    summary: search?.display?.summary || (search?.summary ?? ""),
    calendar: search?.display?.calendar ?? search?.calendarId ?? "",
    organizer: search?.organizer ?? "",
    attendees: search?.attendees ?? [],
    start: search?.start ?? "",
    end: search?.end ?? "",
    lastBackup: item.lastSeenAt,
    deletedAtSource: item.deletedAtSource,
  };
}

/** A contact's, group's or other contact's result. */
export function contactResult(item: SearchableItem): ContactSearchResult {
  const search = fieldsOf(item, "contact");
  return {
    itemId: item.itemKey,
    versionId: item.currentVersionId,
    entry: search?.entry ?? "contact",
    name: search?.display?.name || (search?.name ?? ""),
    email: search?.display?.email ?? search?.emails[0] ?? "",
    emails: search?.emails ?? [],
    phones: search?.phones ?? [],
    groups: search?.display?.groups ?? search?.groups ?? [],
    lastBackup: item.lastSeenAt,
    deletedAtSource: item.deletedAtSource,
  };
}

const RESULTS: {
  [S in SearchService]: (item: SearchableItem) => Extract<SearchResponse, { service: S }>["results"][number];
} = { gmail: mailResult, drive: driveResult, calendar: calendarResult, contacts: contactResult };

/** A page of a service's items as the answer shows them. */
export function searchAnswer<B extends object>(
  base: B,
  service: SearchService,
  items: readonly SearchableItem[],
): B & SearchResponse {
  const results = items.map((item) => RESULTS[service](item));
  // The results are of the service named beside them (one mapper per service, above).
  return { ...base, service, results } as B & SearchResponse;
}
