/**
 * The catalog in Firestore (docs/backup-format.md §5, §6): the `Catalog` of `catalog.ts`, each call one
 * transaction or batch under `organizations/{organizationId}` in the organisation's region database:
 * `resources/{resourceId}/items/{itemDocId}`, `…/items/{itemDocId}/versions/{versionDocId}`,
 * `resources/{resourceId}/backupState/mailLabels` (the mailbox's Gmail label names, `{labels: {id: name}}`),
 * `chunkRefs/{chunkId}` and `backupRuns/{runId}`.
 *
 * Document ids come from `catalogDocId` (engine/runner/catalog-ids.ts); the documents keep the original
 * `itemKey` / `versionId`.
 *
 * `recordChunks` is one transaction (`getAll`, then `set`) rather than a blind batch, so an entry keeps the
 * `firstRunId` of the run that first recorded it. Undefined fields are left out of every write (the
 * database's global settings are not changed).
 */
import {
  FieldPath,
  type DocumentData,
  type DocumentReference,
  type DocumentSnapshot,
} from "firebase-admin/firestore";
import { BACKUP_FAILURE_REASONS, type BackupFailureReason } from "@alpvault/contracts/backups";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { bounded } from "../../engine/sources/search-text";
import {
  LeaseLostError,
  MAX_ITEM_ERRORS,
  renamedItemLabels,
  type Catalog,
  type CatalogItem,
  type CatalogVersion,
  type Checkpoint,
  type ChunkRecord,
  type CurrentVersion,
  type ItemError,
  type ItemKind,
  type LeaseAnswer,
  type RunOutcome,
  type RunRecord,
  type RunState,
  type PartialItem,
  type ServiceOutcome,
  type ServiceOutcomes,
} from "../../engine/runner/catalog";
import type { LabelRename } from "../../engine/sources/source";
import { catalogDocId } from "../../engine/runner/catalog-ids";

export type { Scope };

/** A copy of `value` without undefined fields (at any depth), as Firestore takes it. */
function stripUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((entry) => stripUndefined(entry as unknown)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const result: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      if (entry !== undefined) result[key] = stripUndefined(entry);
    }
    return result as T;
  }
  return value;
}

const RUN_STATES: readonly RunState[] = ["pending", "running", "succeeded", "failed"];

function isFinished(state: RunState): boolean {
  return state === "succeeded" || state === "failed";
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** A run document's partial item (anything malformed: none, the item is then read from its start). */
function decodePartial(value: unknown): PartialItem | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const strings = [
    "itemKey",
    "versionKey",
    "contentKey",
    "manifestObject",
    "manifestVersionId",
    "dataKeyId",
    "digestState",
  ];
  if (!strings.every((key) => typeof v[key] === "string")) return undefined;
  if ((v.kind !== "gmail-message" && v.kind !== "drive-file") || typeof v.offset !== "number")
    return undefined;
  return {
    kind: v.kind,
    itemKey: v.itemKey as string,
    versionKey: v.versionKey as string,
    contentKey: v.contentKey as string,
    offset: v.offset,
    manifestObject: v.manifestObject as string,
    manifestVersionId: v.manifestVersionId as string,
    dataKeyId: v.dataKeyId as string,
    digestState: v.digestState as string,
    ...(typeof v.md5State === "string" ? { md5State: v.md5State } : {}),
  };
}

/** The services' outcomes of a run document (anything malformed left out). */
export function decodeServices(value: unknown): ServiceOutcomes | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const out: ServiceOutcomes = {};
  for (const kind of ["gmail", "drive"] as const) {
    const raw = (value as Record<string, unknown>)[kind];
    if (typeof raw !== "object" || raw === null) continue;
    const entry = raw as Record<string, unknown>;
    const counts = (field: unknown): Record<string, number> => {
      const out: Record<string, number> = {};
      if (typeof field !== "object" || field === null) return out;
      for (const [reason, n] of Object.entries(field as Record<string, unknown>)) {
        if (typeof n === "number" && Number.isFinite(n) && n > 0) out[reason] = n;
      }
      return out;
    };
    const outcome: ServiceOutcome = { skipped: counts(entry.skipped) };
    const notes = counts(entry.notes);
    if (Object.keys(notes).length > 0) outcome.notes = notes;
    if (entry.state === "succeeded" || entry.state === "failed" || entry.state === "unavailable") {
      outcome.state = entry.state;
    }
    if (typeof entry.failureReason === "string" && entry.failureReason in BACKUP_FAILURE_REASONS) {
      outcome.failureReason = entry.failureReason as BackupFailureReason;
    }
    if (typeof entry.detail === "string") outcome.detail = entry.detail;
    out[kind] = outcome;
  }
  return out;
}

