/**
 * What restoring one item of a recovery works with, whatever its service: the recovery, where the item's
 * stored objects are and the keys that open them, the ledger, and the service's `ItemRestorer`, built for
 * the recovery's target by the service's entry in `restorers.ts`. The generic walk (`restore-item.ts`)
 * holds each item at the recovery's date, counts what was done, and asks the item restorer for the rest.
 */
import type { RecoveryProblem } from "@alpvault/contracts/recovery";
import type { ServiceItemKind } from "@alpvault/contracts/services";
import { heldItem } from "../backups/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import type { DerivedKeys } from "../engine/format/keys";
import { versionContent } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import type { CatalogScope } from "../backups/catalog/sealed-documents";
import { writeLedger, type LedgerEntry, type StoredRecovery } from "./repo";

/** What became of one item. */
export type ItemOutcome = { outcome: "restored" } | { outcome: "skipped" | "failed"; reason: string };

/** What every service's part of a recovery may offer. */
interface ItemRestorerBase {
  /** After a failed recovery: what it created and left empty is removed (best effort). */
  tidyAfterFailure?(): Promise<void>;
}

/** A service whose items are put back one by one, a few at once (Gmail, Drive). */
export interface ItemByItemRestorer extends ItemRestorerBase {
  /**
   * Restores one item held at the recovery's date (`importing`: a delivery that stopped left it
   * "importing" in the ledger, so it may be in the target already). Writes the ledger's "importing"
   * before it writes to Google and "done" with the new id after; a refusal of Google's about this item
   * only is thrown (the walk records it as the item's failure).
   */
  restore(
    restore: RecoveryRestore,
    itemKey: string,
    item: CatalogItem,
    importing: boolean,
  ): Promise<ItemOutcome>;
}

/**
 * A service whose items depend on each other (a series and its changed instances, a calendar and its
 * events; contacts created 200 a call): a page's items not settled yet are restored together, and each is
 * answered by its key. Pages come in item-key order, which puts what others depend on first. The ledger
 * is written as for one item.
 */
export interface PageRestorer extends ItemRestorerBase {
  restorePage(
    restore: RecoveryRestore,
    items: readonly { itemKey: string; item: CatalogItem; importing: boolean }[],
  ): Promise<Map<string, ItemOutcome>>;
}

/** A service's part of a recovery: how its items are put back into the target. */
export type ItemRestorer = ItemByItemRestorer | PageRestorer;

/** What one delivery of a recovery restores with. */
export interface RecoveryRestore {
  /** With the catalog's keys once the walk begins. */
  scope: CatalogScope;
  recovery: StoredRecovery;
  kind: ServiceItemKind;
  items: ItemRestorer;
  keys: (dataKeyId: string) => Promise<DerivedKeys>;
  blobStore: BlobStore;
  /** The first items not restored, with why (the progress card names them; the report lists all). */
  problems: RecoveryProblem[];
  /** Each settled item's name (subject or file name), kept in its ledger entry for the report. */
  names: Map<string, string>;
}

/** Writes an item's ledger entry, with the name the report shows for it. */
export function record(restore: RecoveryRestore, itemKey: string, entry: LedgerEntry): Promise<void> {
  return writeLedger(restore.scope, restore.recovery.recoveryId, itemKey, {
    ...entry,
    name: restore.names.get(itemKey) ?? "",
  });
}

/** Where an item's current version's objects are, and the keys that open them. */
export async function objectsOf(
  restore: RecoveryRestore,
  item: CatalogItem,
): Promise<{ organizationId: string; keys: DerivedKeys }> {
  return { organizationId: restore.scope.organizationId, keys: await restore.keys(item.current.dataKeyId) };
}

/** An item's current version's content, read and decrypted. */
export async function contentOf(restore: RecoveryRestore, item: CatalogItem): Promise<Buffer> {
  return versionContent(restore.blobStore, await objectsOf(restore, item), item.current);
}

/**
 * The item as the backups held it at the recovery's date, if it has one, and of the kind restored (the
 * choice the recovery's totals and its estimate make too).
 */
export function heldAtRecoveryDate(
  restore: RecoveryRestore,
  found: CatalogItem | undefined,
): Promise<CatalogItem | undefined> {
  const { scope, recovery, kind } = restore;
  return heldItem(scope, { resourceId: recovery.resourceId, kind, asOf: recovery.asOf ?? null }, found);
}
