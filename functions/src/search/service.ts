/**
 * Searching a resource's backups (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation): the query is checked with the browser's rules and
 * texts, the resource is found by its name or email, and the catalog answers (no object is opened). A
 * keyword matches whole words of the subject, sender and recipients (mail) or of the file name (Drive),
 * every word of it; a date shows the items the backups held at the end of that day (UTC), each as its
 * version of that time was (a renamed or changed file shows its name, size and version then; the keyword is
 * matched against the current name). Every search is audited ("Backup item searched"), without its keyword.
 */
import { ValidationError } from "yup";
import {
  MAX_SEARCH_PAGE_SIZE,
  SEARCH_MESSAGES,
  SEARCH_SERVICES,
  searchDateEnd,
  searchFormSchema,
  type DriveSearchResult,
  type MailSearchResult,
  type SearchResponse,
  type SearchService,
} from "@alpvault/contracts/search";
import type { Resource } from "@alpvault/contracts/organizations";
import { appendAudit } from "../audit/service";
import { DomainError } from "../lib/errors";
import type { Scope } from "../lib/tenancy";
import { listResources } from "../resources/service";
import { versionAt } from "../backups/service";
import * as logs from "../logs";
import { MAX_CANDIDATES, countItems, itemPage, scanItems, type ItemKind, type SearchableItem } from "./repo";

export interface SearchQuery {
  service: SearchService;
  resource: string;
  keywordWords: string[];
  /** End of the chosen day (exclusive), ISO 8601. */
  asOf?: string;
  page: number;
  pageSize: number;
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw DomainError.invalid(`Query parameter '${name}' must be given once`);
  return value;
}

function positive(query: Record<string, unknown>, name: string, fallback: number, max: number): number {
  const value = single(query, name);
  if (value === undefined || value === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) {
    throw DomainError.invalid(`Query parameter '${name}' must be a whole number from 1 to ${max}`);
  }
  return number;
}

/** The words a keyword matches: as the catalog's keywords are made (lower case, letters and digits). */
export function keywordWords(keyword: string): string[] {
  return [
    ...new Set(
      keyword
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word.length >= 2),
    ),
  ];
}

/** Reads and checks the query with the search card's rules and texts; anything else is a 400. */
export function parseSearchQuery(query: Record<string, unknown>): SearchQuery {
  const service = single(query, "service") ?? "gmail";
  if (!(SEARCH_SERVICES as readonly string[]).includes(service)) {
    throw DomainError.invalid(SEARCH_MESSAGES.unknownService);
  }
  let form;
  try {
    form = searchFormSchema.validateSync(
      {
        resource: single(query, "resource") ?? "",
        date: single(query, "date"),
        keyword: single(query, "keyword"),
      },
      { abortEarly: true },
    );
  } catch (error) {
    if (error instanceof ValidationError)
      throw DomainError.invalid(error.errors[0] ?? SEARCH_MESSAGES.resourceRequired);
    throw error;
  }
  const asOf = form.date ? searchDateEnd(form.date) : undefined;
  return {
    service: service as SearchService,
    resource: form.resource,
    keywordWords: form.keyword ? keywordWords(form.keyword) : [],
    ...(asOf ? { asOf } : {}),
    page: positive(query, "page", 1, 100_000),
    pageSize: positive(query, "pageSize", 25, MAX_SEARCH_PAGE_SIZE),
  };
}

