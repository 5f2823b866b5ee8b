/**
 * Which catalog items a search shows, page by page, reading about a page's worth of documents whatever the
 * catalog's size (docs/api.md "Backups and search"):
 * - no date, at most one word: one stream (the word's items, or all of the kind), read from the page's
 *   cursor; the total counts what follows the cursor, up to `TOTAL_CAP` more (beyond, it is a lower bound);
 * - a date, at most one word: mail is read in two streams, first the few messages dated after their first
 *   backup (`datedLater`) and dated at or after the date, then the messages dated before it that were
 *   first backed up before it; Drive files in one stream by name. Items deleted at the source by then are
 *   left out. The total is what the catalog held (first backed up before the date, less deleted before
 *   it), counted up to the cap on the first page and carried by the page token;
 * - several words: the rarest word's stream (each word's count, capped, picks it), the other words checked
 *   on its items; the total is what the pages read so far found, a lower bound while more may follow. One
 *   request reads at most `SCAN_LIMIT` of the stream's items: words that seldom meet then give a page of
 *   what was found (possibly none) whose token goes on from the last item read, never a scan of the whole
 *   stream in one request.
 */
import { factsOfItemKind } from "@alpvault/contracts/services";
import { DomainError } from "../lib/errors";
import type { DerivedKeys } from "../engine/format/keys";
import type { CatalogScope as Scope } from "../backups/catalog/sealed-documents";
import {
  countItems,
  countStream,
  cursorDocument,
  sealedFormats,
  type ItemCursor,
  readStream,
  type ItemKind,
  type PlaceFilter,
  type SearchableItem,
  type Stream,
} from "./repo";
import type { PageToken, Position } from "./page-token";

/** Counts stop here (Firestore bills an aggregation one read per 1,000 index entries). */
export const TOTAL_CAP = 2_000;
/** The largest batch a filtered stream is read in. */
const MAX_BATCH = 500;
/** Most items of its stream one request of a several-word search reads (one read each). */
export const SCAN_LIMIT = 5_000;

export const SEARCH_PAGE_MESSAGES = {
  changed: "The results changed since this page was asked for: search again",
} as const;

export interface ItemsQuery {
  kind: ItemKind;
  words: string[];
  /** A browse's place (a label's mail, a folder's files, a group's contacts). */
  place?: PlaceFilter;
  /** End of the chosen day (exclusive), ISO 8601. */
  asOf?: string;
  pageSize: number;
  /** The page asked for without a token: that many items are skipped first. */
  skip: number;
  /** Where the page starts, from its token. */
  token?: PageToken;
  /** Most stream items a several-word page reads (`SCAN_LIMIT` unless given). */
  scanLimit?: number;
}

export interface FoundPage {
  items: SearchableItem[];
  total: number;
  totalAtLeast: boolean;
  /** Where the next page starts; null when this one is the last. */
  next: Position | null;
}

/** Whether an item matches every word and existed in the backups at `asOf`. */
function matches(item: SearchableItem, words: string[], asOf: string | undefined): boolean {
  if (!words.every((word) => item.search.keywords.includes(word))) return false;
  if (asOf) {
    if (!(item.firstSeenAt < asOf)) return false;
    if (item.deletedAtSource && item.deletedAtSource < asOf) return false;
  }
  return true;
}

interface Plan {
  /** Version 1's streams, then each data key's of format v2 that the resource holds items under (§9.4). */
  streams: Stream[];
  /** The catalog formats read: undefined for version 1, a data key for version 2's items under it. */
  formats: (DerivedKeys | undefined)[];
  /** Every item of the streams is shown (no check beyond the query). */
  unfiltered: boolean;
  totals: "counted" | "held" | "found";
  /** The index in `words` of the word the streams are narrowed by. */
  wordIndex: number;
}

/** The catalog formats a search reads: version 1, then each data key the resource holds v2 items under. */
async function formatsOf(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
): Promise<(DerivedKeys | undefined)[]> {
  return [undefined, ...(await sealedFormats(scope, resourceId, kind))];
}

/**
 * How many items of the kind match `filter` in every format, each count stopped at `cap`. Without a word or
 * a place the filter reads no field of either format, so one count covers both (an item is in one of them).
 */
