/**
 * One item of a recovery (see worker.ts): held at the recovery's date, put back into the target by its
 * service's item restorer (`restorers.ts`) through the ledger ("importing" before, "done" with the new id
 * after), and counted; an item that cannot be restored is recorded with why.
 */
import { RECOVERY_ITEM_REASONS } from "@alpvault/contracts/recovery";
import { heldItem } from "../backups/service";
import { classifyGoogleError, GoogleCallError } from "../engine/google/errors";
import { isIntegrityError } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import { itemTitle } from "../engine/services";
import { googleStatus } from "../engine/sources/google-errors";
import { readLedger } from "./repo";
import { record, type ItemOutcome, type RecoveryRestore } from "./item-context";

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

/**
 * One item: one the ledger has done is counted as it was; any other goes to the service's item restorer,
 * told whether a delivery that stopped left it "importing".
 */
async function restoreOne(
  restore: RecoveryRestore,
  item: CatalogItem | undefined,
  itemKey: string,
): Promise<ItemOutcome> {
  const { scope, recovery } = restore;
  if (!item || item.kind !== restore.kind) {
    return { outcome: "skipped", reason: RECOVERY_ITEM_REASONS.notBackedUp };
  }
  const ledger = await readLedger(scope, recovery.recoveryId, itemKey);
  // Done by a delivery that stopped before the page's progress was saved: counted now.
  if (ledger?.state === "done") {
    return ledger.reason ? { outcome: "skipped", reason: ledger.reason } : { outcome: "restored" };
  }
  return restore.items.restore(restore, itemKey, item, ledger?.state === "importing");
}

/** Restores one item and counts it; an item that cannot be restored is recorded with its reason. */
export async function settleItem(
  restore: RecoveryRestore,
  itemKey: string,
  catalogItem: CatalogItem | undefined,
): Promise<void> {
  const { scope, recovery } = restore;
  // The item as the backups held it at the recovery's date, if it has one, and of the kind restored (the
  // choice the recovery's totals and its estimate make too).
  const item = await heldItem(
    scope,
    { resourceId: recovery.resourceId, kind: restore.kind, asOf: recovery.asOf ?? null },
    catalogItem,
  );
  restore.names.set(itemKey, itemName(item ?? catalogItem));
  let result: ItemOutcome;
  try {
    result = await restoreOne(restore, item, itemKey);
  } catch (error) {
    const reason = itemFailureReason(error);
    if (reason === undefined) throw error;
    result = { outcome: "failed", reason };
  }
  recovery.progress[result.outcome] += 1;
  const size = item?.current.size ?? 0;
  recovery.position.bytes += size;
  if (result.outcome === "restored") {
    recovery.progress.bytes += size;
    return;
  }
  const problem = {
    itemKey,
    name: itemName(item ?? catalogItem),
    outcome: result.outcome,
    reason: result.reason,
  };
  if (restore.problems.length < MAX_LISTED_PROBLEMS) restore.problems.push(problem);
  await record(restore, itemKey, {
    state: result.outcome,
    reason: result.reason,
    name: problem.name,
  });
}
