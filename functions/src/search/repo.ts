/**
 * The catalog as search reads it (docs/backup-format.md §6): `organizations/{id}/resources/{resourceId}/
 * items`, never the objects. A search reads one or two streams: indexed queries over a resource's items of
 * a kind in display order (newest mail first, Drive files by name), narrowed by a keyword word
 * (`search.keywords array-contains`), a mail date range, whether a message is dated after its first backup
 * (`datedLater`), and when it was first backed up; a browse narrows them by its place (`PlaceFilter`).
 * Pages are read from a cursor (the catalog document the
 * previous page ended on), never by offset, and totals come from count aggregations stopped at a cap, so a
 * page costs about its size in reads whatever the catalog's size.
 */
import { factsOfItemKind, type ServiceItemKind } from "@alpvault/contracts/services";
import type { DocumentSnapshot, Query } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../lib/tenancy";
import { decodeQueried, readableDocument } from "../lib/stored";
import { catalogDocId } from "../engine/runner/catalog-ids";
import { TOKEN_FIELDS } from "../engine/format/catalog-index";
import { searchToken } from "../engine/format/catalog-seal";
import type { DerivedKeys } from "../engine/format/keys";
import { itemStart } from "../engine/services";
import {
  CATALOG_ITEM_FOLDER_VIEW,
  SEARCH_VIEW_FIELDS,
  type CatalogItemSearchView,
} from "../backups/catalog/documents";
import { catalogSearchViewKind, type CatalogScope } from "../backups/catalog/sealed-documents";

export type ItemKind = ServiceItemKind;

/** The fields of an item document search reads. */
export type SearchableItem = CatalogItemSearchView;

/** Where a stream is read from: a catalog document of it, as read. */
export type ItemCursor = DocumentSnapshot;

/**
 * Where a browse narrows a service's items to (a label's mail, a folder's files, a group's contacts): one
 * search field equal to, or listing, a value as the search fields keep it.
 */
export interface PlaceFilter {
  field: "search.labels" | "search.path" | "search.groups" | "search.entry" | "search.calendarId";
  op: "==" | "array-contains";
  value: string;
}

/** One query of a search: the items of a kind in display order, narrowed. */
export interface Stream {
  /**
   * Catalog format v2's items indexed under this data key (`index.key`), the words and places as its
   * search tokens (docs/backup-format.md §9.4); absent: version 1's items, by their clear search fields.
   */
  sealed?: DerivedKeys;
  word?: string;
  /** Only the items of a browse's place. */
  place?: PlaceFilter;
  /** Only messages dated after their first backup (`datedLater`). */
  datedLater?: boolean;
  /** Mail dated at or after this instant. */
  dateFrom?: string;
  /** Mail dated before this instant. */
  dateBefore?: string;
  /** Items first backed up before this instant. */
  firstSeenBefore?: string;
}

function items(scope: Scope, resourceId: string) {
  return organizationRef(scope).collection("resources").doc(resourceId).collection("items");
}

/** Where a place's field is in format v2: its index field, and the token field of its values (none: clear). */
const SEALED_PLACES: Record<PlaceFilter["field"], { field: string; token?: string }> = {
  "search.labels": { field: "index.labels", token: TOKEN_FIELDS.label },
  "search.path": { field: "index.path", token: TOKEN_FIELDS.path },
  "search.groups": { field: "index.groups", token: TOKEN_FIELDS.group },
  "search.calendarId": { field: "index.calendar", token: TOKEN_FIELDS.calendar },
  "search.entry": { field: "index.entry" },
};

/** A stream's filters as the catalog format of its items keeps them. */
interface Filters {
  word?: string;
  place?: PlaceFilter;
  dateFrom?: string;
  dateBefore?: string;
}

/** The items of a kind in the stream's catalog format, narrowed by word, place and mail date. */
function narrowed(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  sealed: DerivedKeys | undefined,
  filters: Filters,
): Query {
  let query: Query = items(scope, resourceId).where("kind", "==", kind);
  if (!sealed) {
    if (filters.word) query = query.where("search.keywords", "array-contains", filters.word);
    if (filters.place) query = query.where(filters.place.field, filters.place.op, filters.place.value);
    if (filters.dateFrom) query = query.where("search.date", ">=", filters.dateFrom);
    if (filters.dateBefore) query = query.where("search.date", "<", filters.dateBefore);
    return query;
  }
  query = query.where("index.key", "==", sealed.dataKeyId);
  if (filters.word)
    query = query.where(
      "index.words",
      "array-contains",
      searchToken(sealed, TOKEN_FIELDS.word, filters.word),
    );
  if (filters.place) {
    const place = SEALED_PLACES[filters.place.field];
    const value = place.token ? searchToken(sealed, place.token, filters.place.value) : filters.place.value;
    query = query.where(place.field, filters.place.op, value);
  }
  if (filters.dateFrom) query = query.where("index.date", ">=", filters.dateFrom);
  if (filters.dateBefore) query = query.where("index.date", "<", filters.dateBefore);
  return query;
}

