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
import { randomUUID } from "node:crypto";
import type { drive_v3 } from "@googleapis/drive";
import type { gmail_v1 } from "@googleapis/gmail";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { appendAudit } from "../audit/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { dataKeyResolver, type KeyWrappers } from "../backups/data-keys";
import type { GoogleCaller } from "../engine/google/caller";
import { classifyGoogleError, GoogleCallError } from "../engine/google/errors";
import type { EnqueueRecovery, RecoveryTask } from "../backups/queue";
import { isIntegrityError, versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import { itemAsOf, itemsAfter, itemsByKey, mailLabelNames, readBackupResource } from "../backups/service";
import { googleStatus } from "../engine/sources/google-errors";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn } from "../organizations/service";
import type { RegionId } from "@alpvault/contracts/regions";
import { RECOVERY_ITEM_REASONS, RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { findDriveMember } from "../engine/drive/source";
import {
  DriveRestorer,
  RESUMABLE_UPLOAD_BYTES,
  restoredName,
  type DriveTarget,
  type UploadAccess,
} from "../engine/drive/restorer";
import { GmailRestorer, messageIdOf } from "../engine/gmail/restorer";
import { inParallel } from "../lib/parallel";
import {
  finishRecovery,
  readLedger,
  releaseRecoveryLease,
  saveRecoveryProgress,
  takeRecoveryLease,
  writeLedger,
  type LedgerEntry,
} from "./repo";

export interface RecoveryDeps {
  caller: GoogleCaller;
  gmail(user: string): gmail_v1.Gmail;
  drive(user: string): drive_v3.Drive;
  /** Drive's upload endpoint as `user` (resumable uploads of large files). */
  upload(user: string): UploadAccess;
  blobStore(regionId: Scope["regionId"]): BlobStore;
  wrappers: KeyWrappers;
  enqueue: EnqueueRecovery;
  budgetMs: number;
  /** The region this worker runs in: tasks of another region's organisations are dropped. */
  servingRegion?: RegionId;
  now?: () => number;
}

const PAGE = 50;
/** Items not restored that the recovery itself lists (the report has every one). */
const MAX_LISTED_PROBLEMS = 20;
/** Items restored at once. */
const ITEM_CONCURRENCY = 4;

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

/** What became of one item. */
type ItemOutcome = { outcome: "restored" } | { outcome: "skipped" | "failed"; reason: string };

/** The name a report shows for an item: the message's subject or the file's name. */
function itemName(item: CatalogItem | undefined): string {
  if (!item) return "";
  const display = item.search.display as { subject?: string; name?: string } | undefined;
  return display?.subject ?? display?.name ?? item.current.metadata.name ?? "";
}

export async function executeRecovery(
  task: RecoveryTask,
  deps: RecoveryDeps,
): Promise<"dropped" | "continued" | "succeeded" | "failed"> {
  const now = deps.now ?? Date.now;
  const organization = await organizationServedIn(task.organizationId, deps.servingRegion);
  if (!organization) return "dropped";
  const scope: Scope = { organizationId: organization.organizationId, regionId: organization.regionId };
  const holder = randomUUID();
  const deadline = now() + deps.budgetMs;
  const recovery = await takeRecoveryLease(
    scope,
    task.recoveryId,
    holder,
    new Date(deadline + 120_000).toISOString(),
    new Date(now()).toISOString(),
  );
  if (!recovery) return "dropped";
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

  const end = async (outcome: { state: "succeeded" } | { state: "failed"; failureReason: string }) => {
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
  if (!source || !target || (recovery.service === "gmail" && !target.email)) {
    return end({ state: "failed", failureReason: "The recovery's resources cannot receive this data" });
  }
  const kind = recovery.service === "gmail" ? "gmail-message" : "drive-file";
  let driveTarget: DriveTarget;
  if (target.type === "email") {
    driveTarget = { kind: "user", email: target.email ?? "" };
  } else {
    // Files go into a shared drive as one of its members who may add files: the admin may not be one.
    const driveId = target.resourceId.replace(/^drive-/, "");
    const actAs = await findDriveMember({
      drive: deps.drive(organization.adminEmail),
      caller: deps.caller,
      admin: organization.adminEmail,
      driveId,
      domain: organization.domain,
      minimum: "writer",
    });
    if (!actAs) return end({ state: "failed", failureReason: RECOVERY_MESSAGES.noDriveWriter });
    driveTarget = { kind: "shared-drive", driveId, actAs };
  }
  const driveUser = driveTarget.kind === "user" ? driveTarget.email : driveTarget.actAs;
  const restorer = new GmailRestorer(deps.gmail(target.email ?? ""), target.email ?? "", deps.caller);
  const driveRestorer = new DriveRestorer(
    deps.drive(driveUser),
    driveTarget,
    deps.caller,
    deps.upload(driveUser),
  );
  const keys = dataKeyResolver(scope, deps.wrappers);
  const blobStore = deps.blobStore(scope.regionId);
  const progress = recovery.progress;
  const position = recovery.position;
  /** Each settled item's name (subject or file name), kept in its ledger entry for the report. */
  const names = new Map<string, string>();
  const record = (itemKey: string, entry: LedgerEntry) =>
    writeLedger(scope, recovery.recoveryId, itemKey, { ...entry, name: names.get(itemKey) ?? "" });
  /** The first items not restored, with why (the progress card names them; the report lists all). */
  const problems = (recovery.problems ??= []);

  /** The backed-up mailbox's label names now (by id), read once: restored labels take their current name. */
  let labelNames: Promise<Record<string, string>> | undefined;

  /** A Drive file: into the recovery's folder, or over itself (see engine/drive/restorer.ts). */
  const restoreFile = async (
    itemKey: string,
    item: CatalogItem,
    importing: boolean,
  ): Promise<ItemOutcome> => {
    const objects = { organizationId: scope.organizationId, keys: await keys(item.current.dataKeyId) };
    const large = item.current.size > RESUMABLE_UPLOAD_BYTES;
    const content = () => versionContent(blobStore, objects, item.current);
    const chunks = () => versionChunks(blobStore, objects, item.current);
    const metadata = item.current.metadata;
    const name = restoredName(metadata);
    const sameResource = recovery.targetResourceId === recovery.resourceId;
    // Kept without content (Google offers no export of it): nothing to put back.
    if (metadata.contentSkipped) return { outcome: "skipped", reason: RECOVERY_ITEM_REASONS.notExportable };
    // A file owned outside the organisation is restored as the user's own copy: never over the owner's
    // file, never into the owner's folders (see engine/drive/restorer.ts).
    const ownCopy = metadata.externalOwner !== undefined;
    if (
      recovery.method === "overwrite" &&
      sameResource &&
      !ownCopy &&
      (await driveRestorer.exists(item.sourceId))
    ) {
      await record(itemKey, { state: "importing" });
      if (metadata.shortcut) {
        // The shortcut is still there: it has nothing to overwrite.
      } else if (large) {
        await driveRestorer.uploadResumable(metadata, chunks(), item.current.size, { fileId: item.sourceId });
      } else {
        await driveRestorer.overwrite(item.sourceId, metadata, await content());
      }
      if (recovery.permissions) await driveRestorer.share(item.sourceId, metadata.permissions);
      await record(itemKey, { state: "done", targetId: item.sourceId });
      return { outcome: "restored" };
    }
    const parent =
      recovery.method === "folder"
        ? await driveRestorer.folderFor(recovery.folderName ?? "Recovered", metadata.path)
        : await driveRestorer.parentFor(sameResource && !ownCopy ? metadata.parents : []);
    const existing = importing ? await driveRestorer.find(name, parent) : undefined;
    const targetId =
      existing ??
      (await (async () => {
        await record(itemKey, { state: "importing" });
        if (metadata.shortcut) return driveRestorer.createShortcut(metadata, parent);
        return large
          ? driveRestorer.uploadResumable(metadata, chunks(), item.current.size, { parent })
          : driveRestorer.create(metadata, await content(), parent);
      })());
    if (recovery.permissions && !existing) await driveRestorer.share(targetId, metadata.permissions);
    await record(itemKey, { state: "done", targetId });
    return { outcome: "restored" };
  };

  /** The item as the backups held it at the recovery's date, if it has one (see `itemAsOf`). */
  const heldAt = async (item: CatalogItem | undefined): Promise<CatalogItem | undefined> =>
    item && recovery.asOf ? itemAsOf(scope, recovery.resourceId, item, recovery.asOf) : item;

  const restoreOne = async (item: CatalogItem | undefined, itemKey: string): Promise<ItemOutcome> => {
    if (!item || item.kind !== kind) return { outcome: "skipped", reason: RECOVERY_ITEM_REASONS.notBackedUp };
    const ledger = await readLedger(scope, recovery.recoveryId, itemKey);
    // Done by a delivery that stopped before the page's progress was saved: counted now.
    if (ledger?.state === "done") {
      return ledger.reason ? { outcome: "skipped", reason: ledger.reason } : { outcome: "restored" };
    }
    if (kind === "drive-file") return restoreFile(itemKey, item, ledger?.state === "importing");
    const current = item.current;
    const raw = await versionContent(
      blobStore,
      { organizationId: scope.organizationId, keys: await keys(current.dataKeyId) },
      current,
    );
    const messageId = messageIdOf(raw);
    if (messageId && (ledger?.state === "importing" || recovery.method === "overwrite")) {
      const existing = await restorer.find(messageId);
      if (existing) {
        if (ledger?.state === "importing") {
          await record(itemKey, { state: "done", targetId: existing });
          return { outcome: "restored" };
        }
        const reason = RECOVERY_ITEM_REASONS.alreadyThere;
        await record(itemKey, { state: "done", targetId: existing, reason });
        return { outcome: "skipped", reason };
      }
    }
    labelNames ??= mailLabelNames(scope, recovery.resourceId).then((names) => names ?? {});
    const labelIds = await restorer.labelIds(
      current.metadata.labels ?? [],
      recovery.folderName,
      await labelNames,
    );
    await record(itemKey, { state: "importing" });
    const targetId = await restorer.import(raw, labelIds);
    await record(itemKey, { state: "done", targetId });
    return { outcome: "restored" };
  };

  /** Restores one item and counts it; an item that cannot be restored is recorded with its reason. */
  const settle = async (itemKey: string, catalogItem: CatalogItem | undefined): Promise<void> => {
    const item = await heldAt(catalogItem);
    names.set(itemKey, itemName(item ?? catalogItem));
    let result: ItemOutcome;
    try {
      result = await restoreOne(item, itemKey);
    } catch (error) {
      const reason = itemFailureReason(error);
      if (reason === undefined) throw error;
      result = { outcome: "failed", reason };
    }
    progress[result.outcome] += 1;
    if (result.outcome === "restored") return;
    const problem = {
      itemKey,
      name: itemName(item ?? catalogItem),
      outcome: result.outcome,
      reason: result.reason,
    };
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push(problem);
    await record(itemKey, {
      state: result.outcome,
      reason: result.reason,
      name: problem.name,
    });
  };

  try {
    for (;;) {
      let batch: { itemKey: string; item: CatalogItem | undefined }[];
      if (recovery.itemIds) {
        const keysOfPage = recovery.itemIds.slice(position.index, position.index + PAGE);
        const items = await itemsByKey(scope, recovery.resourceId, keysOfPage);
        batch = keysOfPage.map((itemKey, index) => ({ itemKey, item: items[index] }));
      } else {
        const items = await itemsAfter(scope, recovery.resourceId, kind, position.lastItemKey, PAGE);
        batch = items.map((item) => ({ itemKey: item.itemKey, item }));
      }
      if (batch.length === 0) break;
      if (now() >= deadline) {
        await saveRecoveryProgress(
          scope,
          { recoveryId: recovery.recoveryId, progress, position, problems },
          holder,
        );
        await releaseRecoveryLease(scope, recovery.recoveryId, holder);
        await deps.enqueue(scope.regionId, {
          organizationId: scope.organizationId,
          recoveryId: recovery.recoveryId,
        });
        return "continued";
      }
      // A page's items are restored a few at once (each waits on Google); the position moves past the
      // page only once all of them are done, so a stop repeats the page and the ledger skips what is done.
      await inParallel(batch, ITEM_CONCURRENCY, ({ itemKey, item }) => settle(itemKey, item));
      position.index += batch.length;
      position.lastItemKey = batch[batch.length - 1]!.itemKey;
      if (!recovery.itemIds) progress.total = progress.restored + progress.skipped + progress.failed;
      if (
        !(await saveRecoveryProgress(
          scope,
          { recoveryId: recovery.recoveryId, progress, position, problems },
          holder,
        ))
      ) {
        return "dropped";
      }
      if (recovery.itemIds && position.index >= recovery.itemIds.length) break;
    }
  } catch (error) {
    logs.recoveryFailed({ organizationId: scope.organizationId, recoveryId: recovery.recoveryId, error });
    return end({ state: "failed", failureReason: "Recovery failed" });
  }
  if (progress.failed > 0) {
    return end({
      state: "failed",
      failureReason: `${progress.failed} of ${progress.total} items could not be recovered`,
    });
  }
  return end({ state: "succeeded" });
}