/** A run document as a `RunRecord` (a pending run written elsewhere may lack cursor, progress and errors). */
export function decodeRun(snapshot: DocumentSnapshot): RunRecord | undefined {
  const data = snapshot.data();
  if (!data) return undefined;
  const state = RUN_STATES.includes(data.state as RunState) ? (data.state as RunState) : "pending";
  const progress = (data.progress ?? {}) as Record<string, unknown>;
  const lease = data.lease as { holder?: unknown; until?: unknown } | null | undefined;
  const record: RunRecord = {
    runId: snapshot.id,
    resourceId: text(data.resourceId) ?? "",
    state,
    cursor: text(data.cursor) ?? null,
    progress: {
      items: count(progress.items),
      bytes: count(progress.bytes),
      storedBytes: count(progress.storedBytes),
    },
    unitsUsed: count(data.unitsUsed),
    itemErrors: Array.isArray(data.itemErrors) ? (data.itemErrors as ItemError[]) : [],
    itemErrorCount: count(data.itemErrorCount),
  };
  if (lease && typeof lease.holder === "string" && typeof lease.until === "string") {
    record.lease = { holder: lease.holder, until: lease.until };
  } else if (lease === null) {
    record.lease = null;
  }
  for (const key of ["policyId", "requestedAt", "startedAt", "finishedAt"] as const) {
    const value = text(data[key]);
    if (value !== undefined) record[key] = value;
  }
  if (data.trigger === "schedule" || data.trigger === "backup-now" || data.trigger === "policy-assigned") {
    record.trigger = data.trigger;
  }
  if (typeof data.failureReason === "string") {
    record.failureReason = data.failureReason as RunRecord["failureReason"];
  }
  const services = decodeServices(data.services);
  if (services) record.services = services;
  const partial = decodePartial(data.partial);
  if (partial) record.partial = partial;
  const listing = data.listing as { kind?: unknown; startedAt?: unknown } | null | undefined;
  if (
    listing &&
    (listing.kind === "gmail-message" || listing.kind === "drive-file") &&
    typeof listing.startedAt === "string"
  ) {
    record.listing = { kind: listing.kind, startedAt: listing.startedAt };
  }
  return record;
}

/** What an item document keeps of a version when it is (or was) the current one. */
export function currentOf(version: CatalogVersion): CurrentVersion {
  const chunkList =
    "manifestObject" in version ? { manifestObject: version.manifestObject } : { chunks: version.chunks };
  return {
    versionId: version.versionId,
    versionKey: version.versionKey,
    contentKey: version.contentKey,
    size: version.size,
    contentDigest: version.contentDigest,
    dataKeyId: version.dataKeyId,
    metadata: version.metadata,
    ...(version.healedAt ? { healedAt: version.healedAt } : {}),
    ...chunkList,
  };
}

function itemOf(version: CatalogVersion, previous: CatalogItem | undefined): CatalogItem {
  const current = currentOf(version);
  return {
    itemKey: version.itemKey,
    kind: version.kind,
    sourceId: version.itemKey,
    currentVersionId: version.versionId,
    current,
    deletedAtSource: null,
    firstSeenAt: previous?.firstSeenAt ?? version.capturedAt,
    lastSeenAt: version.capturedAt,
    search: version.search,
  };
}

function itemsCollection(scope: Scope, resourceId: string) {
  return organizationRef(scope).collection("resources").doc(resourceId).collection("items");
}

/** A page of a resource's items of a kind in key order, after `after` (recovery and export walk them all). */
export async function itemsAfter(
  scope: Scope,
  resourceId: string,
  kind: ItemKind,
  after: string | null,
  limit: number,
): Promise<CatalogItem[]> {
  let query = itemsCollection(scope, resourceId).where("kind", "==", kind).orderBy("itemKey").limit(limit);
  if (after) query = query.startAfter(after);
  return (await query.get()).docs.map((doc) => doc.data() as CatalogItem);
}

/** The items of these keys, in their order (undefined where the catalog has none). */
export async function itemsByKey(
  scope: Scope,
  resourceId: string,
  itemKeys: string[],
): Promise<(CatalogItem | undefined)[]> {
  if (itemKeys.length === 0) return [];
  const items = itemsCollection(scope, resourceId);
  const snapshots = await items.firestore.getAll(...itemKeys.map((key) => items.doc(catalogDocId(key))));
  return snapshots.map((snapshot) => snapshot.data() as CatalogItem | undefined);
}

/**
 * The version of an item the backups held at `asOf` (ISO 8601, exclusive): the last one captured before it.
 * Undefined when none is kept (the item was first backed up later, or retention pruned that version, and
 * then every older one too).
 */
