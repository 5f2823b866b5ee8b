/**
 * Integrity verification's Firestore records on what it checks (docs/backup-format.md §6,
 * docs/backup-engine.md); its runs (`verifyRuns/{runId}`, `meta/verify`) are in `runs-repo.ts`:
 * - the resource document: `lastVerifiedAt`, `integrity {state, checkedItems, damagedItems, verifiedAt,
 *   damaged [{itemKey, kind, name, refetch}]}`, `verifyTrackedSince` (the planner first saw it with backups).
 * - `chunkRefs/{chunkId}.verifiedAt`: when the chunk was last read and found good.
 */
import { decodeResourceIntegrity } from "@alpvault/contracts/schemas/integrity";
import type { DamagedItem, ResourceIntegrity } from "@alpvault/contracts/integrity";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { catalogDocId } from "../../engine/runner/catalog-ids";
import type { StoredVersion } from "../../engine/verify/check";
import { bulkWrites } from "../../lib/bulk-writes";

function resourceRef(scope: Scope, resourceId: string) {
  return organizationRef(scope).collection("resources").doc(resourceId);
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const count = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;

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

function decodeVerifyResource(
  id: string,
  data: Record<string, unknown> | undefined,
): VerifyResource | undefined {
  if (!data || typeof data.name !== "string") return undefined;
  return {
    resourceId: id,
    name: data.name,
    email: text(data.email),
    bytes: count(data.mailBackupBytes) + count(data.driveBackupBytes),
    lastVerifiedAt: text(data.lastVerifiedAt),
    trackedSince: text(data.verifyTrackedSince),
    integrity: decodeResourceIntegrity(data.integrity) ?? null,
  };
}

export async function verifyResources(scope: Scope): Promise<VerifyResource[]> {
  const snapshot = await organizationRef(scope).collection("resources").get();
  return snapshot.docs.flatMap((doc) => decodeVerifyResource(doc.id, doc.data()) ?? []);
}

export async function readVerifyResource(
  scope: Scope,
  resourceId: string,
): Promise<VerifyResource | undefined> {
  const snapshot = await resourceRef(scope, resourceId).get();
  return decodeVerifyResource(snapshot.id, snapshot.data());
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
  scope: Scope,
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
      const versions = await doc.ref.collection("versions").get();
      const search = (doc.get("search") ?? {}) as { display?: { subject?: unknown; name?: unknown } };
      const itemKey = String(doc.get("itemKey") ?? doc.id);
      const name = search.display?.subject ?? search.display?.name;
      return {
        docId: doc.id,
        itemKey,
        kind: doc.get("kind") === "drive-file" ? ("drive-file" as const) : ("gmail-message" as const),
        name: typeof name === "string" && name !== "" ? name : itemKey,
        versions: versions.docs.map((version) => version.data() as StoredVersion),
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
  return versions.docs.map((version) => version.data() as StoredVersion);
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
      const at = snapshot.get("verifiedAt") as unknown;
      if (typeof at === "string" && at >= since) fresh.add(snapshot.id);
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
    const integrity = decodeResourceIntegrity((await transaction.get(ref)).get("integrity"));
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
    const healedAt = snapshot.get("current.healedAt") as unknown;
    if (typeof healedAt === "string" && healedAt > since) out.set(key, "refetched");
    else if (!snapshot.exists || snapshot.get("deletedAtSource") !== null) out.set(key, "gone");
  });
  return out;
}
