/**
 * What retention and garbage collection read and write in Firestore (`retention/gc.ts` decides): the
 * organisation's GC lock (`meta/gc`, a lease), the runs holding leases, the catalog's versions by
 * collection group (with the states of the items retention applies to) and the chunk index (`chunkRefs`).
 */
import {
  FieldPath,
  type DocumentReference,
  type Firestore,
  type QueryDocumentSnapshot,
} from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { decodeDocument, decodeDocuments, decodeQueried, readableDocuments } from "../../lib/stored";
import type { ChunkList, RunRecord } from "../../engine/runner/catalog";
import { RESOURCE } from "../../resources/documents";
import { CATALOG_ITEM_STATE, CATALOG_VERSION_CHUNKS, CHUNK_ENTRY } from "../catalog/documents";
import { BACKUP_RUN, GC_LOCK } from "../catalog/run-documents";
import { gcLockRef } from "../catalog/runs-repo";
import { decidedByVersions, type ItemState } from "./prune";

const LOCK_MS = 15 * 60_000;
const VERSION_PAGE = 500;

export type StoredVersion = {
  versionId: string;
  capturedAt: string;
  /** When it stopped being current (null: it is); absent on versions written before the field existed. */
  endedAt?: string | null;
  dataKeyId: string;
} & ChunkList;

/** A catalog item with its stored versions, as the collector reads it. */
export interface GcItem {
  resourceId: string;
  /**
   * Read only when retention needs it (a version lacks `endedAt`); undefined otherwise (or when the item
   * document is missing).
   */
  state: ItemState | undefined;
  versions: StoredVersion[];
}

/** Where each item read by `catalogItems` and each of its versions is stored (for `deleteVersions`). */
const stored = new WeakMap<GcItem, { item: DocumentReference; versions: DocumentReference[] }>();

/**
 * Takes (or, for its holder, extends) the organisation's GC lock; false while another holder's is live.
 * Integrity healing takes it too, for the short time it removes damaged objects.
 */
export async function takeLock(scope: Scope, holder: string, now: Date): Promise<boolean> {
  const ref = gcLockRef(scope);
  return ref.firestore.runTransaction(async (transaction) => {
    const lock = decodeDocument(GC_LOCK, await transaction.get(ref));
    const until = lock?.sweepingUntil ?? "";
    if (until > now.toISOString() && lock?.holder !== holder) return false;
    transaction.set(
      ref,
      { holder, sweepingUntil: new Date(now.getTime() + LOCK_MS).toISOString() },
      { merge: true },
    );
    return true;
  });
}

export async function releaseLock(
  scope: Scope,
  holder: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const ref = gcLockRef(scope);
  await ref.firestore.runTransaction(async (transaction) => {
    const lock = decodeDocument(GC_LOCK, await transaction.get(ref));
    if (lock?.holder !== holder) return;
    transaction.set(ref, { holder: null, sweepingUntil: null, ...fields }, { merge: true });
  });
}

/** When the organisation's last collection ended (`lastRunAt` of its GC lock); undefined before the first. */
export async function lastCollectionAt(scope: Scope): Promise<string | undefined> {
  return decodeDocument(GC_LOCK, await gcLockRef(scope).get())?.lastRunAt;
}

/** Whether a backup run of the organisation holds a live lease. */
export async function backupsRunning(scope: Scope, now: Date): Promise<boolean> {
  const running = await organizationRef(scope).collection("backupRuns").where("state", "==", "running").get();
  return decodeDocuments(BACKUP_RUN, running.docs).some(
    (run) => (run.lease?.until ?? "") > now.toISOString(),
  );
}

/** The runs not ended yet (pending or running), whose partial chunk lists stay live. */
export async function unfinishedRuns(scope: Scope): Promise<RunRecord[]> {
  const runs = await organizationRef(scope)
    .collection("backupRuns")
    .where("state", "in", ["pending", "running"])
    .get();
  return decodeDocuments(BACKUP_RUN, runs.docs);
}

/**
 * Every resource of the organisation with the policy it is assigned, if any. A resource that does not
 * decode is left out (logged): no rule applies to its items, so retention keeps all of them.
 */
export async function resourcePolicies(
  scope: Scope,
): Promise<{ resourceId: string; policyId: string | undefined }[]> {
  const resources = await organizationRef(scope).collection("resources").get();
  return readableDocuments(RESOURCE, resources.docs).map((resource) => ({
    resourceId: resource.resourceId,
    policyId: resource.policyId ?? undefined,
  }));
}

/** One version document as the collection-group walk reads it. */
interface VersionDoc {
  ref: DocumentReference;
  resourceId: string;
  itemRef: DocumentReference;
  version: StoredVersion;
}

function versionDocOf(doc: QueryDocumentSnapshot): VersionDoc | undefined {
  // organizations/{org}/resources/{resourceId}/items/{itemDocId}/versions/{versionDocId}
  const itemRef = doc.ref.parent.parent;
  const resourceRef = itemRef?.parent.parent;
  if (!itemRef || !resourceRef || itemRef.parent.id !== "items" || resourceRef.parent.id !== "resources") {
    return undefined;
  }
  return {
    ref: doc.ref,
    resourceId: resourceRef.id,
    itemRef,
    version: decodeQueried(CATALOG_VERSION_CHUNKS, doc),
  };
}

