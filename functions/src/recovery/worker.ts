/**
 * The recovery worker: one `runRecovery` task delivery restores (a stretch of) one recovery. It takes the
 * recovery's lease, walks the items to recover in pages from the position reached, and restores each
 * item's current version (or, for a recovery with a date, its version at the end of that day) into the
 * target mailbox or drive. Each item goes through the ledger first: "importing" before
 * the import, "done" with the new message's id after it. A retried or resumed recovery skips items that are
 * done, and for an item left "importing" (the worker died between the import and the ledger) it looks the
 * message up by its Message-ID before importing, so nothing is restored twice. Near its deadline the worker
 * saves the position and re-enqueues itself; at the end it records the outcome, audited, and frees the target.
 */
import { itemKindOf, SERVICES } from "@alpvault/contracts/services";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { appendAudit } from "../audit/service";
import { catalogKeyring, dataKeyResolver } from "../backups/data-keys";
import type { RecoveryTask } from "./queue";
import { itemsAfter, itemsByKey, readBackupResource } from "../backups/service";
import type { CatalogItem } from "../engine/runner/catalog";
import { openStretch, type Stretch } from "../lib/stretch";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn } from "../organizations/service";
import { recoveryFailureText } from "./failure-text";
import { finishRecovery, releaseRecoveryLease, saveRecoveryProgress, takeRecoveryLease } from "./repo";
import { settlePage, type RecoveryRestore } from "./restore-item";
import { ITEM_RESTORERS, type RecoveryDeps } from "./restorers";

export type { RecoveryDeps };

const PAGE = 50;

type Ending = { state: "succeeded" } | { state: "failed"; failureReason: string };

export async function executeRecovery(
  task: RecoveryTask,
  deps: RecoveryDeps,
): Promise<"dropped" | "continued" | "succeeded" | "failed"> {
  const stretch = await openStretch(task, deps, {
    organization: organizationServedIn,
    lease: (scope, holder, until, now) => takeRecoveryLease(scope, task.recoveryId, holder, until, now),
  });
  if (!stretch) return "dropped";
  const { organization, scope, run: recovery, now } = stretch;
  const [source, target] = await Promise.all([
    readBackupResource(scope, recovery.resourceId),
    readBackupResource(scope, recovery.targetResourceId),
  ]);
  const audit = (operation: "recovery.started" | "recovery.finished" | "recovery.failed", reason?: string) =>
    appendAudit(scope, {
      operation,
      actor: recovery.requestedBy || SYSTEM_ACTOR,
      object: `${source?.email ?? source?.name ?? recovery.resourceId} → ${target?.email ?? target?.name ?? recovery.targetResourceId}`,
      failureReason: reason ?? null,
      date: new Date(now()),
      key: `${operation}-${recovery.recoveryId}`,
    });
  await audit("recovery.started");

  const end = async (outcome: Ending) => {
    // The counts add up at the end: chosen items a failed recovery never reached count as failed.
    const settled = recovery.progress.restored + recovery.progress.skipped + recovery.progress.failed;
    if (recovery.itemIds) recovery.progress.failed += Math.max(0, recovery.progress.total - settled);
    else recovery.progress.total = settled;
    await finishRecovery(scope, recovery, outcome, new Date(now()));
    await audit(
      outcome.state === "succeeded" ? "recovery.finished" : "recovery.failed",
      outcome.state === "failed" ? outcome.failureReason : undefined,
    );
    logs.recoveryEnded({
      organizationId: scope.organizationId,
      recoveryId: recovery.recoveryId,
      ...recovery.progress,
      state: outcome.state,
    });
    return outcome.state;
  };
  if (!source || !target || (SERVICES[recovery.service].needsMailbox && !target.email)) {
    return end({ state: "failed", failureReason: "The recovery's resources cannot receive this data" });
  }
  // Only the recovery's own service: its item restorer for the target, or why the target cannot take it.
  const items = await ITEM_RESTORERS[recovery.service]({ deps, organization, recovery, target });
  if ("failed" in items) return end({ state: "failed", failureReason: items.failed });
  const restore: RecoveryRestore = {
    scope,
    recovery,
    kind: itemKindOf(recovery.service),
    items,
    keys: dataKeyResolver(scope, deps.wrappers),
    blobStore: deps.blobStore(scope.regionId),
    problems: (recovery.problems ??= []),
    names: new Map(),
  };
  let walked: "done" | "continued" | "dropped";
  try {
    restore.scope = { ...scope, keyring: await catalogKeyring(scope, deps.wrappers) };
    walked = await restorePages(restore, stretch);
  } catch (error) {
    logs.recoveryFailed({ organizationId: scope.organizationId, recoveryId: recovery.recoveryId, error });
    await removeEmptyLabels(restore);
    return end({ state: "failed", failureReason: recoveryFailureText(error, recovery.recoveryId) });
  }
  if (walked !== "done") return walked;
  const progress = recovery.progress;
  if (progress.failed > 0) {
    await removeEmptyLabels(restore);
    return end({
      state: "failed",
      failureReason: `${progress.failed} of ${progress.total} items could not be recovered`,
    });
  }
  return end({ state: "succeeded" });
}

/**
 * A failed recovery leaves nothing it created empty behind (Gmail's labels; best effort: a failure to tidy
 * up is only logged).
 */
async function removeEmptyLabels(restore: RecoveryRestore): Promise<void> {
  await restore.items.tidyAfterFailure?.().catch((error: unknown) =>
    logs.recoveryFailed({
      organizationId: restore.scope.organizationId,
      recoveryId: restore.recovery.recoveryId,
      error,
    }),
  );
}

/**
 * Restores the items page by page from the position reached: "done" at the end, "continued" when the
 * deadline handed the rest over, "dropped" when the lease was lost.
 */
async function restorePages(
  restore: RecoveryRestore,
  stretch: Pick<Stretch<Scope, unknown>, "holder" | "late" | "handOver">,
): Promise<"done" | "continued" | "dropped"> {
  const { scope, recovery, problems } = restore;
  const { progress, position } = recovery;
  const save = () =>
    saveRecoveryProgress(
      scope,
      { recoveryId: recovery.recoveryId, progress, position, problems },
      stretch.holder,
    );
  for (;;) {
    let batch: { itemKey: string; item: CatalogItem | undefined }[];
    if (recovery.itemIds) {
      const keysOfPage = recovery.itemIds.slice(position.index, position.index + PAGE);
      const items = await itemsByKey(scope, recovery.resourceId, keysOfPage);
      batch = keysOfPage.map((itemKey, index) => ({ itemKey, item: items[index] }));
    } else {
      const items = await itemsAfter(scope, recovery.resourceId, restore.kind, position.lastItemKey, PAGE);
      batch = items.map((item) => ({ itemKey: item.itemKey, item }));
    }
    if (batch.length === 0) return "done";
    if (stretch.late()) {
      return stretch.handOver(async () => {
        await save();
        await releaseRecoveryLease(scope, recovery.recoveryId, stretch.holder);
      });
    }
    // The position moves past the page only once all of its items are done, so a stop repeats the page
    // and the ledger skips what is done.
    await settlePage(restore, batch);
    position.index += batch.length;
    position.lastItemKey = batch[batch.length - 1]!.itemKey;
    // A whole resource's total was counted at the start; items backed up since can add to it.
    if (!recovery.itemIds)
      progress.total = Math.max(progress.total, progress.restored + progress.skipped + progress.failed);
    if (!(await save())) return "dropped";
    if (recovery.itemIds && position.index >= recovery.itemIds.length) return "done";
  }
}
