/**
 * The catalog in Firestore (docs/backup-format.md §5, §6): the `Catalog` of `catalog.ts`, each call one
 * transaction or batch under `organizations/{organizationId}` in the organisation's region database:
 * `resources/{resourceId}/items/{itemDocId}`, `…/items/{itemDocId}/versions/{versionDocId}`,
 * `resources/{resourceId}/backupState/mailLabels` (the mailbox's Gmail label names, `{labels: {id: name}}`:
 * `labels-repo.ts`), `chunkRefs/{chunkId}` and `backupRuns/{runId}` (the run records and their leases:
 * `runs-repo.ts`).
 *
 * Document ids come from `catalogDocId` (engine/runner/catalog-ids.ts); the documents keep the original
 * `itemKey` / `versionId`.
 * `recordChunks` is one transaction (`getAll`, then `set`) rather than a blind batch, so an entry keeps the
 * `firstRunId` of the run that first recorded it. Undefined fields are left out of every write (the
 * database's global settings are not changed). In catalog format v2 (a `sealing` key given), items and
 * versions are sealed (sealed-documents.ts) and a file's folders recorded (folders-repo.ts). The readers
 * for recovery and export (pages of items, items by key, an item at a date, totals) are readers-repo.ts's.
 */
import {
  type DocumentData,
  type DocumentReference,
  type DocumentSnapshot,
  type Transaction,
} from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { stripUndefined } from "../../lib/strip-undefined";
import { endings, itemOf } from "../../engine/runner/catalog-items";
import {
  type Catalog,
  type CatalogItem,
  type CatalogVersion,
  type Checkpoint,
  type ChunkRecord,
  type ItemKind,
  type LeaseAnswer,
  type RunExpectation,
  type RunOutcome,
  type RunProgress,
  type RunRecord,
} from "../../engine/runner/catalog";
import type { LabelRename } from "../../engine/sources/source";
import { catalogDocId } from "../../engine/runner/catalog-ids";
import { decodeDocument, decodeQueried } from "../../lib/stored";
import { CHUNK_ENTRY } from "./documents";
import { foldersAlong, recordFolders } from "./folders-repo";
import { itemFolder } from "../../engine/services";
import {
  catalogItemKind,
  catalogVersionKind,
  sealedItem,
  sealedVersion,
  type CatalogScope,
} from "./sealed-documents";
import type { DerivedKeys } from "../../engine/format/keys";
import * as labels from "./labels-repo";
import * as runs from "./runs-repo";

export type { Scope };
export { heldTotals, itemAsOf, itemsAfter, itemsByKey, versionAt, type HeldTotals } from "./readers-repo";

/** Items marked deleted at the source per batch (two writes each: the item and its current version). */
const UNSEEN_PAGE = 200;

export class FirestoreCatalog implements Catalog {
  /**
   * `sealing`: the data key new items and versions are sealed with (catalog format v2, §9; the scope's
   * keyring then holds it); without it they are written in format v1. Either way both formats are read.
   */
  constructor(
    private readonly scope: CatalogScope,
    private readonly sealing?: DerivedKeys,
  ) {}

  /** An item as this catalog stores it. */
  private storedItem(resourceId: string, item: CatalogItem): DocumentData {
    if (!this.sealing) return stripUndefined(item as unknown as DocumentData);
    const place = { ...this.place(resourceId), documentId: catalogDocId(item.itemKey) };
    return sealedItem(this.sealing, place, item);
  }

  /** A version as this catalog stores it. */
  private storedVersion(resourceId: string, version: CatalogVersion): DocumentData {
    if (!this.sealing) return stripUndefined(version as unknown as DocumentData);
    const documentId = `${catalogDocId(version.itemKey)}/${catalogDocId(version.versionId)}`;
    return sealedVersion(this.sealing, { ...this.place(resourceId), documentId }, version);
  }

  private place(resourceId: string) {
    return { organizationId: this.scope.organizationId, resourceId };
  }

  private get db() {
    return organizationRef(this.scope).firestore;
  }

  private itemRef(resourceId: string, itemKey: string): DocumentReference {
    return organizationRef(this.scope)
      .collection("resources")
      .doc(resourceId)
      .collection("items")
      .doc(catalogDocId(itemKey));
  }

  private versionRef(resourceId: string, itemKey: string, versionId: string): DocumentReference {
    return this.itemRef(resourceId, itemKey).collection("versions").doc(catalogDocId(versionId));
  }

  private chunkRef(chunkId: string): DocumentReference {
    return organizationRef(this.scope).collection("chunkRefs").doc(chunkId);
  }

  async getItems(resourceId: string, itemKeys: string[]): Promise<Map<string, CatalogItem>> {
    const found = new Map<string, CatalogItem>();
    const keys = [...new Set(itemKeys)];
    if (keys.length === 0) return found;
    const snapshots = await this.db.getAll(...keys.map((key) => this.itemRef(resourceId, key)));
    snapshots.forEach((snapshot, index) => {
      const item = decodeDocument(catalogItemKind(this.scope), snapshot);
      if (item) found.set(keys[index] as string, item);
    });
    return found;
  }

