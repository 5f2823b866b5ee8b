/**
 * The catalog as search reads it (docs/backup-format.md §6): `organizations/{id}/resources/{resourceId}/
 * items`, never the objects. Without a keyword or a date, one indexed query pages the items (newest mail
 * first, Drive files by name) and a count aggregation gives the total. A keyword narrows the items with
 * `search.keywords array-contains` on its longest word; the other words and the date are checked on
 * the candidates, which are at most `MAX_CANDIDATES`.
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

/** Candidates a keyword or date search reads at most. */
export const MAX_CANDIDATES = 5000;

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

/** One page of a resource's items of a kind, in display order, and their total. */
export async function itemPage(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  offset: number,
  limit: number,
): Promise<{ items: SearchableItem[]; total: number }> {
  const base = items(scope, resourceId).where("kind", "==", kind);
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

/** The items of a kind whose keywords contain `word` (or all of the kind when no word), at most `MAX_CANDIDATES`. */
export async function candidates(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  word: string | undefined,
): Promise<SearchableItem[]> {
  let query = items(scope, resourceId).where("kind", "==", kind);
  if (word) query = query.where("search.keywords", "array-contains", word);
  const snapshot = await query
    .limit(MAX_CANDIDATES)
    .select(...FIELDS)
    .get();
  return snapshot.docs.map((doc) => doc.data() as SearchableItem);
}
