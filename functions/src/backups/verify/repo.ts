/**
 * Integrity verification's Firestore records on what it checks (docs/backup-format.md §6,
 * docs/backup-engine.md); its runs (`verifyRuns/{runId}`, `meta/verify`) are in `runs-repo.ts`:
 * - the resource document: `lastVerifiedAt`, `integrity {state, checkedItems, damagedItems, verifiedAt,
 *   damaged [{itemKey, kind, name, refetch}]}`, `verifyTrackedSince` (the planner first saw it with backups).
 * - `chunkRefs/{chunkId}.verifiedAt`: when the chunk was last read and found good.
 */
import type { DamagedItem, ResourceIntegrity } from "@alpvault/contracts/integrity";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { catalogDocId } from "../../engine/runner/catalog-ids";
import type { StoredVersion } from "../../engine/verify/check";
import { bulkWrites } from "../../lib/bulk-writes";
import { decodeDocument, decodeDocuments, decodeQueried, readableDocuments } from "../../lib/stored";
import { resourceBackupBytes } from "@alpvault/contracts/organizations";
import { RESOURCE, type StoredResource } from "../../resources/documents";
import { CATALOG_ITEM_STATE, CATALOG_VERSION_CHUNKS, CHUNK_ENTRY } from "../catalog/documents";
import { catalogItemKind, type CatalogScope } from "../catalog/sealed-documents";
import { itemTitle } from "../../engine/services";

function resourceRef(scope: Scope, resourceId: string) {
  return organizationRef(scope).collection("resources").doc(resourceId);
}

/** A resource as the verification needs it. */
export interface VerifyResource {
  resourceId: string;
  name: string;
  email: string | null;
  bytes: number;
  lastVerifiedAt: string | null;
  trackedSince: string | null;
  integrity: ResourceIntegrity | null;
}

function verifyResourceOf(resource: StoredResource): VerifyResource {
  return {
    resourceId: resource.resourceId,
    name: resource.name,
    email: resource.email,
    bytes: resourceBackupBytes(resource),
    lastVerifiedAt: resource.lastVerifiedAt,
    trackedSince: resource.verifyTrackedSince,
    integrity: resource.integrity,
  };
}

/** The organisation's resources (one that does not decode is left out, logged: the others are verified). */
export async function verifyResources(scope: Scope): Promise<VerifyResource[]> {
  const snapshot = await organizationRef(scope).collection("resources").get();
  return readableDocuments(RESOURCE, snapshot.docs).map(verifyResourceOf);
}

export async function readVerifyResource(
  scope: Scope,
  resourceId: string,
): Promise<VerifyResource | undefined> {
  const resource = decodeDocument(RESOURCE, await resourceRef(scope, resourceId).get());
  return resource && verifyResourceOf(resource);
}

/** Stamps `verifyTrackedSince` on resources with backups that have none (the planner's age start). */
export async function trackResources(scope: Scope, resourceIds: string[], at: string): Promise<void> {
  if (resourceIds.length === 0) return;
  const writer = bulkWrites(organizationRef(scope).firestore);
  for (const id of resourceIds) writer.update(resourceRef(scope, id), { verifyTrackedSince: at });
  await writer.close();
}

/** A resource's items in document-id order after `after` (one page), with their live versions. */
export async function itemPage(
  scope: CatalogScope,
  resourceId: string,
  after: string | null,
  limit: number,
): Promise<
  { docId: string; itemKey: string; kind: DamagedItem["kind"]; name: string; versions: StoredVersion[] }[]
> {
  let query = resourceRef(scope, resourceId).collection("items").orderBy("__name__").limit(limit);
  if (after) query = query.startAfter(after);
  const page = await query.get();
  return Promise.all(
    page.docs.map(async (doc) => {
      const { itemKey, kind, search } = decodeQueried(catalogItemKind(scope), doc);
      const versions = await doc.ref.collection("versions").get();
      const name = itemTitle(search);
      return {
        docId: doc.id,
        itemKey,
        kind,
        name: name || itemKey,
        versions: decodeDocuments(CATALOG_VERSION_CHUNKS, versions.docs),
      };
    }),
  );
}

/** The live versions of one item (the heal's second look, under the GC lock). */
export async function itemVersions(
  scope: Scope,
  resourceId: string,
  itemKey: string,
): Promise<StoredVersion[]> {
  const versions = await resourceRef(scope, resourceId)
    .collection("items")
    .doc(catalogDocId(itemKey))
    .collection("versions")
    .get();
  return decodeDocuments(CATALOG_VERSION_CHUNKS, versions.docs);
}

