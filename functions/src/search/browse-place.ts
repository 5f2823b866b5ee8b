/**
 * What a browse asks of each service (search/browse.ts is the same for all of them): the query parameters
 * its places take, how a place is read from the query, and the page of a place with what to browse on to
 * (the mailbox's labels, a folder's sub-folders, the calendars and the days shown, the contact groups).
 */
import type { BrowsePlaces, BrowseResponse } from "@alpvault/contracts/browse";
import type { Resource } from "@alpvault/contracts/organizations";
import type { SearchService } from "@alpvault/contracts/search";
import type { Scope } from "../lib/tenancy";
import { findItems, type FoundPage } from "./find-items";
import type { PageToken } from "./page-token";
import type { ItemKind, PlaceFilter, SearchableItem } from "./repo";
import { heldAt } from "./service";

/** What every browse takes besides its place. */
export interface BrowseCommon {
  /** End of the chosen day (exclusive), ISO 8601. */
  asOf?: string;
  page: number;
  pageSize: number;
  pageToken?: string;
}

export interface BrowseContext {
  scope: Scope;
  resource: Resource;
  service: SearchService;
  kind: ItemKind;
  common: BrowseCommon;
  /** The page token asked for, checked against this browse. */
  token: PageToken | undefined;
  now: Date;
}

export interface BrowsePage {
  found: FoundPage;
  /** The page's results, in the service's result shape. */
  results: BrowseResponse["results"];
  extras: Partial<BrowsePlaces>;
}

/** A place of a service read from a browse's query. */
export interface BrowsedPlace {
  /** What tells this place from another (part of the page token's digest). */
  key: unknown;
  page(context: BrowseContext): Promise<BrowsePage>;
  /**
   * The keys of every item the place shows at `asOf` (what an export of the place takes), at most `limit`
   * (`more`: it holds others); absent where a place is not exported whole.
   */
  keys?(context: PlaceKeysContext, asOf: string | undefined, limit: number): Promise<PlaceKeys>;
}

export interface PlaceKeysContext {
  scope: Scope;
  resourceId: string;
  kind: ItemKind;
}

export interface PlaceKeys {
  keys: string[];
  more: boolean;
  /** The place's name as the browse shows it (an export's `within`). */
  within: string;
}

export interface PlaceBrowser {
  /** The query parameters of the service's places. */
  params: readonly string[];
  /** The text a browse of another service given one of them is refused with. */
  misplaced: string;
  /** The place the query names (its parameters checked: a DomainError with the text otherwise). */
  open(query: Record<string, unknown>): BrowsedPlace;
}

/** A page of a place narrowed by a search field, as a search without a keyword finds it, each item as held then. */
export async function placePage(
  context: BrowseContext,
  place: PlaceFilter | undefined,
): Promise<{ found: FoundPage; items: SearchableItem[] }> {
  const { scope, resource, common, token } = context;
  const found = await findItems(scope, resource.resourceId, {
    kind: context.kind,
    words: [],
    ...(place ? { place } : {}),
    ...(common.asOf ? { asOf: common.asOf } : {}),
    pageSize: common.pageSize,
    skip: token ? 0 : (common.page - 1) * common.pageSize,
    ...(token ? { token } : {}),
  });
  return { found, items: await heldAt(scope, resource.resourceId, found.items, common.asOf) };
}

/** The catalog page an export of a place is gathered by. */
const PLACE_PAGE = 500;

/** The keys of every item a place narrowed by a search field shows at `asOf`, at most `limit`. */
export async function placeKeys(
  context: PlaceKeysContext,
  place: PlaceFilter,
  asOf: string | undefined,
  limit: number,
): Promise<Omit<PlaceKeys, "within">> {
  const keys: string[] = [];
  let token: PageToken | undefined;
  for (let page = 1; ; page++) {
    const found = await findItems(context.scope, context.resourceId, {
      kind: context.kind,
      words: [],
      place,
      ...(asOf ? { asOf } : {}),
      pageSize: PLACE_PAGE,
      skip: 0,
      ...(token ? { token } : {}),
    });
    for (const item of found.items) {
      if (keys.length === limit) return { keys, more: true };
      keys.push(item.itemKey);
    }
    if (!found.next) return { keys, more: false };
    token = { page: page + 1, position: found.next, total: found.total, totalAtLeast: found.totalAtLeast };
  }
}

/** An empty page (a place that holds no items: the top of the drives, a user without calendars). */
export const NO_ITEMS: FoundPage = { items: [], total: 0, totalAtLeast: false, next: null };
