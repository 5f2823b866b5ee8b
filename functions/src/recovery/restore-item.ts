/**
 * One item of a recovery (see worker.ts): held at the recovery's date, put back into the target by its
 * service's item restorer (`restorers.ts`) through the ledger ("importing" before, "done" with the new id
 * after), and counted; an item that cannot be restored is recorded with why.
 */
import { RECOVERY_ITEM_REASONS } from "@alpvault/contracts/recovery";
import { classifyGoogleError, GoogleCallError } from "../engine/google/errors";
import { isIntegrityError } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import { itemTitle } from "../engine/services";
import { googleStatus } from "../engine/sources/google-errors";
import { inParallel } from "../lib/parallel";
import { readLedger } from "./repo";
import {
  contentOf,
  heldAtRecoveryDate,
  record,
  type ItemByItemRestorer,
  type ItemOutcome,
  type RecoveryRestore,
} from "./item-context";

export type { RecoveryRestore } from "./item-context";

/** Items not restored that the recovery itself lists (the report has every one). */
const MAX_LISTED_PROBLEMS = 20;

/**
 * Why one item could not be restored, when the error concerns that item only (the recovery goes on
 * without it): its stored objects are damaged or missing, or Google refused the item. Anything else stops
 * the recovery.
 */
export function itemFailureReason(error: unknown): string | undefined {
  if (isIntegrityError(error)) return RECOVERY_ITEM_REASONS.integrity;
  if (!(error instanceof GoogleCallError) && googleStatus(error) === undefined) return undefined;
  const google = classifyGoogleError(error);
  if (google.kind !== "item") return undefined;
  return RECOVERY_ITEM_REASONS.googleRefused(google.googleReason ?? String(google.status));
}

/** The name a report shows for an item: the message's subject or the file's name. */
function itemName(item: CatalogItem | undefined): string {
  if (!item) return "";
  return itemTitle(item.search) ?? item.current.metadata.name ?? "";
}

/** An item of a page made ready: held at the recovery's date, or settled already (not held, or done). */
type PreparedItem =
  | { itemKey: string; item: CatalogItem | undefined; settled: ItemOutcome }
  | { itemKey: string; item: CatalogItem; settled?: undefined; importing: boolean };

/** The item as held at the recovery's date (`heldAtRecoveryDate`); one the ledger has done is counted as it was. */
async function prepareItem(
  restore: RecoveryRestore,
  itemKey: string,
  catalogItem: CatalogItem | undefined,
): Promise<PreparedItem> {
  const { scope, recovery } = restore;
  const item = await heldAtRecoveryDate(restore, catalogItem);
  restore.names.set(itemKey, itemName(item ?? catalogItem));
  if (!item || item.kind !== restore.kind) {
    return {
      itemKey,
      item: catalogItem,
      settled: { outcome: "skipped", reason: RECOVERY_ITEM_REASONS.notBackedUp },
    };
  }
  const ledger = await readLedger(scope, recovery.recoveryId, itemKey);
  // Done by a delivery that stopped before the page's progress was saved: counted now.
  if (ledger?.state === "done") {
    return {
      itemKey,
      item,
      settled: ledger.reason ? { outcome: "skipped", reason: ledger.reason } : { outcome: "restored" },
    };
  }
  return { itemKey, item, importing: ledger?.state === "importing" };
}

/** An error about one item only, as its outcome; any other is thrown on (it stops the recovery). */
export function itemFailure(error: unknown): ItemOutcome {
  const reason = itemFailureReason(error);
  if (reason === undefined) throw error;
  return { outcome: "failed", reason };
}

/**
 * The items of a page with their content, in order; one whose content cannot be read (damaged or missing
 * objects) is answered in `results` with why, and left out.
 */
export async function withContents<T extends { itemKey: string; item: CatalogItem }>(
  restore: RecoveryRestore,
  items: readonly T[],
  results: Map<string, ItemOutcome>,
): Promise<(T & { content: Buffer })[]> {
  const read: (T & { content: Buffer })[] = [];
  for (const entry of items) {
    try {
      read.push({ ...entry, content: await contentOf(restore, entry.item) });
    } catch (error) {
      results.set(entry.itemKey, itemFailure(error));
    }
  }
  return read;
}

/** Counts an item's outcome; one not restored is listed and recorded with its reason. */
async function countItem(restore: RecoveryRestore, prepared: PreparedItem, result: ItemOutcome) {
  const { recovery, names } = restore;
  const { itemKey, item } = prepared;
  recovery.progress[result.outcome] += 1;
  const size = item?.current.size ?? 0;
  recovery.position.bytes += size;
  if (result.outcome === "restored") {
    recovery.progress.bytes += size;
    return;
  }
  const problem = { itemKey, name: names.get(itemKey) ?? "", outcome: result.outcome, reason: result.reason };
  if (restore.problems.length < MAX_LISTED_PROBLEMS) restore.problems.push(problem);
  await record(restore, itemKey, { state: result.outcome, reason: result.reason, name: problem.name });
}

/** Restores one item and counts it; an item that cannot be restored is recorded with its reason. */
async function settleItem(
  restore: RecoveryRestore,
  items: ItemByItemRestorer,
  itemKey: string,
  catalogItem: CatalogItem | undefined,
): Promise<void> {
  const prepared = await prepareItem(restore, itemKey, catalogItem);
  let result: ItemOutcome;
  try {
    result = prepared.settled ?? (await items.restore(restore, itemKey, prepared.item, prepared.importing));
  } catch (error) {
    result = itemFailure(error);
  }
  await countItem(restore, prepared, result);
}

/** Items restored at once by a service that restores item by item. */
const ITEM_CONCURRENCY = 4;

/**
 * A page of items: item by item, a few at once; or, for a service whose items depend on each other
 * (`PageRestorer`), the items not settled yet together, in one call.
 */
export async function settlePage(
  restore: RecoveryRestore,
  batch: readonly { itemKey: string; item: CatalogItem | undefined }[],
): Promise<void> {
  const { items } = restore;
  if (!("restorePage" in items)) {
    await inParallel(batch, ITEM_CONCURRENCY, ({ itemKey, item }) =>
      settleItem(restore, items, itemKey, item),
    );
    return;
  }
  const prepared: PreparedItem[] = [];
  await inParallel(batch, ITEM_CONCURRENCY, async ({ itemKey, item }) => {
    prepared.push(await prepareItem(restore, itemKey, item));
  });
  const open = prepared.filter(
    (entry): entry is Extract<PreparedItem, { importing: boolean }> => !entry.settled,
  );
  const results = await items.restorePage(restore, open);
  for (const entry of prepared) {
    const result = entry.settled ?? results.get(entry.itemKey);
    if (!result) throw new Error(`The page's restore did not answer for ${entry.itemKey}`);
    await countItem(restore, entry, result);
  }
}