/** Chunks read within the freshness window (their `verifiedAt` is at or after `since`). */
export async function freshChunks(scope: Scope, chunkIds: string[], since: string): Promise<Set<string>> {
  const ids = [...new Set(chunkIds)];
  if (ids.length === 0) return new Set();
  const refs = organizationRef(scope).collection("chunkRefs");
  const fresh = new Set<string>();
  for (let start = 0; start < ids.length; start += 300) {
    const snapshots = await refs.firestore.getAll(...ids.slice(start, start + 300).map((id) => refs.doc(id)));
    for (const snapshot of snapshots) {
      const at = decodeDocument(CHUNK_ENTRY, snapshot)?.verifiedAt;
      if (at !== undefined && at >= since) fresh.add(snapshot.id);
    }
  }
  return fresh;
}

/** Records `verifiedAt` on the chunks read and found good (entries that exist; a missing one is left so). */
export async function markChunksVerified(scope: Scope, chunkIds: string[], at: string): Promise<void> {
  const ids = [...new Set(chunkIds)];
  const refs = organizationRef(scope).collection("chunkRefs");
  for (let start = 0; start < ids.length; start += 400) {
    const slice = ids.slice(start, start + 400).map((id) => refs.doc(id));
    await refs.firestore.runTransaction(async (transaction) => {
      const snapshots = await transaction.getAll(...slice);
      snapshots.forEach((snapshot, index) => {
        if (snapshot.exists) transaction.update(slice[index]!, { verifiedAt: at });
      });
    });
  }
}

/** Removes the index entries of damaged chunks (before their objects: see heal.ts). */
export async function removeChunkRefs(scope: Scope, chunkIds: string[]): Promise<void> {
  const refs = organizationRef(scope).collection("chunkRefs");
  for (let start = 0; start < chunkIds.length; start += 400) {
    const batch = refs.firestore.batch();
    for (const id of chunkIds.slice(start, start + 400)) batch.delete(refs.doc(id));
    await batch.commit();
  }
}

/** Records a resource's verification result. */
export async function recordResourceIntegrity(
  scope: Scope,
  resourceId: string,
  integrity: ResourceIntegrity,
): Promise<void> {
  await resourceRef(scope, resourceId).update({ lastVerifiedAt: integrity.verifiedAt, integrity });
}

/**
 * The refetch state of damaged items after a backup of the resource: `refetch` of the named items changed
 * (the others kept). One transaction, so a verification recording meanwhile is not overwritten with stale
 * names.
 */
export async function updateRefetchStates(
  scope: Scope,
  resourceId: string,
  verifiedAt: string,
  states: Map<string, DamagedItem["refetch"]>,
): Promise<void> {
  if (states.size === 0) return;
  const ref = resourceRef(scope, resourceId);
  await ref.firestore.runTransaction(async (transaction) => {
    const integrity = decodeDocument(RESOURCE, await transaction.get(ref))?.integrity;
    if (!integrity || integrity.verifiedAt !== verifiedAt) return;
    const damaged = integrity.damaged.map((item) => ({
      ...item,
      refetch: states.get(item.itemKey) ?? item.refetch,
    }));
    transaction.update(ref, { "integrity.damaged": damaged });
  });
}

/** Whether an item of the resource was written again after `since` (`current.healedAt`), or is gone. */
export async function refetchOutcomes(
  scope: Scope,
  resourceId: string,
  itemKeys: string[],
  since: string,
): Promise<Map<string, DamagedItem["refetch"]>> {
  const out = new Map<string, DamagedItem["refetch"]>();
  if (itemKeys.length === 0) return out;
  const items = resourceRef(scope, resourceId).collection("items");
  const snapshots = await items.firestore.getAll(...itemKeys.map((key) => items.doc(catalogDocId(key))));
  snapshots.forEach((snapshot, index) => {
    const key = itemKeys[index]!;
    const item = decodeDocument(CATALOG_ITEM_STATE, snapshot);
    const healedAt = item?.current.healedAt;
    if (healedAt !== undefined && healedAt > since) out.set(key, "refetched");
    else if (!item || item.deletedAtSource !== null) out.set(key, "gone");
  });
  return out;
}
