/**
 * One item of a recovery (see worker.ts): held at the recovery's date, put back into the target mailbox or
 * drive through the ledger ("importing" before, "done" with the new id after), and counted; an item that
 * cannot be restored is recorded with why.
 */
import { RECOVERY_ITEM_REASONS, type RecoveryProblem } from "@alpvault/contracts/recovery";
import type { ServiceItemKind } from "@alpvault/contracts/services";
import { heldItem, mailLabelNames } from "../backups/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import {
  restoredName,
  RESUMABLE_UPLOAD_BYTES,
  type DriveRestorer,
  type SharingOutcome,
} from "../engine/drive/restorer";
import type { DerivedKeys } from "../engine/format/keys";
import { classifyGoogleError, GoogleCallError } from "../engine/google/errors";
import { messageIdOf, type GmailRestorer } from "../engine/gmail/restorer";
import { isIntegrityError, versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import { googleStatus } from "../engine/sources/google-errors";
import type { Scope } from "../lib/tenancy";
import { readLedger, writeLedger, type LedgerEntry, type StoredRecovery } from "./repo";

/** Items not restored that the recovery itself lists (the report has every one). */
const MAX_LISTED_PROBLEMS = 20;

/** What one delivery of a recovery restores with. */
export interface RecoveryRestore {
  scope: Scope;
  recovery: StoredRecovery;
  kind: ServiceItemKind;
  restorer: GmailRestorer;
  driveRestorer: DriveRestorer;
  keys: (dataKeyId: string) => Promise<DerivedKeys>;
  blobStore: BlobStore;
  /** The first items not restored, with why (the progress card names them; the report lists all). */
  problems: RecoveryProblem[];
  /** Each settled item's name (subject or file name), kept in its ledger entry for the report. */
  names: Map<string, string>;
  /** The backed-up mailbox's label names now (by id), read once: restored labels take their current name. */
  labelNames?: Promise<Record<string, string>>;
}

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

/** The ledger's "done" of a restored file, with the sharing Google refused to re-apply, if any. */
function doneSharing(targetId: string, sharing: SharingOutcome | undefined): LedgerEntry {
  const refused = sharing?.refused ?? [];
  return { state: "done", targetId, ...(refused.length > 0 ? { unshared: refused } : {}) };
}

/** The name a report shows for an item: the message's subject or the file's name. */
function itemName(item: CatalogItem | undefined): string {
  if (!item) return "";
  const display = item.search.display as { subject?: string; name?: string } | undefined;
  return display?.subject ?? display?.name ?? item.current.metadata.name ?? "";
}

function record(restore: RecoveryRestore, itemKey: string, entry: LedgerEntry): Promise<void> {
  return writeLedger(restore.scope, restore.recovery.recoveryId, itemKey, {
    ...entry,
    name: restore.names.get(itemKey) ?? "",
  });
}

/** A Drive file: into the recovery's folder, or over itself (see engine/drive/restorer.ts). */
async function restoreFile(
  restore: RecoveryRestore,
  itemKey: string,
  item: CatalogItem,
  importing: boolean,
): Promise<ItemOutcome> {
  const { recovery, driveRestorer } = restore;
  const objects = {
    organizationId: restore.scope.organizationId,
    keys: await restore.keys(item.current.dataKeyId),
  };
  const large = item.current.size > RESUMABLE_UPLOAD_BYTES;
  const content = () => versionContent(restore.blobStore, objects, item.current);
  const chunks = () => versionChunks(restore.blobStore, objects, item.current);
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
    await record(restore, itemKey, { state: "importing" });
    if (metadata.shortcut) {
      // The shortcut is still there: it has nothing to overwrite.
    } else if (large) {
      await driveRestorer.uploadResumable(metadata, chunks(), item.current.size, { fileId: item.sourceId });
    } else {
      await driveRestorer.overwrite(item.sourceId, metadata, await content());
    }
    const sharing = recovery.permissions
      ? await driveRestorer.share(item.sourceId, metadata.permissions)
      : undefined;
    await record(restore, itemKey, doneSharing(item.sourceId, sharing));
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
      await record(restore, itemKey, { state: "importing" });
      if (metadata.shortcut) return driveRestorer.createShortcut(metadata, parent);
      return large
        ? driveRestorer.uploadResumable(metadata, chunks(), item.current.size, { parent })
        : driveRestorer.create(metadata, await content(), parent);
    })());
  const sharing =
    recovery.permissions && !existing ? await driveRestorer.share(targetId, metadata.permissions) : undefined;
  await record(restore, itemKey, doneSharing(targetId, sharing));
  return { outcome: "restored" };
}

/**
 * One item: one the ledger has done is counted as it was; a file goes to `restoreFile`; a message is
 * imported under its labels, unless the mailbox holds its Message-ID already (left "importing" by a
 * delivery that stopped, or a recovery that overwrites).
 */
async function restoreOne(
  restore: RecoveryRestore,
  item: CatalogItem | undefined,
  itemKey: string,
): Promise<ItemOutcome> {
  const { scope, recovery, restorer } = restore;
  if (!item || item.kind !== restore.kind) {
    return { outcome: "skipped", reason: RECOVERY_ITEM_REASONS.notBackedUp };
  }
  const ledger = await readLedger(scope, recovery.recoveryId, itemKey);
  // Done by a delivery that stopped before the page's progress was saved: counted now.
  if (ledger?.state === "done") {
    return ledger.reason ? { outcome: "skipped", reason: ledger.reason } : { outcome: "restored" };
  }
  if (restore.kind === "drive-file")
    return restoreFile(restore, itemKey, item, ledger?.state === "importing");
  const current = item.current;
  const raw = await versionContent(
    restore.blobStore,
    { organizationId: scope.organizationId, keys: await restore.keys(current.dataKeyId) },
    current,
  );
  const messageId = messageIdOf(raw);
  if (messageId && (ledger?.state === "importing" || recovery.method === "overwrite")) {
    const existing = await restorer.find(messageId);
    if (existing) {
      if (ledger?.state === "importing") {
        await record(restore, itemKey, { state: "done", targetId: existing });
        return { outcome: "restored" };
      }
      const reason = RECOVERY_ITEM_REASONS.alreadyThere;
      await record(restore, itemKey, { state: "done", targetId: existing, reason });
      return { outcome: "skipped", reason };
    }
  }
  restore.labelNames ??= mailLabelNames(scope, recovery.resourceId).then((names) => names ?? {});
  const labelIds = await restorer.labelIds(
    current.metadata.labels ?? [],
    recovery.folderName,
    await restore.labelNames,
  );
  await record(restore, itemKey, { state: "importing" });
  const targetId = await restorer.import(raw, labelIds);
  await record(restore, itemKey, { state: "done", targetId });
  return { outcome: "restored" };
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