export async function versionAt(
  scope: Scope,
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
  return snapshot.docs[0]?.data() as CatalogVersion | undefined;
}

/**
 * An item as the backups held it at `asOf`: at its version of then, or undefined when it was first backed up
 * later, was already deleted at the source by then, or that version is no longer kept.
 */
export async function itemAsOf(
  scope: Scope,
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

function mailLabelsRef(scope: Scope, resourceId: string): DocumentReference {
  return organizationRef(scope)
    .collection("resources")
    .doc(resourceId)
    .collection("backupState")
    .doc("mailLabels");
}

/**
 * The current names of a mailbox's Gmail user labels (id → name) as its last backup saw them: a version's
 * labels are named with them on restore (a label renamed since the version was captured keeps its id).
 * Undefined when no backup recorded them yet.
 */
export async function mailLabelNames(
  scope: Scope,
  resourceId: string,
): Promise<Record<string, string> | undefined> {
  const labels: unknown = (await mailLabelsRef(scope, resourceId).get()).get("labels");
  if (typeof labels !== "object" || labels === null) return undefined;
  return Object.fromEntries(
    Object.entries(labels as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/**
 * The organisation's garbage-collection lock (`meta/gc`: `{holder, sweepingUntil}`): while it is live, no
 * run takes a lease (`retention/gc.ts`).
 */
export function gcLockRef(scope: Scope): DocumentReference {
  return organizationRef(scope).collection("meta").doc("gc");
}

export class FirestoreCatalog implements Catalog {
  constructor(private readonly scope: Scope) {}

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

  private runRef(runId: string): DocumentReference {
    return organizationRef(this.scope).collection("backupRuns").doc(runId);
  }

  async getItems(resourceId: string, itemKeys: string[]): Promise<Map<string, CatalogItem>> {
    const found = new Map<string, CatalogItem>();
    const keys = [...new Set(itemKeys)];
    if (keys.length === 0) return found;
    const snapshots = await this.db.getAll(...keys.map((key) => this.itemRef(resourceId, key)));
    snapshots.forEach((snapshot, index) => {
      const data = snapshot.data();
      if (data) found.set(keys[index] as string, data as CatalogItem);
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
        const existing = (snapshots[index] as DocumentSnapshot).data();
        const firstRunId = typeof existing?.firstRunId === "string" ? existing.firstRunId : runId;
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
      const items = new Map<string, CatalogItem | undefined>();
      itemKeys.forEach((key, index) => {
        items.set(key, (snapshots[index] as DocumentSnapshot).data() as CatalogItem | undefined);
      });
      versionList.forEach((version, index) => {
        const stored = (snapshots[itemKeys.length + index] as DocumentSnapshot).data();
        const ref = versionRefs[index] as DocumentReference;
        if (!stored) transaction.create(ref, stripUndefined(version));
        else if (version.healedAt) {
          // Written again from the source (integrity healing): its content, at its first capture.
          transaction.set(
            ref,
            stripUndefined({
              ...version,
              capturedAt: stored.capturedAt as string,
              runId: stored.runId as string,
            }),
          );
        }
      });
      for (const version of versions) items.set(version.itemKey, itemOf(version, items.get(version.itemKey)));
      itemKeys.forEach((key, index) => {
        transaction.set(itemRefs[index] as DocumentReference, stripUndefined(items.get(key) as DocumentData));
      });
    });
  }

  async markDeleted(resourceId: string, itemKeys: string[], at: string): Promise<number> {
    const keys = [...new Set(itemKeys)];
    if (keys.length === 0) return 0;
    return this.db.runTransaction(async (transaction) => {
      const refs = keys.map((key) => this.itemRef(resourceId, key));
      const snapshots = await transaction.getAll(...refs);
      let changed = 0;
      snapshots.forEach((snapshot, index) => {
        if (!snapshot.exists || snapshot.get("deletedAtSource") !== null) return;
        transaction.update(refs[index] as DocumentReference, { deletedAtSource: at });
        changed += 1;
      });
      return changed;
    });
  }

  async loadRun(runId: string): Promise<RunRecord | undefined> {
    return decodeRun(await this.runRef(runId).get());
  }

  async takeLease(runId: string, holder: string, until: string, now: string): Promise<LeaseAnswer> {
    const ref = this.runRef(runId);
    return this.db.runTransaction(async (transaction) => {
      const [snapshot, gc] = await transaction.getAll(ref, gcLockRef(this.scope));
      const run = decodeRun(snapshot as DocumentSnapshot);
      if (!run) return "missing";
      if (isFinished(run.state)) return "finished";
      if (run.lease && run.lease.holder !== holder && run.lease.until > now) return "held-by-another";
      // The garbage collector of the organisation is at work: no run may start or go on until it is done.
      const sweepingUntil = gc?.get("sweepingUntil") as unknown;
      if (typeof sweepingUntil === "string" && sweepingUntil > now) return "held-by-another";
      const update: DocumentData = { lease: { holder, until } };
      if (run.state === "pending") {
        update.state = "running";
        update.startedAt = now;
      }
      transaction.update(ref, update);
      return "taken";
    });
  }

  async saveCheckpoint(runId: string, holder: string, checkpoint: Checkpoint): Promise<void> {
    const ref = this.runRef(runId);
    await this.db.runTransaction(async (transaction) => {
      const run = decodeRun(await transaction.get(ref));
      if (!run || run.lease?.holder !== holder || isFinished(run.state)) throw new LeaseLostError(runId);
      const room = Math.max(0, MAX_ITEM_ERRORS - run.itemErrors.length);
      transaction.update(
        ref,
        stripUndefined({
          cursor: checkpoint.cursor,
          progress: checkpoint.progress,
          unitsUsed: checkpoint.unitsUsed,
          itemErrors: [...run.itemErrors, ...checkpoint.newItemErrors.slice(0, room)],
          itemErrorCount: run.itemErrorCount + checkpoint.newItemErrors.length,
          listing: checkpoint.listing,
          services: checkpoint.services,
          partial: checkpoint.partial ?? null,
        }),
      );
    });
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
        .limit(400)
        .get();
      if (page.empty) return changed;
      const batch = this.db.batch();
      for (const doc of page.docs) batch.update(doc.ref, { deletedAtSource: at });
      await batch.commit();
      changed += page.size;
    }
  }

  mailLabelNames(resourceId: string): Promise<Record<string, string> | undefined> {
    return mailLabelNames(this.scope, resourceId);
  }

  /**
   * The items carrying a renamed label are found by its old name (`search.labels`, array-contains-any, 30
   * names a query) in pages, each page one batch; the label names are saved last, so a repeat after a
   * crash finds the renames again (and the items already renamed no longer match).
   */
  async mailLabelsCheckedAt(resourceId: string): Promise<string | undefined> {
    const at: unknown = (await mailLabelsRef(this.scope, resourceId).get()).get("checkedAt");
    return typeof at === "string" ? at : undefined;
  }

  async renameMailLabels(
    resourceId: string,
    renames: LabelRename[],
    labels: Record<string, string>,
    checkedAt?: string,
  ): Promise<void> {
    const items = organizationRef(this.scope).collection("resources").doc(resourceId).collection("items");
    const oldNames = [...new Set(renames.map((rename) => bounded(rename.from)))];
    for (let start = 0; start < oldNames.length; start += 30) {
      const names = oldNames.slice(start, start + 30);
      let after: string | undefined;
      for (;;) {
        let query = items
          .where("search.labels", "array-contains-any", names)
          .orderBy(FieldPath.documentId())
          .limit(300);
        if (after) query = query.startAfter(after);
        const page = await query.get();
        if (page.empty) break;
        const batch = this.db.batch();
        let writes = 0;
        for (const doc of page.docs) {
          const renamed = renamedItemLabels(doc.data() as CatalogItem, renames);
          if (!renamed) continue;
          batch.update(doc.ref, {
            "current.metadata.labels": renamed.labels,
            "search.labels": renamed.search,
          });
          writes += 1;
        }
        if (writes > 0) await batch.commit();
        after = page.docs[page.docs.length - 1]?.id;
        if (page.size < 300) break;
      }
    }
    await mailLabelsRef(this.scope, resourceId).set({
      labels,
      updatedAt: new Date().toISOString(),
      ...(checkedAt ? { checkedAt } : {}),
    });
  }

  async releaseLease(runId: string, holder: string): Promise<void> {
    const ref = this.runRef(runId);
    await this.db.runTransaction(async (transaction) => {
      const run = decodeRun(await transaction.get(ref));
      if (run?.lease?.holder === holder) transaction.update(ref, { lease: null });
    });
  }

  async finishRun(runId: string, holder: string, outcome: RunOutcome, at: string): Promise<void> {
    const ref = this.runRef(runId);
    await this.db.runTransaction(async (transaction) => {
      const run = decodeRun(await transaction.get(ref));
      if (!run || run.lease?.holder !== holder || isFinished(run.state)) throw new LeaseLostError(runId);
      const update: DocumentData = { state: outcome.state, finishedAt: at, lease: null };
      if (outcome.state === "failed") update.failureReason = outcome.failureReason;
      transaction.update(ref, update);
    });
  }
}

/** The catalog of one organisation. */
export function firestoreCatalog(scope: Scope): FirestoreCatalog {
  return new FirestoreCatalog(scope);
}
