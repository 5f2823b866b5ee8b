/**
 * The catalog as search reads it (docs/backup-format.md §6): `organizations/{id}/resources/{resourceId}/
 * items`, never the objects. Without a date and with at most one keyword word, one indexed query pages the
 * items (newest mail first, Drive files by name), with `search.keywords array-contains` for the word, and a
 * count aggregation gives the total. Several words or a date: the candidates of the longest word (or all)
 * are read in display order, at most `MAX_CANDIDATES`, and the rest is checked on them.
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

/** Candidates a search with several keyword words or a date reads at most (in display order). */
export const MAX_CANDIDATES = 50_000;
/** Candidates read per query. */
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

/**
 * The items of a kind whose keywords contain `word` (or all of the kind), in display order, read in
 * batches; at most `MAX_CANDIDATES` (`truncated` says when there were more).
 */
export async function candidates(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  word: string | undefined,
): Promise<{ items: SearchableItem[]; truncated: boolean }> {
  let query = items(scope, resourceId).where("kind", "==", kind);
  if (word) query = query.where("search.keywords", "array-contains", word);
  const ordered = query.orderBy(orderField(kind), orderDirection(kind)).select(...FIELDS);
  const found: SearchableItem[] = [];
  let last: Awaited<ReturnType<typeof ordered.get>>["docs"][number] | undefined;
  for (;;) {
    const batch = await (last ? ordered.startAfter(last) : ordered).limit(CANDIDATE_BATCH).get();
    found.push(...batch.docs.map((doc) => doc.data() as SearchableItem));
    if (batch.size < CANDIDATE_BATCH) return { items: found, truncated: false };
    if (found.length >= MAX_CANDIDATES) return { items: found.slice(0, MAX_CANDIDATES), truncated: true };
    last = batch.docs[batch.docs.length - 1];
  }
}