function streamQuery(scope: Scope, resourceId: string, kind: ItemKind, stream: Stream): Query {
  let query = narrowed(scope, resourceId, kind, stream.sealed, stream);
  if (stream.datedLater) query = query.where("datedLater", "==", true);
  if (stream.firstSeenBefore) query = query.where("firstSeenAt", "<", stream.firstSeenBefore);
  const facts = factsOfItemKind(kind);
  const { field, direction } = stream.sealed ? facts.sealedSearchOrder : facts.searchOrder;
  return query.orderBy(field, direction);
}

/** Whether the resource holds items of the kind in catalog format v2 indexed under `keys` (one read). */
export async function holdsSealedItems(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  keys: DerivedKeys,
): Promise<boolean> {
  const query = items(scope, resourceId).where("kind", "==", kind).where("index.key", "==", keys.dataKeyId);
  return !(await query.select().limit(1).get()).empty;
}

/** The catalog document a page token names, or undefined when it is gone. */
export async function cursorDocument(
  scope: CatalogScope,
  resourceId: string,
  docId: string,
): Promise<DocumentSnapshot | undefined> {
  const snapshot = await items(scope, resourceId).doc(docId).get();
  return snapshot.exists ? snapshot : undefined;
}

/**
 * Up to `limit` documents of a stream after `after` (its start when undefined), with their items and ids.
 * A document that does not decode as an item has none (logged): the caller leaves it out, and the stream
 * still goes on after it.
 */
export async function readStream(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  stream: Stream,
  after: DocumentSnapshot | undefined,
  limit: number,
): Promise<{ id: string; item: SearchableItem | undefined; snapshot: DocumentSnapshot }[]> {
  const query = streamQuery(scope, resourceId, kind, stream).select(...SEARCH_VIEW_FIELDS);
  const page = await (after ? query.startAfter(after) : query).limit(limit).get();
  return page.docs.map((doc) => ({
    id: doc.id,
    item: readableDocument(catalogSearchViewKind(scope), doc),
    snapshot: doc,
  }));
}

/** How many items of a stream follow `after` (all when undefined), counting at most `cap`. */
export async function countStream(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  stream: Stream,
  after: DocumentSnapshot | undefined,
  cap: number,
): Promise<number> {
  const query = streamQuery(scope, resourceId, kind, stream);
  const counted = await (after ? query.startAfter(after) : query).limit(cap).count().get();
  return counted.data().count;
}

/**
 * How many items of a kind there are with `word` in their keywords (all of the kind without one) and first
 * backed up, or deleted at the source, before an instant; counting at most `cap`.
 */
export async function countItems(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  filter: {
    sealed?: DerivedKeys;
    word?: string;
    place?: PlaceFilter;
    firstSeenBefore?: string;
    deletedBefore?: string;
  },
  cap: number,
): Promise<number> {
  let query = narrowed(scope, resourceId, kind, filter.sealed, filter);
  if (filter.firstSeenBefore) query = query.where("firstSeenAt", "<", filter.firstSeenBefore);
  if (filter.deletedBefore) query = query.where("deletedAtSource", "<", filter.deletedBefore);
  return (await query.limit(cap).count().get()).data().count;
}

/**
 * The first file path, in order, after `after` and before `end` (Drive files by their folder path): a
 * browse finds a folder's sub-folders one read each, skipping each sub-folder's whole tree once found.
 * Answers the path as kept (lower case) and as Drive shows it.
 */
export async function nextFolderPath(
  scope: CatalogScope,
  resourceId: string,
  after: string,
  end: string,
): Promise<{ path: string; shown: string } | undefined> {
  const page = await items(scope, resourceId)
    .where("kind", "==", "drive-file")
    .where("search.path", ">", after)
    .where("search.path", "<", end)
    .orderBy("search.path")
    .select("search.path", "search.display.path")
    .limit(1)
    .get();
  const doc = page.docs[0];
  if (!doc) return undefined;
  const { search } = decodeQueried(CATALOG_ITEM_FOLDER_VIEW, doc);
  return { path: search.path, shown: search.display?.path ?? search.path };
}

