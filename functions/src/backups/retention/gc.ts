/**
 * Retention and garbage collection of one organisation (docs/backup-format.md §7): prune the catalog per
 * policy, then mark and sweep the bucket. Never deletes what a live version needs.
 *
 * Exclusion. Dedup makes a concurrent backup dangerous: a run that found a chunk in the index reuses it
 * without uploading it. So the collector holds the organisation's GC lock (`meta/gc`, a lease) for its
 * whole work, and `FirestoreCatalog.takeLease` refuses runs while it is live. It takes the lock first and
 * only then looks for runs holding live leases (any lease taken before the lock is visible by then, any
 * taken after sees the lock); if there are, it gives the lock back and tries another day.
 *
 * The catalog is walked once, item by item in document name order, its versions read by collection group
 * page after page (`catalogItems`): reads grow with the versions kept, queries with the pages, never one
 * query per item. Retention decides from the versions (`endedAt`); an item's document is read only where
 * retention applies (its resource has a policy) and a version of it was written before `endedAt` existed.
 * 1. Prune, item by item (`prunableVersions`; a resource without a policy, or versions under a resource
 *    the organisation no longer lists, keep everything): version documents, then the whole item when no
 *    version is left, then the pruned versions' manifest objects.
 * 2. Mark: the chunk ids of every version left, and of the large item a pending or running run stopped in
 *    the middle of (its partial chunk list), (inline lists, and manifests read and decrypted with the
 *    version's data key) and the names of their manifests. A manifest that cannot be read stops the
 *    collection before anything is swept.
 * 3. Sweep chunks (listing `o/<org>/c/`): an object not marked is deleted, index entry first, unless its
 *    index entry was referenced within the grace period (24 h). Then manifests not marked (`o/<org>/m/`).
 * Counts only are returned and logged; no names, no content.
 */
import { randomUUID } from "node:crypto";
import type { Scope } from "../../lib/tenancy";
import { storedPolicies } from "../../policies/service";
import type { BlobStore } from "../../engine/blobstore/blob-store";
import { decodeManifest } from "../../engine/format/chunk-codec";
import type { DerivedKeys } from "../../engine/format/keys";
import { prunableVersions, type RetentionRule } from "./prune";
import { inParallel } from "../../lib/parallel";
import {
  backupsRunning,
  chunksLastReferenced,
  deleteChunkIndexEntries,
  catalogItems,
  deleteVersions,
  releaseLock,
  resourcePolicies,
  takeLock,
  unfinishedRuns,
  type StoredVersion,
} from "./repo";

export const GC_GRACE_MS = 24 * 3600 * 1000;
const DELETE_PARALLEL = 16;
/** The collector extends its lock when the walk reaches another resource, and every this many items. */
const LOCK_EVERY = 5_000;

export interface GcOptions {
  scope: Scope;
  blobStore: BlobStore;
  /** The derived keys of a data key (for reading manifests). */
  keys: (dataKeyId: string) => Promise<DerivedKeys>;
  now: Date;
  graceMs?: number;
}

export interface GcResult {
  outcome: "done" | "skipped";
  why?: "backups-running" | "gc-running";
  versionsPruned: number;
  itemsRemoved: number;
  liveChunks: number;
  chunksDeleted: number;
  manifestsDeleted: number;
}

async function retentionRules(scope: Scope): Promise<Map<string, RetentionRule>> {
  const rules = new Map<string, RetentionRule>();
  for (const policy of await storedPolicies(scope)) {
    rules.set(policy.policyId, { retentionDays: policy.retentionDays, archiving: policy.archiving });
  }
  return rules;
}

/** Every page of the names under `prefix`. */
async function* allNames(store: BlobStore, prefix: string): AsyncGenerator<string[]> {
  let pageToken: string | undefined;
  do {
    const page = await store.list(prefix, pageToken ? { pageToken } : {});
    yield page.names;
    pageToken = page.nextPageToken;
  } while (pageToken);
}

/** Marks the chunks of live versions (inline lists, or the manifest read and decrypted) and their manifests. */
async function markVersions(
  options: GcOptions,
  versions: StoredVersion[],
  liveChunks: Set<string>,
  liveManifests: Set<string>,
): Promise<void> {
  const organizationId = options.scope.organizationId;
  for (const version of versions) {
    if ("chunks" in version) {
      for (const chunk of version.chunks) liveChunks.add(chunk.id);
    } else {
      liveManifests.add(version.manifestObject);
      const keys = await options.keys(version.dataKeyId);
      const body = await options.blobStore.get(version.manifestObject);
      const manifest = await decodeManifest({ organizationId, keys }, version.versionId, body);
      for (const chunk of manifest.chunks) liveChunks.add(chunk.id);
    }
  }
}

/**
 * A large item a run stopped in the middle of: its partial chunk list and chunks stay until it ends (an
 * unreadable list is left to the grace period).
 */