async function countAll(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  formats: (DerivedKeys | undefined)[],
  filter: Omit<Parameters<typeof countItems>[3], "sealed">,
  cap: number,
): Promise<number> {
  if (!filter.word && !filter.place) return countItems(scope, resourceId, kind, filter, cap);
  const counts = await Promise.all(
    formats.map((sealed) => countItems(scope, resourceId, kind, { ...filter, sealed }, cap)),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** The index of the word fewest items have (each word's count stops at the cap), or null when one has none. */
async function rarestWord(
  scope: Scope,
  resourceId: string,
  query: ItemsQuery,
  formats: (DerivedKeys | undefined)[],
): Promise<number | null> {
  const counts = await Promise.all(
    query.words.map((word) => countAll(scope, resourceId, query.kind, formats, { word }, TOTAL_CAP)),
  );
  const rarest = counts.indexOf(Math.min(...counts));
  return counts[rarest] === 0 ? null : rarest;
}

async function planOf(scope: Scope, resourceId: string, query: ItemsQuery): Promise<Plan | null> {
  const { asOf, kind } = query;
  const formats = await formatsOf(scope, resourceId, kind);
  // The first page picks the rarest word; its token carries the choice to the next pages.
  let wordIndex = query.token?.position.word ?? 0;
  if (query.words.length > 1 && !query.token) {
    const rarest = await rarestWord(scope, resourceId, query, formats);
    if (rarest === null) return null;
    wordIndex = rarest;
  }
  if (wordIndex >= Math.max(1, query.words.length)) throw DomainError.invalid(SEARCH_PAGE_MESSAGES.changed);
  const narrowed: Stream = {
    word: query.words[wordIndex],
    ...(query.place ? { place: query.place } : {}),
  };
  const totals = query.words.length > 1 ? "found" : asOf ? "held" : "counted";
  // Items of format v2 are found by tokens: each is checked on its opened words as well.
  const exact = formats.length === 1;
  const inEvery = (streams: Stream[]) =>
    formats.flatMap((sealed) => streams.map((stream) => (sealed ? { ...stream, sealed } : stream)));
  if (!asOf)
    return {
      streams: inEvery([narrowed]),
      formats,
      unfiltered: exact && query.words.length <= 1,
      totals,
      wordIndex,
    };
  if (!factsOfItemKind(kind).datedByContent)
    return { streams: inEvery([narrowed]), formats, unfiltered: false, totals, wordIndex };
  return {
    streams: inEvery([
      { ...narrowed, datedLater: true, dateFrom: asOf },
      { ...narrowed, dateBefore: asOf, firstSeenBefore: asOf },
    ]),
    formats,
    unfiltered: false,
    totals,
    wordIndex,
  };
}

interface Filled {
  items: SearchableItem[];
  next: Position | null;
}

/** Fills a page from `start`, skipping `skip` matching items first. */
async function fill(
  scope: Scope,
  resourceId: string,
  query: ItemsQuery,
  plan: Plan,
  start: { stream: number; after: ItemCursor | undefined },
): Promise<Filled> {
  const keep = (item: SearchableItem) => plan.unfiltered || matches(item, query.words, query.asOf);
  const found: SearchableItem[] = [];
  let skip = query.skip;
  // Several words, from a token or the first page: the page may stop short, its token goes on from there.
  const scanLimit =
    plan.totals === "found" && skip === 0 ? (query.scanLimit ?? SCAN_LIMIT) : Number.POSITIVE_INFINITY;
  let scanned = 0;
  for (let index = start.stream; index < plan.streams.length; index += 1) {
    const stream = plan.streams[index] as Stream;
    let after = index === start.stream ? start.after : undefined;
    let size = query.pageSize - found.length + skip + (plan.unfiltered ? 0 : 2);
    for (;;) {
      const batch = await readStream(scope, resourceId, query.kind, stream, after, Math.min(size, MAX_BATCH));
      for (const [position, { id, item }] of batch.entries()) {
        if (!item || !keep(item)) continue;
        if (skip > 0) {
          skip -= 1;
          continue;
        }
        found.push(item);
        if (found.length === query.pageSize) {
          const streamEnds = position === batch.length - 1 && batch.length < Math.min(size, MAX_BATCH);
          const final = streamEnds && index === plan.streams.length - 1;
          return {
            items: found,
            next: final ? null : { stream: index, after: id, word: plan.wordIndex },
          };
        }
      }
      if (batch.length < Math.min(size, MAX_BATCH)) break;
      const lastRead = batch[batch.length - 1] as (typeof batch)[number];
      scanned += batch.length;
      if (scanned >= scanLimit)
        return { items: found, next: { stream: index, after: lastRead.id, word: plan.wordIndex } };
      after = lastRead.snapshot;
      size = Math.min(MAX_BATCH, size * 2, scanLimit - scanned);
    }
  }
  return { items: found, next: null };
}

async function startOf(
  scope: Scope,
  resourceId: string,
  token: PageToken | undefined,
  streams: number,
): Promise<{ stream: number; after: ItemCursor | undefined }> {
  if (!token) return { stream: 0, after: undefined };
  const { stream, after } = token.position;
  if (stream >= streams) throw DomainError.invalid(SEARCH_PAGE_MESSAGES.changed);
  if (after === null) return { stream, after: undefined };
  const snapshot = await cursorDocument(scope, resourceId, after);
  if (!snapshot) throw DomainError.invalid(SEARCH_PAGE_MESSAGES.changed);
  return { stream, after: snapshot };
}

/** What the catalog held at `asOf` (with the word): first backed up before it, less deleted before it. */
async function heldTotal(
  scope: Scope,
  resourceId: string,
  query: ItemsQuery,
  plan: Plan,
): Promise<{ total: number; atLeast: boolean }> {
  const asOf = query.asOf as string;
  const cap = TOTAL_CAP + query.skip;
  const narrowed = { word: query.words[plan.wordIndex], ...(query.place ? { place: query.place } : {}) };
  const [held, deleted] = await Promise.all([
    countAll(scope, resourceId, query.kind, plan.formats, { ...narrowed, firstSeenBefore: asOf }, cap),
    countAll(scope, resourceId, query.kind, plan.formats, { ...narrowed, deletedBefore: asOf }, cap),
  ]);
  return { total: Math.max(0, held - deleted), atLeast: held >= cap };
}

/** The next page's start, unless the total says this page is the last. */
function nextUnlessLast(before: number, filled: Filled, total: number, atLeast: boolean): Position | null {
  return !atLeast && before + filled.items.length >= total ? null : filled.next;
}

/** One page of the items a search shows, its total, and where the next page starts. */
export async function findItems(scope: Scope, resourceId: string, query: ItemsQuery): Promise<FoundPage> {
  const plan = await planOf(scope, resourceId, query);
  if (!plan) return { items: [], total: 0, totalAtLeast: false, next: null };
  const { token } = query;
  const start = await startOf(scope, resourceId, token, plan.streams.length);
  // Items before this page: those the token's pages showed, or those skipped.
  const before = token ? (token.page - 1) * query.pageSize : query.skip;

  if (plan.totals === "counted") {
    // What follows the page's start, counted alongside the page (from the start when skipping).
    // With several formats, the streams after the page's own are counted whole.
    const cap = TOTAL_CAP + (token ? 0 : query.skip);
    const [filled, ...counts] = await Promise.all([
      fill(scope, resourceId, query, plan, start),
      ...plan.streams
        .slice(start.stream)
        .map((stream, index) =>
          countStream(scope, resourceId, query.kind, stream, index === 0 ? start.after : undefined, cap),
        ),
    ]);
    const following = (counts as number[]).reduce((sum, count) => sum + count, 0);
    const total = (token ? before : 0) + following;
    const atLeast = (counts as number[]).some((count) => count >= cap) || following >= cap;
    return { ...filled, total, totalAtLeast: atLeast, next: nextUnlessLast(before, filled, total, atLeast) };
  }
  if (plan.totals === "held") {
    const held = token
      ? { total: token.total, atLeast: token.totalAtLeast }
      : await heldTotal(scope, resourceId, query, plan);
    if (!token && before >= held.total && !held.atLeast) {
      return { items: [], total: held.total, totalAtLeast: false, next: null };
    }
    const filled = await fill(scope, resourceId, query, plan, start);
    const total = Math.max(held.total, before + filled.items.length);
    const atLeast = held.atLeast && filled.next !== null;
    return { ...filled, total, totalAtLeast: atLeast, next: nextUnlessLast(before, filled, total, atLeast) };
  }
  const filled = await fill(scope, resourceId, query, plan, start);
  // Several words: only what was read is known (pages may stop short: the token carries what they found).
  const seen = (token ? token.total : query.skip) + filled.items.length;
  return { ...filled, total: seen, totalAtLeast: filled.next !== null };
}