/** At most `limit` documents of a query, each with the fields search reads, decoded (an undecodable one left out). */
async function searchViews(scope: CatalogScope, query: Query, limit: number): Promise<SearchableItem[]> {
  const page = await query
    .select(...SEARCH_VIEW_FIELDS)
    .limit(limit)
    .get();
  return page.docs.flatMap((doc) => readableDocument(catalogSearchViewKind(scope), doc) ?? []);
}

/**
 * The data keys under which the resource holds items of the kind in catalog format v2, in id order (one
 * read per key of the scope's keyring; none without one).
 */
export async function sealedFormats(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
): Promise<DerivedKeys[]> {
  const keys = [...(scope.keyring?.all() ?? [])].sort((a, b) => a.dataKeyId.localeCompare(b.dataKeyId));
  const held = await Promise.all(keys.map((keys) => holdsSealedItems(scope, resourceId, kind, keys)));
  return keys.filter((_, index) => held[index]);
}

/**
 * The search views of one query in each catalog format the resource holds the kind in: version 1's, then
 * each v2 key's (`build` gets the key, undefined for version 1), each at most `limit`.
 */
async function inEachFormat(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  build: (sealed: DerivedKeys | undefined) => Query,
  limit: number,
): Promise<SearchableItem[]> {
  const formats = [undefined, ...(await sealedFormats(scope, resourceId, kind))];
  const found = await Promise.all(formats.map((sealed) => searchViews(scope, build(sealed), limit)));
  return found.flat();
}

/** A calendar entry query narrowed to a calendar, in either format. */
function calendarEntries(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  calendarId: string,
  sealed: DerivedKeys | undefined,
): Query {
  const query = items(scope, resourceId).where("kind", "==", kind);
  if (!sealed) return query.where("search.calendarId", "==", calendarId);
  return query
    .where("index.key", "==", sealed.dataKeyId)
    .where("index.calendar", "==", searchToken(sealed, TOKEN_FIELDS.calendar, calendarId));
}

/** The items of a kind whose search entry is `entry` (a user's calendars, contact groups), at most `limit` a format. */
export function entriesOf(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  entry: string,
  limit: number,
): Promise<SearchableItem[]> {
  return inEachFormat(
    scope,
    resourceId,
    kind,
    (sealed) => {
      const query = items(scope, resourceId).where("kind", "==", kind);
      if (!sealed) return query.where("search.entry", "==", entry);
      return query.where("index.key", "==", sealed.dataKeyId).where("index.entry", "==", entry);
    },
    limit,
  );
}

/**
 * A calendar's entries (events, changed and cancelled instances, series' masters) starting at or after
 * `from` and before `to` (as search keeps times: dates and UTC instants compare as text), in start order,
 * at most `limit`.
 */
export async function calendarEntriesStarting(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  calendarId: string,
  range: { from: string; to: string },
  limit: number,
): Promise<SearchableItem[]> {
  const found = await inEachFormat(
    scope,
    resourceId,
    kind,
    (sealed) => {
      const start = sealed ? "index.start" : "search.start";
      return calendarEntries(scope, resourceId, kind, calendarId, sealed)
        .where(start, ">=", range.from)
        .where(start, "<", range.to)
        .orderBy(start);
    },
    limit,
  );
  const startOf = (item: SearchableItem) => itemStart(item.search) ?? "";
  // Each format's entries are in start order; together, too (a stable sort keeps each one's order).
  return found
    .sort((a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : 0))
    .slice(0, limit);
}

/**
 * A calendar's entries that carry a browse's mark, at most `limit` a format: `long` (events longer than the
 * browse's lookback) or `recurring` (the masters of its recurring series).
 */
export function calendarEntriesMarked(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  calendarId: string,
  mark: "long" | "recurring",
  limit: number,
): Promise<SearchableItem[]> {
  return inEachFormat(
    scope,
    resourceId,
    kind,
    (sealed) =>
      calendarEntries(scope, resourceId, kind, calendarId, sealed).where(
        `${sealed ? "index" : "search"}.${mark}`,
        "==",
        true,
      ),
    limit,
  );
}

/** Which of these item keys the catalog holds (one batched read of their documents, nothing of them read). */
export async function heldItemKeys(
  scope: CatalogScope,
  resourceId: string,
  itemKeys: readonly string[],
): Promise<Set<string>> {
  if (itemKeys.length === 0) return new Set();
  const collection = items(scope, resourceId);
  // Answered in the order asked: a document that exists is the key at its place.
  const docs = await collection.firestore.getAll(
    ...itemKeys.map((key) => collection.doc(catalogDocId(key))),
    { fieldMask: [] },
  );
  return new Set(itemKeys.filter((_key, index) => docs[index]?.exists === true));
}
