/**
 * Reading the catalog for recovery and export (docs/backup-format.md §5, §6): pages of a resource's items,
 * items by key, a version and an item at a date, and a whole resource's totals by aggregation
 * (`heldTotals`). Items and versions of either catalog format, through the scope's catalog keys.
 */
import { factsOfItemKind } from "@alpvault/contracts/services";
import { AggregateField, type Query } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { currentOf } from "../../engine/runner/catalog-items";
import type { CatalogItem, CatalogVersion, ItemKind } from "../../engine/runner/catalog";
import { catalogDocId } from "../../engine/runner/catalog-ids";
import { decodeDocuments, readableDocument } from "../../lib/stored";
import { catalogItemKind, catalogVersionKind, type CatalogScope } from "./sealed-documents";

function itemsCollection(scope: Scope, resourceId: string) {
  return organizationRef(scope).collection("resources").doc(resourceId).collection("items");
}

/** A page of a resource's items of a kind in key order, after `after` (recovery and export walk them all). */
export async function itemsAfter(
  scope: CatalogScope,
  resourceId: string,
  kind: ItemKind,
  after: string | null,
  limit: number,
): Promise<CatalogItem[]> {
  let query = itemsCollection(scope, resourceId).where("kind", "==", kind).orderBy("itemKey").limit(limit);
  if (after) query = query.startAfter(after);
  return decodeDocuments(catalogItemKind(scope), (await query.get()).docs);
}

/**
 * The items of these keys, in their order (undefined where the catalog holds none of it). A document that
 * does not decode as an item (one without a current version) holds none of it: it is left out, logged.
 */
export async function itemsByKey(
  scope: CatalogScope,
  resourceId: string,
  itemKeys: string[],
): Promise<(CatalogItem | undefined)[]> {
  if (itemKeys.length === 0) return [];
  const items = itemsCollection(scope, resourceId);
  const snapshots = await items.firestore.getAll(...itemKeys.map((key) => items.doc(catalogDocId(key))));
  return snapshots.map((snapshot) => readableDocument(catalogItemKind(scope), snapshot));
}

/**
 * The version of an item the backups held at `asOf` (ISO 8601, exclusive): the last one captured before it.
 * Undefined when none is kept (the item was first backed up later, or retention pruned that version, and
 * then every older one too).
 */
export async function versionAt(
  scope: CatalogScope,
  resourceId: string,
  itemKey: string,
  asOf: string,
): Promise<CatalogVersion | undefined> {
  const snapshot = await itemsCollection(scope, resourceId)
    .doc(catalogDocId(itemKey))
    .collection("versions")
    .where("capturedAt", "<", asOf)
    .orderBy("capturedAt", "desc")
    .limit(1)
    .get();
  return decodeDocuments(catalogVersionKind(scope), snapshot.docs)[0];
}

/**
 * An item as the backups held it at `asOf`: at its version of then, or undefined when it was first backed up
 * later, was already deleted at the source by then, or that version is no longer kept.
 */
export async function itemAsOf(
  scope: CatalogScope,
  resourceId: string,
  item: CatalogItem,
  asOf: string,
): Promise<CatalogItem | undefined> {
  if (!(item.firstSeenAt < asOf) || (item.deletedAtSource !== null && item.deletedAtSource < asOf)) {
    return undefined;
  }
  const version = await versionAt(scope, resourceId, item.itemKey, asOf);
  return version ? { ...item, current: currentOf(version) } : undefined;
}

/** What a whole resource's recovery or export takes (`heldTotals`); `contentless`: kept without content. */
export interface HeldTotals {
  items: number;
  bytes: number;
  contentless: number;
}

async function totalsOf(query: Query, contentless: Query | undefined): Promise<HeldTotals> {
  const [sums, without] = await Promise.all([
    query.aggregate({ items: AggregateField.count(), bytes: AggregateField.sum("current.size") }).get(),
    contentless?.count().get(),
  ]);
  const finite = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
  const data = sums.data();
  return { items: finite(data.items), bytes: finite(data.bytes), contentless: finite(without?.data().count) };
}

/**
 * By aggregation (`count()`, `sum()` over index entries, no item read): a resource's items of a kind, or
 * those held at `asOf` (first backed up before it, less those deleted at the source before it), their
 * current sizes, and how many were kept without content (Google offered no export of them).
 */
export async function heldTotals(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  asOf: string | null,
): Promise<HeldTotals> {
  const all = itemsCollection(scope, resourceId).where("kind", "==", kind);
  const skipped = (query: Query) =>
    factsOfItemKind(kind).itemsMayLackContent
      ? query.where("current.metadata.contentSkipped", "==", "not-exportable")
      : undefined;
  if (!asOf) return totalsOf(all, skipped(all));
  const seen = all.where("firstSeenAt", "<", asOf);
  const gone = all.where("deletedAtSource", "<", asOf);
  const [before, deleted] = await Promise.all([totalsOf(seen, skipped(seen)), totalsOf(gone, skipped(gone))]);
  const less = (field: keyof HeldTotals) => Math.max(0, before[field] - deleted[field]);
  return { items: less("items"), bytes: less("bytes"), contentless: less("contentless") };
}