  async knownChunks(chunkIds: string[]): Promise<Set<string>> {
    const ids = [...new Set(chunkIds)];
    if (ids.length === 0) return new Set();
    const snapshots = await this.db.getAll(...ids.map((id) => this.chunkRef(id)));
    return new Set(snapshots.filter((snapshot) => snapshot.exists).map((snapshot) => snapshot.id));
  }

  async recordChunks(refs: ChunkRecord[], runId: string, at: string): Promise<void> {
    if (refs.length === 0) return;
    const byId = new Map<string, ChunkRecord>();
    for (const ref of refs) byId.set(ref.id, { ...byId.get(ref.id), ...stripUndefined(ref) });
    const entries = [...byId.values()];
    await this.db.runTransaction(async (transaction) => {
      const snapshots = await transaction.getAll(...entries.map((ref) => this.chunkRef(ref.id)));
      entries.forEach((ref, index) => {
        const { id, ...fields } = ref;
        const existing = decodeDocument(CHUNK_ENTRY, snapshots[index] as DocumentSnapshot);
        const firstRunId = existing?.firstRunId ?? runId;
        transaction.set(this.chunkRef(id), { ...fields, firstRunId, lastReferencedAt: at }, { merge: true });
      });
    });
  }

  async writeVersions(resourceId: string, versions: CatalogVersion[]): Promise<void> {
    if (versions.length === 0) return;
    const itemKeys = [...new Set(versions.map((version) => version.itemKey))];
    const unique = new Map<string, CatalogVersion>();
    for (const version of versions)
      if (!unique.has(version.versionId)) unique.set(version.versionId, version);
    const versionList = [...unique.values()];
    await this.db.runTransaction(async (transaction) => {
      const itemRefs = itemKeys.map((key) => this.itemRef(resourceId, key));
      const versionRefs = versionList.map((version) =>
        this.versionRef(resourceId, version.itemKey, version.versionId),
      );
      const snapshots = await transaction.getAll(...itemRefs, ...versionRefs);
      const items = new Map(
        itemKeys.map((key, index) => [key, decodeDocument(catalogItemKind(this.scope), snapshots[index]!)]),
      );
      const stored = new Map<string, CatalogVersion>();
      versionList.forEach((version, index) => {
        const existing = decodeDocument(catalogVersionKind(this.scope), snapshots[itemKeys.length + index]!);
        if (existing) stored.set(version.versionId, existing);
      });
      // Format v2: the folders of the files, written once each (their documents read before any write).
      const writeFolders = this.sealing
        ? await recordFolders(
            transaction,
            this.scope,
            resourceId,
            this.sealing,
            versionList.flatMap((version) => {
              const folder = itemFolder(version.search);
              return folder ? foldersAlong(folder) : [];
            }),
            versionList[0]?.capturedAt ?? new Date().toISOString(),
          )
        : () => undefined;
      const ends = endings(versions, new Map(itemKeys.map((key) => [key, items.get(key)?.currentVersionId])));
      // The versions the items named current until now, when not in this call: their `endedAt` moves.
      const before = [...ends.values()].filter((end) => !unique.has(end.versionId));
      const beforeRefs = before.map((end) => this.versionRef(resourceId, end.itemKey, end.versionId));
      const beforeSnapshots = beforeRefs.length > 0 ? await transaction.getAll(...beforeRefs) : [];
      beforeSnapshots.forEach((snapshot, index) => {
        const end = before[index] as (typeof before)[number];
        const existing = decodeDocument(catalogVersionKind(this.scope), snapshot);
        if (existing && existing.endedAt !== end.endedAt) {
          transaction.update(beforeRefs[index] as DocumentReference, { endedAt: end.endedAt });
        }
      });
      writeFolders();
      versionList.forEach((version, index) => {
        const existing = stored.get(version.versionId);
        const ref = versionRefs[index] as DocumentReference;
        const endedAt = ends.get(version.versionId)?.endedAt ?? null;
        if (!existing) transaction.create(ref, this.storedVersion(resourceId, { ...version, endedAt }));
        else if (version.healedAt) {
          // Written again from the source (integrity healing): its content, at its first capture.
          transaction.set(
            ref,
            this.storedVersion(resourceId, {
              ...version,
              capturedAt: existing.capturedAt,
              runId: existing.runId,
              endedAt,
            }),
          );
        } else if (existing.endedAt !== endedAt) transaction.update(ref, { endedAt });
      });
      for (const version of versions) {
        const capturedAt = stored.get(version.versionId)?.capturedAt;
        items.set(version.itemKey, itemOf(version, items.get(version.itemKey), capturedAt));
      }
      itemKeys.forEach((key, index) => {
        transaction.set(
          itemRefs[index] as DocumentReference,
          this.storedItem(resourceId, items.get(key) as CatalogItem),
        );
      });
    });
  }

