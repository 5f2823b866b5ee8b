/**
 * Searching a resource's backups (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation): the query is checked with the browser's rules and
 * texts, the resource is found by its name or email, and the catalog answers (no object is opened). A
 * keyword matches whole words of the subject, sender and recipients (mail) or of the file name (Drive),
 * every word of it; a date shows the items the backups held at the end of that day (UTC), each as its
 * version of that time was (a renamed or changed file shows its name, size and version then; the keyword is
 * matched against the current name). Every search is audited ("Backup item searched"), without its keyword.
 */
import { itemKindOf, SERVICES } from "@alpvault/contracts/services";
import { ValidationError } from "yup";
import {
  MAX_SEARCH_PAGE_SIZE,
  SEARCH_MESSAGES,
  SEARCH_SERVICES,
  searchDateEnd,
  searchFormSchema,
  type SearchResponse,
  type SearchService,
} from "@alpvault/contracts/search";
import type { Resource } from "@alpvault/contracts/organizations";
import { appendAudit } from "../audit/service";
import { DomainError } from "../lib/errors";
import type { Scope } from "../lib/tenancy";
import { findResourceByNameOrEmail } from "../resources/service";
import { versionAt } from "../backups/service";
import { findItems, type FoundPage } from "./find-items";
import { searchAnswer } from "./results";
import {
  PAGE_TOKEN_MESSAGES,
  decodePageToken,
  encodePageToken,
  searchDigest,
  type PageToken,
} from "./page-token";
import type { ItemKind, SearchableItem } from "./repo";

export interface SearchQuery {
  service: SearchService;
  resource: string;
  keywordWords: string[];
  /** End of the chosen day (exclusive), ISO 8601. */
  asOf?: string;
  page: number;
  pageSize: number;
  /** The previous page's `nextPageToken`, as given (checked against the search once its resource is known). */
  pageToken?: string;
}

/** The fields of a search or browse body that are whole numbers; every other field is text. */
const NUMBER_TERMS = ["page", "pageSize"];

/**
 * The terms of a search or browse request body (docs/api.md "Backups and search"): a JSON object of the
 * fields `fields` names, each text, or a whole number for `page` and `pageSize`; answered as the texts the
 * readers below take (numbers as their digits). No body is no terms; anything else is a 400.
 */
export function bodyTerms(body: unknown, fields: readonly string[]): Record<string, string> {
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw DomainError.invalid("The request body must be an object.");
  const terms: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!fields.includes(name))
      throw DomainError.invalid("The request body has a field this call does not take.");
    if (NUMBER_TERMS.includes(name)) {
      if (typeof value !== "number" || !Number.isSafeInteger(value))
        throw DomainError.invalid(`${name} must be a whole number.`);
      terms[name] = String(value);
    } else {
      if (typeof value !== "string") throw DomainError.invalid(`${name} must be a string.`);
      terms[name] = value;
    }
  }
  return terms;
}

export function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw DomainError.invalid(`${name} must be a string.`);
  return value;
}

export function positive(
  query: Record<string, unknown>,
  name: string,
  fallback: number,
  max: number,
): number {
  const value = single(query, name);
  if (value === undefined || value === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) {
    throw DomainError.invalid(`${name} must be a whole number from 1 to ${max}.`);
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

/** The fields a search body may have. */
export const SEARCH_TERMS = [
  "service",
  "resource",
  "keyword",
  "date",
  "page",
  "pageSize",
  "pageToken",
] as const;

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
  const pageToken = single(query, "pageToken");
  return {
    service: service as SearchService,
    resource: form.resource,
    keywordWords: form.keyword ? keywordWords(form.keyword) : [],
    ...(asOf ? { asOf } : {}),
    page: positive(query, "page", 1, 100_000),
    pageSize: positive(query, "pageSize", 25, MAX_SEARCH_PAGE_SIZE),
    ...(pageToken ? { pageToken } : {}),
  };
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
    search: version.search,
    current: { metadata: version.metadata },
  };
}

/** The items of a page, each as the backups held it at `asOf` when there is one. */
export function heldAt(scope: Scope, resourceId: string, items: SearchableItem[], asOf: string | undefined) {
  if (!asOf) return Promise.resolve(items);
  return Promise.all(
    items.map(async (item) =>
      // The current version, captured before the date, is the one held then: nothing more to read.
      item.current?.capturedAt !== undefined && item.current.capturedAt < asOf
        ? { ...item, deletedAtSource: null, lastSeenAt: item.current.capturedAt }
        : asHeldAt(scope, resourceId, item, asOf),
    ),
  );
}

/** The page token asked for, checked against this search and page. */
export function tokenOf(
  query: Pick<SearchQuery, "pageToken" | "page">,
  digest: string,
): PageToken | undefined {
  if (query.pageToken === undefined) return undefined;
  const token = decodePageToken(query.pageToken, digest);
  if (token.page !== query.page) throw DomainError.invalid(PAGE_TOKEN_MESSAGES.pageMismatch);
  return token;
}

export async function searchBackups(
  scope: Scope,
  rawQuery: Record<string, unknown>,
  actor: string,
  now = new Date(),
): Promise<SearchResponse> {
  const query = parseSearchQuery(rawQuery);
  const resource = await findResourceByNameOrEmail(scope, query.resource);
  if (!resource) throw DomainError.notFound(SEARCH_MESSAGES.resourceNotFound);
  const kind: ItemKind = itemKindOf(query.service);
  const digest = searchDigest([query.service, resource.resourceId, query.keywordWords, query.asOf ?? null]);
  const token = tokenOf(query, digest);
  const found = await findItems(scope, resource.resourceId, {
    kind,
    words: query.keywordWords,
    ...(query.asOf ? { asOf: query.asOf } : {}),
    pageSize: query.pageSize,
    skip: token ? 0 : (query.page - 1) * query.pageSize,
    ...(token ? { token } : {}),
  });
  const items = await heldAt(scope, resource.resourceId, found.items, query.asOf);
  await auditSearch(scope, actor, query.service, resource, now);
  const base = pageOf(resource, query, found, digest);
  return searchAnswer(base, query.service, items);
}

/** "Backup item searched", with the service and the resource (never the keyword). */
export function auditSearch(
  scope: Scope,
  actor: string,
  service: SearchService,
  resource: Pick<Resource, "email" | "name">,
  now: Date,
): Promise<void> {
  return appendAudit(scope, {
    operation: "backup-item.searched",
    actor,
    object: `${SERVICES[service].name} of ${resource.email ?? resource.name}`,
    date: now,
  });
}

/** What a page of a search (or a browse) says besides its results: whose, how many, where the next starts. */
export function pageOf(
  resource: Pick<Resource, "resourceId" | "email" | "name">,
  query: { page: number; pageSize: number },
  found: FoundPage,
  digest: string,
) {
  return {
    resource: { resourceId: resource.resourceId, name: resource.name, email: resource.email },
    total: found.total,
    totalAtLeast: found.totalAtLeast,
    page: query.page,
    pageSize: query.pageSize,
    nextPageToken: found.next
      ? encodePageToken(digest, {
          page: query.page + 1,
          position: found.next,
          total: found.total,
          totalAtLeast: found.totalAtLeast,
        })
      : null,
  };
}