/**
 * Every version document of the organisation's catalog, page by page, in document name order: one
 * collection-group query per page over `versions`, bounded to the organisation's documents (a document
 * name sorts segment by segment, so every name under `organizations/{id}` lies between the organisation's
 * own name and `organizations/{id},`: `,` sorts below every character an id may hold). Versions of one item
 * are consecutive, items of one resource too.
 */
async function* versionPages(scope: Scope): AsyncGenerator<VersionDoc[]> {
  const organization = organizationRef(scope);
  const group = organization.firestore
    .collectionGroup("versions")
    .orderBy(FieldPath.documentId())
    .endBefore(`${organization.path},`)
    .limit(VERSION_PAGE);
  let last: QueryDocumentSnapshot | undefined;
  for (;;) {
    const page = await (last ? group.startAfter(last) : group.startAt(organization.path)).get();
    yield page.docs.flatMap((doc) => versionDocOf(doc) ?? []);
    if (page.size < VERSION_PAGE) return;
    last = page.docs[page.docs.length - 1];
  }
}

/** The versions of one item, read by the collection-group walk. */
type ItemVersions = { resourceId: string; itemRef: DocumentReference; docs: VersionDoc[] };

function groupByItem(docs: VersionDoc[]): ItemVersions[] {
  const groups: ItemVersions[] = [];
  for (const doc of docs) {
    const group = groups[groups.length - 1];
    if (group && group.itemRef.path === doc.itemRef.path) group.docs.push(doc);
    else groups.push({ resourceId: doc.resourceId, itemRef: doc.itemRef, docs: [doc] });
  }
  return groups;
}

/** The items' states (currentVersionId, deletedAtSource), in one read of their documents. */
async function statesOf(db: Firestore, groups: ItemVersions[]): Promise<(ItemState | undefined)[]> {
  if (groups.length === 0) return [];
  const items = await db.getAll(...groups.map((group) => group.itemRef));
  return items.map((snapshot) => {
    const item = decodeDocument(CATALOG_ITEM_STATE, snapshot);
    return item && { currentVersionId: item.currentVersionId, deletedAtSource: item.deletedAtSource };
  });
}

/**
 * The organisation's catalog items one by one, each with all its versions, in resource then item document
 * order. Versions are read by collection group (page after page, not one query per item); an item's state
 * (its document) is read only when retention applies (`withState(resourceId)`) and cannot decide from the
 * versions alone (one of them lacks `endedAt`, written before the field existed), in one `getAll` per
 * page. An item may be deleted (`deleteVersions`) before the next one is asked for.
 */
export async function* catalogItems(
  scope: Scope,
  withState: (resourceId: string) => boolean,
): AsyncGenerator<GcItem> {
  let carried: ItemVersions | undefined;
  const emit = async function* (groups: ItemVersions[]): AsyncGenerator<GcItem> {
    const needing = groups.filter(
      (group) => withState(group.resourceId) && !decidedByVersions(group.docs.map((doc) => doc.version)),
    );
    const states = await statesOf(organizationRef(scope).firestore, needing);
    const stateOf = new Map(needing.map((group, index) => [group, states[index]]));
    for (const group of groups) {
      const gcItem: GcItem = {
        resourceId: group.resourceId,
        state: stateOf.get(group),
        versions: group.docs.map((doc) => doc.version),
      };
      stored.set(gcItem, { item: group.itemRef, versions: group.docs.map((doc) => doc.ref) });
      yield gcItem;
    }
  };
  for await (const page of versionPages(scope)) {
    const groups = groupByItem(carried ? [...carried.docs, ...page] : page);
    // The page's last item may go on in the next page.
    carried = groups.pop();
    yield* emit(groups);
  }
  if (carried) yield* emit([carried]);
}

/** Deletes the named versions of an item read by `catalogItems`, and the item itself when `removeItem`. */
export async function deleteVersions(
  item: GcItem,
  versionIds: Set<string>,
  removeItem: boolean,
): Promise<void> {
  const refs = stored.get(item);
  if (!refs) throw new Error("The item was not read by catalogItems");
  const batch = refs.item.firestore.batch();
  item.versions.forEach((version, index) => {
    const ref = refs.versions[index];
    if (ref && versionIds.has(version.versionId)) batch.delete(ref);
  });
  if (removeItem) batch.delete(refs.item);
  await batch.commit();
}

/** The `lastReferencedAt` of each chunk's index entry (undefined without an entry). */
export async function chunksLastReferenced(
  scope: Scope,
  chunkIds: string[],
): Promise<(string | undefined)[]> {
  const chunkRefs = organizationRef(scope).collection("chunkRefs");
  const refs = await chunkRefs.firestore.getAll(...chunkIds.map((id) => chunkRefs.doc(id)));
  return refs.map((ref) => decodeDocument(CHUNK_ENTRY, ref)?.lastReferencedAt);
}

/** Deletes the chunks' index entries, in one batch. */
export async function deleteChunkIndexEntries(scope: Scope, chunkIds: string[]): Promise<void> {
  const chunkRefs = organizationRef(scope).collection("chunkRefs");
  const batch = chunkRefs.firestore.batch();
  for (const id of chunkIds) batch.delete(chunkRefs.doc(id));
  await batch.commit();
}