  async markDeleted(resourceId: string, itemKeys: string[], at: string): Promise<number> {
    const keys = [...new Set(itemKeys)];
    if (keys.length === 0) return 0;
    return this.db.runTransaction(async (transaction) => {
      const refs = keys.map((key) => this.itemRef(resourceId, key));
      const snapshots = await transaction.getAll(...refs);
      const marked = keys.flatMap((key, index) => {
        const item = decodeDocument(catalogItemKind(this.scope), snapshots[index] as DocumentSnapshot);
        if (!item || item.deletedAtSource !== null) return [];
        return [{ ref: refs[index] as DocumentReference, key, current: item.currentVersionId }];
      });
      if (marked.length === 0) return 0;
      await this.endCurrentVersions(
        transaction,
        marked.map((item) => this.versionRef(resourceId, item.key, item.current)),
        at,
      );
      for (const item of marked) transaction.update(item.ref, { deletedAtSource: at });
      return marked.length;
    });
  }

  /** Sets `endedAt` (the deletion time) on the items' current versions that exist, in the transaction. */
  private async endCurrentVersions(
    transaction: Transaction,
    refs: DocumentReference[],
    at: string,
  ): Promise<void> {
    const snapshots = await transaction.getAll(...refs);
    snapshots.forEach((snapshot, index) => {
      if (snapshot.exists) transaction.update(refs[index] as DocumentReference, { endedAt: at });
    });
  }

  loadRun(runId: string): Promise<RunRecord | undefined> {
    return runs.loadRun(this.scope, runId);
  }

  takeLease(runId: string, holder: string, until: string, now: string): Promise<LeaseAnswer> {
    return runs.takeLease(this.scope, runId, holder, until, now);
  }

  saveLiveProgress(runId: string, progress: RunProgress, expected?: RunExpectation | null): Promise<void> {
    return runs.saveLiveProgress(this.scope, runId, progress, expected);
  }

  saveCheckpoint(runId: string, holder: string, checkpoint: Checkpoint): Promise<void> {
    return runs.saveCheckpoint(this.scope, runId, holder, checkpoint);
  }

  releaseLease(runId: string, holder: string): Promise<void> {
    return runs.releaseLease(this.scope, runId, holder);
  }

  finishRun(runId: string, holder: string, outcome: RunOutcome, at: string): Promise<void> {
    return runs.finishRun(this.scope, runId, holder, outcome, at);
  }

  async touchItems(resourceId: string, itemKeys: string[], at: string): Promise<void> {
    const keys = [...new Set(itemKeys)];
    if (keys.length === 0) return;
    await this.db.runTransaction(async (transaction) => {
      const refs = keys.map((key) => this.itemRef(resourceId, key));
      const snapshots = await transaction.getAll(...refs);
      snapshots.forEach((snapshot, index) => {
        if (snapshot.exists) transaction.update(refs[index] as DocumentReference, { lastSeenAt: at });
      });
    });
  }

  async markUnseenDeleted(resourceId: string, kind: ItemKind, before: string, at: string): Promise<number> {
    const items = organizationRef(this.scope).collection("resources").doc(resourceId).collection("items");
    let changed = 0;
    for (;;) {
      const page = await items
        .where("kind", "==", kind)
        .where("deletedAtSource", "==", null)
        .where("lastSeenAt", "<", before)
        .limit(UNSEEN_PAGE)
        .get();
      if (page.empty) return changed;
      // Each item with its current version (two writes each), in one batch.
      const currents = page.docs.map((doc) =>
        doc.ref
          .collection("versions")
          .doc(catalogDocId(decodeQueried(catalogItemKind(this.scope), doc).currentVersionId)),
      );
      const versions = await this.db.getAll(...currents);
      const batch = this.db.batch();
      versions.forEach((version, index) => {
        if (version.exists) batch.update(currents[index] as DocumentReference, { endedAt: at });
      });
      for (const doc of page.docs) batch.update(doc.ref, { deletedAtSource: at });
      await batch.commit();
      changed += page.size;
    }
  }

  mailLabelNames(resourceId: string): Promise<Record<string, string> | undefined> {
    return labels.mailLabelNames(this.scope, resourceId);
  }

  mailLabelsCheckedAt(resourceId: string): Promise<string | undefined> {
    return labels.mailLabelsCheckedAt(this.scope, resourceId);
  }

  renameMailLabels(
    resourceId: string,
    renames: LabelRename[],
    names: Record<string, string>,
    checkedAt?: string,
  ): Promise<void> {
    return labels.renameMailLabels(this.scope, resourceId, renames, names, checkedAt);
  }
}

/** The catalog of one organisation. */
export function firestoreCatalog(scope: CatalogScope, sealing?: DerivedKeys): FirestoreCatalog {
  return new FirestoreCatalog(scope, sealing);
}