/** The resource a name or email names: its email, else its name (case and accents aside). */
export function findResource(resources: Resource[], text: string): Resource | undefined {
  const wanted = text.trim().toLocaleLowerCase();
  const collator = new Intl.Collator("en", { sensitivity: "base" });
  return (
    resources.find((resource) => resource.email?.toLowerCase() === wanted) ??
    resources.find((resource) => collator.compare(resource.name, text.trim()) === 0)
  );
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const number = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** The texts as written when the catalog has them, else the lower-cased search fields. */
const shown = (item: SearchableItem, field: string): string => {
  const display = item.search.display as Record<string, unknown> | undefined;
  return text(display?.[field]) || text(item.search[field]);
};

function mailResult(item: SearchableItem): MailSearchResult {
  const search = item.search;
  return {
    itemId: item.itemKey,
    versionId: item.currentVersionId,
    subject: shown(item, "subject"),
    fromName: shown(item, "fromName"),
    fromEmail: text(search.fromEmail),
    to: Array.isArray(search.to)
      ? search.to.filter((entry): entry is string => typeof entry === "string")
      : [],
    date: text(search.date),
    size: number(search.size),
    deletedAtSource: item.deletedAtSource ?? null,
  };
}

function driveResult(item: SearchableItem): DriveSearchResult {
  const search = item.search;
  return {
    itemId: item.itemKey,
    versionId: item.currentVersionId,
    name: shown(item, "name"),
    path: shown(item, "path"),
    mimeType: text(search.mimeType),
    createdBy: text(search.createdBy),
    lastModified: text(search.modifiedTime),
    lastBackup: item.lastSeenAt,
    size: number(search.size),
    googleId: text(search.googleId),
    currentVersion: text(item.current?.metadata?.version),
    deletedAtSource: item.deletedAtSource ?? null,
    notExportable: item.current?.metadata?.contentSkipped === "not-exportable",
  };
}

/** Whether an item matches every keyword word and existed in the backups at `asOf`. */
function matches(item: SearchableItem, query: SearchQuery): boolean {
  const keywords = Array.isArray(item.search.keywords) ? (item.search.keywords as unknown[]) : [];
  if (!query.keywordWords.every((word) => keywords.includes(word))) return false;
  if (query.asOf) {
    if (!(item.firstSeenAt < query.asOf)) return false;
    if (item.deletedAtSource && item.deletedAtSource < query.asOf) return false;
  }
  return true;
}

/**
 * An item as the backups held it at `asOf`: the fields of its version of that time (a Drive file's name,
 * size, modification and version then), not deleted. When retention no longer keeps that version, the item
 * as catalogued now.
 */
async function asHeldAt(
  scope: Scope,
  resourceId: string,
  item: SearchableItem,
  asOf: string,
): Promise<SearchableItem> {
  const version = await versionAt(scope, resourceId, item.itemKey, asOf);
  if (!version) return item;
  return {
    ...item,
    currentVersionId: version.versionId,
    deletedAtSource: null,
    lastSeenAt: version.capturedAt,
    search: version.search as unknown as Record<string, unknown>,
    current: { metadata: version.metadata as Record<string, unknown> },
  };
}

/**
 * The page of matching items and their total, with as little reading as the query allows:
 * - no date, at most one word: one indexed page and a count;
 * - a date, at most one word: the total from two counts (first seen before the date, less deleted before
 *   it), and the page from a scan in display order that stops once the page is full (mail: from the date
 *   down, after the few messages held then but dated later);
 * - several words: each word's count picks the rarest, whose items are scanned (a word no item has ends it).
 */
async function findItems(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  query: SearchQuery,
): Promise<{ items: SearchableItem[]; total: number }> {
  const offset = (query.page - 1) * query.pageSize;
  const words = query.keywordWords;
  const { asOf } = query;
  if (words.length <= 1 && !asOf) {
    return itemPage(scope, resourceId, kind, offset, query.pageSize, words[0]);
  }
  let page: SearchableItem[];
  let total: number;
  let scan: { items: SearchableItem[]; truncated: boolean };
  const keep = (item: SearchableItem) => matches(item, query);
  if (words.length <= 1 && asOf) {
    const word = words[0];
    const [held, deleted] = await Promise.all([
      countItems(scope, resourceId, kind, { word, firstSeenBefore: asOf }),
      countItems(scope, resourceId, kind, { word, deletedBefore: asOf }),
    ]);
    total = held - deleted;
    const wanted = offset + query.pageSize;
    if (offset >= total) {
      scan = { items: [], truncated: false };
    } else if (kind === "gmail-message") {
      // Mail held at the date is dated before it, but for the few whose Date header is later than their
      // arrival: those are read whole (they come first, newest first), then the rest from the date down.
      const late = await scanItems(scope, resourceId, kind, word, keep, Number.POSITIVE_INFINITY, {
        dateFrom: asOf,
        firstSeenBefore: asOf,
      });
      const rest =
        late.items.length < wanted
          ? await scanItems(scope, resourceId, kind, word, keep, wanted - late.items.length, {
              dateBefore: asOf,
            })
          : { items: [], truncated: false };
      scan = { items: [...late.items, ...rest.items], truncated: late.truncated || rest.truncated };
    } else {
      scan = await scanItems(scope, resourceId, kind, word, keep, wanted);
    }
    page = scan.items.slice(offset, wanted);
  } else {
    const counts = await Promise.all(words.map((word) => countItems(scope, resourceId, kind, { word })));
    const rarest = counts.indexOf(Math.min(...counts));
    if (counts[rarest] === 0) return { items: [], total: 0 };
    scan = await scanItems(scope, resourceId, kind, words[rarest], keep);
    page = scan.items.slice(offset, offset + query.pageSize);
    total = scan.items.length;
  }
  if (scan.truncated)
    logs.searchTruncated({ organizationId: scope.organizationId, candidates: MAX_CANDIDATES });
  return {
    items: asOf ? await Promise.all(page.map((item) => asHeldAt(scope, resourceId, item, asOf))) : page,
    total,
  };
}

export async function searchBackups(
  scope: Scope,
  rawQuery: Record<string, unknown>,
  actor: string,
  now = new Date(),
): Promise<SearchResponse> {
  const query = parseSearchQuery(rawQuery);
  const resource = findResource(await listResources(scope), query.resource);
  if (!resource) throw DomainError.notFound(SEARCH_MESSAGES.resourceNotFound);
  const kind: ItemKind = query.service === "gmail" ? "gmail-message" : "drive-file";
  const found = await findItems(scope, resource.resourceId, kind, query);
  await appendAudit(scope, {
    operation: "backup-item.searched",
    actor,
    object: `${query.service === "gmail" ? "Gmail" : "Drive"} of ${resource.email ?? resource.name}`,
    date: now,
  });
  const base = {
    resource: { resourceId: resource.resourceId, name: resource.name, email: resource.email },
    total: found.total,
    page: query.page,
    pageSize: query.pageSize,
  };
  return query.service === "gmail"
    ? { ...base, service: "gmail", results: found.items.map(mailResult) }
    : { ...base, service: "drive", results: found.items.map(driveResult) };
}
