/**
 * The catalog as search reads it (docs/backup-format.md §6): `organizations/{id}/resources/{resourceId}/
 * items`, never the objects. Without a date and with at most one keyword word, one indexed query pages the
 * items (newest mail first, Drive files by name), with `search.keywords array-contains` for the word, and a
 * count aggregation gives the total. Count aggregations also give a date's total (first seen before it,
 * less deleted before it) and each word's frequency. Items are otherwise scanned in display order in
 * batches (`scanItems`), at most `MAX_CANDIDATES`, and the rest is checked on them.
 */
import { organizationRef, type Scope } from "../lib/tenancy";

export type ItemKind = "gmail-message" | "drive-file";

/** The fields of an item document search reads. */
export interface SearchableItem {
  itemKey: string;
  currentVersionId: string;
  deletedAtSource: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  search: Record<string, unknown>;
  current?: { metadata?: Record<string, unknown> };
}

/** Items a scan reads at most (in display order). */
export const MAX_CANDIDATES = 50_000;
/** Items read per query of a scan. */
const CANDIDATE_BATCH = 2_000;

const FIELDS = [
  "itemKey",
  "currentVersionId",
  "deletedAtSource",
  "firstSeenAt",
  "lastSeenAt",
  "search",
  "current.metadata.version",
];

function items(scope: Scope, resourceId: string) {
  return organizationRef(scope).collection("resources").doc(resourceId).collection("items");
}

const orderField = (kind: ItemKind) => (kind === "gmail-message" ? "search.date" : "search.name");
const orderDirection = (kind: ItemKind) => (kind === "gmail-message" ? "desc" : "asc");

/**
 * One page of a resource's items of a kind in display order, and their total: all of them, or those whose
 * keywords contain `word`. One indexed query and one count aggregation, whatever the resource's size.
 */
export async function itemPage(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  offset: number,
  limit: number,
  word?: string,
): Promise<{ items: SearchableItem[]; total: number }> {
  let base = items(scope, resourceId).where("kind", "==", kind);
  if (word) base = base.where("search.keywords", "array-contains", word);
  const [count, page] = await Promise.all([
    base.count().get(),
    base
      .orderBy(orderField(kind), orderDirection(kind))
      .offset(offset)
      .limit(limit)
      .select(...FIELDS)
      .get(),
  ]);
  return { items: page.docs.map((doc) => doc.data() as SearchableItem), total: count.data().count };
}

/** How many items of a kind there are: all, with `word` in their keywords, and/or first seen or deleted before an instant. */
export async function countItems(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  filter: { word?: string; firstSeenBefore?: string; deletedBefore?: string },
): Promise<number> {
  let query = items(scope, resourceId).where("kind", "==", kind);
  if (filter.word) query = query.where("search.keywords", "array-contains", filter.word);
  if (filter.firstSeenBefore) query = query.where("firstSeenAt", "<", filter.firstSeenBefore);
  if (filter.deletedBefore) query = query.where("deletedAtSource", "<", filter.deletedBefore);
  return (await query.count().get()).data().count;
}

/**
 * The items of a kind whose keywords contain `word` (or all of the kind), within `range` (mail dates, first
 * backup), that `keep` accepts, in display order, read in batches until `wanted` are found or the items
 * end; at most `MAX_CANDIDATES` are read (`truncated` says when there were more).
 */
export async function scanItems(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  word: string | undefined,
  keep: (item: SearchableItem) => boolean,
  wanted = Number.POSITIVE_INFINITY,
  range: { dateFrom?: string; dateBefore?: string; firstSeenBefore?: string } = {},
): Promise<{ items: SearchableItem[]; truncated: boolean }> {
  let query = items(scope, resourceId).where("kind", "==", kind);
  if (word) query = query.where("search.keywords", "array-contains", word);
  if (range.dateFrom) query = query.where("search.date", ">=", range.dateFrom);
  if (range.dateBefore) query = query.where("search.date", "<", range.dateBefore);
  if (range.firstSeenBefore) query = query.where("firstSeenAt", "<", range.firstSeenBefore);
  const ordered = query.orderBy(orderField(kind), orderDirection(kind)).select(...FIELDS);
  const found: SearchableItem[] = [];
  let read = 0;
  // A page's worth first (a page of a recent date is found at once), then larger batches.
  let size = Math.min(CANDIDATE_BATCH, Math.max(100, 2 * wanted));
  let last: Awaited<ReturnType<typeof ordered.get>>["docs"][number] | undefined;
  for (;;) {
    const batch = await (last ? ordered.startAfter(last) : ordered).limit(size).get();
    read += batch.size;
    for (const doc of batch.docs) {
      const item = doc.data() as SearchableItem;
      if (keep(item)) found.push(item);
      if (found.length >= wanted) return { items: found, truncated: false };
    }
    if (batch.size < size) return { items: found, truncated: false };
    if (read >= MAX_CANDIDATES) return { items: found, truncated: true };
    last = batch.docs[batch.docs.length - 1];
    size = Math.min(CANDIDATE_BATCH, size * 2);
  }
}
