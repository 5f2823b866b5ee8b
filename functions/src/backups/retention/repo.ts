/**
 * What retention and garbage collection read and write in Firestore (`retention/gc.ts` decides): the
 * organisation's GC lock (`meta/gc`, a lease), the runs holding leases, the catalog's items and versions
 * resource by resource, and the chunk index (`chunkRefs`).
 */
import type { DocumentReference } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../../lib/tenancy";
import type { ChunkList, RunRecord } from "../../engine/runner/catalog";
import { decodeRun, gcLockRef } from "../catalog/runs-repo";

const LOCK_MS = 15 * 60_000;
const ITEM_PAGE = 200;

export type StoredVersion = { versionId: string; capturedAt: string; dataKeyId: string } & ChunkList;

/** A catalog item with its stored versions, as the collector reads it. */
export interface GcItem {
  currentVersionId: string;
  deletedAtSource: string | null;
  versions: StoredVersion[];
}

/** Where each item read by `itemsOf` and each of its versions is stored (for `deleteVersions`). */
const stored = new WeakMap<GcItem, { item: DocumentReference; versions: DocumentReference[] }>();

/**
 * Takes (or, for its holder, extends) the organisation's GC lock; false while another holder's is live.
 * Integrity healing takes it too, for the short time it removes damaged objects.
 */
export async function takeLock(scope: Scope, holder: string, now: Date): Promise<boolean> {
  const ref = gcLockRef(scope);
  return ref.firestore.runTransaction(async (transaction) => {
    const lock = (await transaction.get(ref)).data();
    const until = typeof lock?.sweepingUntil === "string" ? lock.sweepingUntil : "";
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
    const lock = (await transaction.get(ref)).data();
    if (lock?.holder !== holder) return;
    transaction.set(ref, { holder: null, sweepingUntil: null, ...fields }, { merge: true });
  });
}

/** When the organisation's last collection ended (`lastRunAt` of its GC lock), as stored. */
export async function lastCollectionAt(scope: Scope): Promise<unknown> {
  return (await gcLockRef(scope).get()).get("lastRunAt") as unknown;
}

/** Whether a backup run of the organisation holds a live lease. */
export async function backupsRunning(scope: Scope, now: Date): Promise<boolean> {
  const running = await organizationRef(scope).collection("backupRuns").where("state", "==", "running").get();
  return running.docs.some((doc) => {
    const until = (doc.get("lease") as { until?: unknown } | null | undefined)?.until;
    return typeof until === "string" && until > now.toISOString();
  });
}

/** The runs not ended yet (pending or running), whose partial chunk lists stay live. */
export async function unfinishedRuns(scope: Scope): Promise<RunRecord[]> {
  const runs = await organizationRef(scope)
    .collection("backupRuns")
    .where("state", "in", ["pending", "running"])
    .get();
  return runs.docs.flatMap((run) => decodeRun(run) ?? []);
}

/** Every resource of the organisation with the policy it is assigned, if any. */
export async function resourcePolicies(
  scope: Scope,
): Promise<{ resourceId: string; policyId: string | undefined }[]> {
  const resources = await organizationRef(scope).collection("resources").get();
  return resources.docs.map((resource) => {
    const policyId = resource.get("policyId") as unknown;
    return { resourceId: resource.id, policyId: typeof policyId === "string" ? policyId : undefined };
  });
}

/**
 * The resource's catalog items one by one, each with its versions (read as it is reached), in document id
 * order, page by page; an item may be deleted (`deleteVersions`) before the next one is asked for.
 */
export async function* itemsOf(scope: Scope, resourceId: string): AsyncGenerator<GcItem> {
  const resource = organizationRef(scope).collection("resources").doc(resourceId);
  type ItemPage = Awaited<ReturnType<ReturnType<typeof resource.collection>["get"]>>;
  let last: ItemPage["docs"][number] | undefined;
  for (;;) {
    // "__name__": the document id order (paging by the last document seen).
    let query = resource.collection("items").orderBy("__name__").limit(ITEM_PAGE);
    if (last) query = query.startAfter(last);
    const items = await query.get();
    for (const item of items.docs) {
      const versions = await item.ref.collection("versions").get();
      const gcItem: GcItem = {
        currentVersionId: String(item.get("currentVersionId")),
        deletedAtSource: (item.get("deletedAtSource") as string | null | undefined) ?? null,
        versions: versions.docs.map((doc) => doc.data() as StoredVersion),
      };
      stored.set(gcItem, { item: item.ref, versions: versions.docs.map((doc) => doc.ref) });
      yield gcItem;
    }
    if (items.size < ITEM_PAGE) break;
    last = items.docs[items.docs.length - 1];
  }
}

/** Deletes the named versions of an item read by `itemsOf`, and the item itself when `removeItem`. */
export async function deleteVersions(
  item: GcItem,
  versionIds: Set<string>,
  removeItem: boolean,
): Promise<void> {
  const refs = stored.get(item);
  if (!refs) throw new Error("The item was not read by itemsOf");
  const batch = refs.item.firestore.batch();
  item.versions.forEach((version, index) => {
    const ref = refs.versions[index];
    if (ref && versionIds.has(version.versionId)) batch.delete(ref);
  });
  if (removeItem) batch.delete(refs.item);
  await batch.commit();
}

/** The `lastReferencedAt` of each chunk's index entry, as stored (undefined without an entry). */
export async function chunksLastReferenced(scope: Scope, chunkIds: string[]): Promise<unknown[]> {
  const chunkRefs = organizationRef(scope).collection("chunkRefs");
  const refs = await chunkRefs.firestore.getAll(...chunkIds.map((id) => chunkRefs.doc(id)));
  return chunkIds.map((_, index) => refs[index]?.get("lastReferencedAt") as unknown);
}

/** Deletes the chunks' index entries, in one batch. */
export async function deleteChunkIndexEntries(scope: Scope, chunkIds: string[]): Promise<void> {
  const chunkRefs = organizationRef(scope).collection("chunkRefs");
  const batch = chunkRefs.firestore.batch();
  for (const id of chunkIds) batch.delete(chunkRefs.doc(id));
  await batch.commit();
}
