/**
 * Drive's part of a recovery: a file goes into the recovery's folder, or over itself (see
 * engine/drive/restorer.ts), its sharing re-applied when the recovery asks, each permission Google refused
 * kept in the ledger for the report. A file left "importing" by a delivery that stopped is looked up by
 * name in its parent before it is created again.
 */
import { RECOVERY_ITEM_REASONS } from "@alpvault/contracts/recovery";
import {
  restoredName,
  RESUMABLE_UPLOAD_BYTES,
  type DriveRestorer,
  type SharingOutcome,
} from "../engine/drive/restorer";
import { versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import type { LedgerEntry } from "./repo";
import {
  objectsOf,
  record,
  type ItemOutcome,
  type ItemByItemRestorer,
  type RecoveryRestore,
} from "./item-context";

/** The ledger's "done" of a restored file, with the sharing Google refused to re-apply, if any. */
function doneSharing(targetId: string, sharing: SharingOutcome | undefined): LedgerEntry {
  const refused = sharing?.refused ?? [];
  return { state: "done", targetId, ...(refused.length > 0 ? { unshared: refused } : {}) };
}

export class DriveItems implements ItemByItemRestorer {
  constructor(private readonly driveRestorer: DriveRestorer) {}

  async restore(
    restore: RecoveryRestore,
    itemKey: string,
    item: CatalogItem,
    importing: boolean,
  ): Promise<ItemOutcome> {
    const { recovery } = restore;
    const driveRestorer = this.driveRestorer;
    const objects = await objectsOf(restore, item);
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
      recovery.permissions && !existing
        ? await driveRestorer.share(targetId, metadata.permissions)
        : undefined;
    await record(restore, itemKey, doneSharing(targetId, sharing));
    return { outcome: "restored" };
  }
}