async function markPartialItems(
  options: GcOptions,
  liveChunks: Set<string>,
  liveManifests: Set<string>,
): Promise<void> {
  const { scope, blobStore } = options;
  const organizationId = scope.organizationId;
  for (const run of await unfinishedRuns(scope)) {
    const partial = run.partial;
    if (!partial) continue;
    liveManifests.add(partial.manifestObject);
    try {
      const body = await blobStore.get(partial.manifestObject);
      const keys = await options.keys(partial.dataKeyId);
      const manifest = await decodeManifest({ organizationId, keys }, partial.manifestVersionId, body);
      for (const chunk of manifest.chunks) liveChunks.add(chunk.id);
    } catch {
      // Unreadable: the run reads that item from its start again; its chunks are spared by the grace.
    }
  }
}

/**
 * Deletes the chunk objects nothing marked (listing `o/<org>/c/`), index entry first, unless the entry was
 * referenced at or after `cutoff`.
 */
async function sweepChunks(
  options: GcOptions,
  liveChunks: Set<string>,
  cutoff: string,
  result: GcResult,
): Promise<void> {
  const { scope, blobStore } = options;
  for await (const names of allNames(blobStore, `o/${scope.organizationId}/c/`)) {
    const candidates = names
      .map((name) => ({ name, id: name.slice(name.lastIndexOf("/") + 1) }))
      .filter((entry) => !liveChunks.has(entry.id));
    if (candidates.length === 0) continue;
    const referencedAt = await chunksLastReferenced(
      scope,
      candidates.map((entry) => entry.id),
    );
    const doomed = candidates.filter((_, index) => {
      const referenced = referencedAt[index];
      return !(typeof referenced === "string" && referenced >= cutoff);
    });
    if (doomed.length === 0) continue;
    // Index entries first: an object without an entry is only a leak, an entry without an object would
    // let a run reuse a chunk that is gone.
    await deleteChunkIndexEntries(
      scope,
      doomed.map((entry) => entry.id),
    );
    await inParallel(doomed, DELETE_PARALLEL, async (entry) => {
      await blobStore.delete(entry.name);
      result.chunksDeleted += 1;
    });
  }
}

export async function collectGarbage(options: GcOptions): Promise<GcResult> {
  const { scope, blobStore, now } = options;
  const grace = options.graceMs ?? GC_GRACE_MS;
  const holder = randomUUID();
  const result: GcResult = {
    outcome: "done",
    versionsPruned: 0,
    itemsRemoved: 0,
    liveChunks: 0,
    chunksDeleted: 0,
    manifestsDeleted: 0,
  };
  if (!(await takeLock(scope, holder, now))) return { ...result, outcome: "skipped", why: "gc-running" };
  try {
    if (await backupsRunning(scope, now)) {
      await releaseLock(scope, holder, {});
      return { ...result, outcome: "skipped", why: "backups-running" };
    }
    const organizationId = scope.organizationId;
    const rules = await retentionRules(scope);
    const liveChunks = new Set<string>();
    const liveManifests = new Set<string>();
    const deadManifests: string[] = [];

    const policyOf = new Map(
      (await resourcePolicies(scope)).map((resource) => [resource.resourceId, resource.policyId]),
    );
    const ruleOf = (resourceId: string) => {
      const policyId = policyOf.get(resourceId);
      return policyId ? rules.get(policyId) : undefined;
    };
    let walked = 0;
    let resourceId: string | undefined;
    for await (const item of catalogItems(scope, (id) => ruleOf(id) !== undefined)) {
      // Long collections keep their lock.
      walked += 1;
      if ((resourceId !== undefined && item.resourceId !== resourceId) || walked % LOCK_EVERY === 0) {
        if (!(await takeLock(scope, holder, now))) throw new Error("The GC lock was taken over");
      }
      resourceId = item.resourceId;
      const rule = ruleOf(item.resourceId);
      const prune = new Set(rule ? prunableVersions(item.state, item.versions, rule, now) : []);
      if (prune.size > 0) {
        for (const version of item.versions) {
          if (prune.has(version.versionId) && "manifestObject" in version) {
            deadManifests.push(version.manifestObject);
          }
        }
        const removeItem = prune.size === item.versions.length;
        await deleteVersions(item, prune, removeItem);
        result.versionsPruned += prune.size;
        if (removeItem) result.itemsRemoved += 1;
      }
      await markVersions(
        options,
        item.versions.filter((version) => !prune.has(version.versionId)),
        liveChunks,
        liveManifests,
      );
    }
    await markPartialItems(options, liveChunks, liveManifests);
    result.liveChunks = liveChunks.size;

    // Manifests of pruned versions (their version documents are gone: nothing names them).
    await inParallel(
      deadManifests.filter((name) => !liveManifests.has(name)),
      DELETE_PARALLEL,
      async (name) => {
        await blobStore.delete(name);
        result.manifestsDeleted += 1;
      },
    );

    const cutoff = new Date(now.getTime() - grace).toISOString();
    await sweepChunks(options, liveChunks, cutoff, result);
    for await (const names of allNames(blobStore, `o/${organizationId}/m/`)) {
      const dead = names.filter((name) => !liveManifests.has(name));
      await inParallel(dead, DELETE_PARALLEL, async (name) => {
        await blobStore.delete(name);
        result.manifestsDeleted += 1;
      });
    }
    await releaseLock(scope, holder, { lastRunAt: now.toISOString(), lastResult: { ...result } });
    return result;
  } catch (error) {
    await releaseLock(scope, holder, {}).catch(() => undefined);
    throw error;
  }
}
