/**
 * The verification worker: one `verifyBackups` task delivery works on (a stretch of) one verification run
 * of an organisation (docs/backup-engine.md, "Integrity verification").
 *
 * 1. The run's lease (a run another worker holds is thrown back to Cloud Tasks; a finished one is left).
 * 2. Resource by resource in the run's order, item page by item page from the checkpoint: every live
 *    version read back (`checkItem`), chunks read within the day by another resource's verification
 *    skipped, good chunks stamped `verifiedAt`. A checkpoint after every page; near the deadline the run
 *    checkpoints, gives its lease back and re-enqueues itself.
 * 3. At the end of a resource with damaged items, self-healing under the organisation's GC lock (no backup
 *    and no collector at work meanwhile): each item is read again (damage seen while a collector pruned a
 *    version is not damage), then each damaged chunk's index entry and the broken objects are removed,
 *    index entry first (an entry without its object would let a backup reuse a chunk that is gone; an
 *    object without an entry is rewritten by the next upload, which is write-once: the broken object has to
 *    be gone before it). The items are marked so the resource's next backup fetches them again from Google
 *    (`refetch: "pending"`). When the lock cannot be had (a collection or a backup at work), the run waits
 *    (checkpointed, lease given back) and the dispatcher delivers it again.
 * 4. The resource's result (`lastVerifiedAt`, `integrity`); for damage, an alert and an audit entry naming
 *    the items (keyed by run and resource, so a repeated delivery writes them once).
 * Logs hold counts only: no names, no object names.
 */
import { randomUUID } from "node:crypto";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { BACKUP_FAILURE_REASONS } from "@alpvault/contracts/backups";
import {
  MAX_NAMED_DAMAGED_ITEMS,
  damagedAlertText,
  type ResourceIntegrity,
  type VerifyRun,
} from "@alpvault/contracts/integrity";
import { appendAudit } from "../../audit/service";
import * as logs from "../../logs";
import { openStretch, type Stretch, type StretchDeps } from "../../lib/stretch";
import type { Scope } from "../../lib/tenancy";
import { organizationServedIn } from "../../organizations/service";
import type { RegionId } from "@alpvault/contracts/regions";
import { putAlert } from "../../resources/service";
import { isBlobStoreError, type BlobStore } from "../../engine/blobstore/blob-store";
import type { DerivedKeys } from "../../engine/format/keys";
import type { CatalogKeyring, CatalogScope } from "../catalog/sealed-documents";
import type { EnqueueVerify, VerifyTask } from "../queue";
import { backupsRunning, releaseLock, takeLock } from "../retention/repo";
import { failureReasonOf } from "../../engine/runner/run-backup";
import { checkItem, isDamaged, type ChunkMemory } from "../../engine/verify/check";
import { CHUNK_FRESH_MS } from "../../engine/verify/plan";
import {
  freshChunks,
  itemPage,
  itemVersions,
  markChunksVerified,
  readVerifyResource,
  recordResourceIntegrity,
  removeChunkRefs,
} from "./repo";
import {
  VerifyLeaseLostError,
  finishVerifyRun,
  readVerifyRun,
  saveVerifyCheckpoint,
  takeVerifyLease,
  type DamageRecord,
  type VerifyRunRecord,
} from "./runs-repo";

/** Items read per page (and per checkpoint). */
const ITEM_PAGE = 50;
/** Chunk verification results remembered per delivery. */
const MEMORY_LIMIT = 200_000;

export interface VerifyDeps extends StretchDeps<VerifyTask> {
  blobStore(regionId: RegionId): BlobStore;
  /** The derived keys of a data key of the organisation (`dataKeyResolver`). */
  keys(scope: Scope): (dataKeyId: string) => Promise<DerivedKeys>;
  /** The organisation's catalog keys (`catalogKeyring`): item names of catalog format v2 are sealed. */
  keyring(scope: Scope): Promise<CatalogKeyring>;
  enqueue: EnqueueVerify;
}

export type VerifyOutcome = "dropped" | "continued" | "waiting" | "succeeded" | "failed" | "lease-lost";

/** A run another worker holds: thrown so that Cloud Tasks delivers the task again later. */
export class VerifyLeasedError extends Error {
  constructor(runId: string) {
    super(`Verification run ${runId} is held by another worker; retry later`);
    this.name = "VerifyLeasedError";
  }
}

/** What one delivery of a verification run works with, and where it stands. */
interface Verification {
  stretch: Stretch<Scope, VerifyRunRecord>;
  task: VerifyTask;
  blobStore: BlobStore;
  keys: (dataKeyId: string) => Promise<DerivedKeys>;
  /** The scope with the catalog's keys, opened on the first page read. */
  catalog(): Promise<CatalogScope>;
  progress: VerifyRun["progress"];
  position: VerifyRunRecord["position"];
  /** What the resource in hand has found so far. */
  current: VerifyRunRecord["current"];
  memory: ChunkMemory;
  iso(): string;
  checkpoint(options?: { release?: boolean; waitingSince?: string | null }): Promise<void>;
}

export async function executeVerifyTask(task: VerifyTask, deps: VerifyDeps): Promise<VerifyOutcome> {
  const stretch = await openStretch(task, deps, {
    organization: organizationServedIn,
    lease: async (scope, holder, until, now) => {
      const lease = await takeVerifyLease(scope, task.runId, holder, until, now);
      if (lease === "held-by-another") throw new VerifyLeasedError(task.runId);
      if (lease !== "taken") return undefined;
      return (await readVerifyRun(scope, task.runId)) as VerifyRunRecord;
    },
  });
  if (!stretch) return "dropped";
  const { scope, run, now, holder } = stretch;
  const iso = (): string => new Date(now()).toISOString();
  let catalog: Promise<CatalogScope> | undefined;
  const verification: Verification = {
    stretch,
    task,
    blobStore: deps.blobStore(scope.regionId),
    keys: deps.keys(scope),
    catalog: () => (catalog ??= deps.keyring(scope).then((keyring) => ({ ...scope, keyring }))),
    progress: { ...run.progress },
    position: { ...run.position },
    current: { ...run.current, damaged: [...run.current.damaged] },
    memory: { read: new Map(), fresh: new Set() },
    iso,
    checkpoint: (options = {}) =>
      saveVerifyCheckpoint(
        scope,
        task.runId,
        holder,
        {
          position: verification.position,
          progress: verification.progress,
          current: verification.current,
          waitingSince: options.waitingSince ?? null,
        },
        iso(),
        options.release === true,
      ),
  };
  const { progress } = verification;

  try {
    while (verification.position.index < run.resourceIds.length) {
      const outcome = await verifyResource(verification, run.resourceIds[verification.position.index]!);
      if (outcome !== "done") {
        logs.verifyTaskEnded({
          organizationId: scope.organizationId,
          runId: task.runId,
          outcome,
          ...progress,
        });
        return outcome;
      }
    }
    await finishVerifyRun(scope, task.runId, holder, { state: "succeeded" }, progress, iso());
    logs.verifyTaskEnded({
      organizationId: scope.organizationId,
      runId: task.runId,
      outcome: "succeeded",
      ...progress,
    });
    return "succeeded";
  } catch (error) {
    if (error instanceof VerifyLeaseLostError) return "lease-lost";
    const reason = BACKUP_FAILURE_REASONS[failureReasonOf(error)];
    logs.verifyFailed({ organizationId: scope.organizationId, runId: task.runId, error });
    try {
      await finishVerifyRun(
        scope,
        task.runId,
        holder,
        { state: "failed", failureReason: reason },
        progress,
        iso(),
      );
    } catch (finishError) {
      if (finishError instanceof VerifyLeaseLostError) return "lease-lost";
      throw finishError;
    }
    return "failed";
  }
}

/**
 * One resource from the position reached: its item pages, then healing and its result. "done" when the
 * position moved to the next resource; "continued" when the deadline handed the rest over; "waiting" when
 * healing must wait for the GC lock (checkpointed, lease given back).
 */
async function verifyResource(
  verification: Verification,
  resourceId: string,
): Promise<"done" | "continued" | "dropped" | "waiting"> {
  const { stretch, task, progress } = verification;
  const { scope, run } = stretch;
  const resource = await readVerifyResource(scope, resourceId);
  let done = resource === undefined;
  while (!done) {
    if (stretch.late()) {
      // The checkpoint throws when the lease is lost: the hand-over is never "dropped" here.
      return stretch.handOver(() => verification.checkpoint({ release: true }));
    }
    done = await verifyPage(verification, resourceId);
    await verification.checkpoint();
  }
  if (resource) {
    const { current } = verification;
    if (current.damaged.length > 0) {
      const healed = await heal(
        scope,
        verification.blobStore,
        verification.keys,
        resourceId,
        current.damaged,
        stretch.now,
      );
      if (healed === "waiting") {
        await verification.checkpoint({
          release: true,
          waitingSince: run.waitingSince ?? verification.iso(),
        });
        return "waiting";
      }
      const dropped = current.damaged.length - healed.length;
      verification.current = { ...current, damaged: healed, damagedItems: current.damagedItems - dropped };
    }
    await recordResult(
      scope,
      task.runId,
      resource.name,
      resource.email,
      resourceId,
      verification.current,
      verification.iso(),
    );
    progress.damagedItems += verification.current.damagedItems;
  }
  progress.resourcesDone += 1;
  verification.position = { index: verification.position.index + 1, afterItem: null };
  verification.current = { checkedItems: 0, damagedItems: 0, damaged: [] };
  await verification.checkpoint();
  return "done";
}

/** Reads back one page of the resource's items from the position; true when it was the last page. */
async function verifyPage(verification: Verification, resourceId: string): Promise<boolean> {
  const { stretch, memory, progress, current } = verification;
  const { scope, now } = stretch;
  const page = await itemPage(
    await verification.catalog(),
    resourceId,
    verification.position.afterItem,
    ITEM_PAGE,
  );
  const chunkIds = page.flatMap((item) =>
    item.versions.flatMap((version) => ("chunks" in version ? version.chunks.map((chunk) => chunk.id) : [])),
  );
  const fresh = await freshChunks(
    scope,
    chunkIds.filter((id) => !memory.read.has(id)),
    new Date(now() - CHUNK_FRESH_MS).toISOString(),
  );
  for (const id of fresh) memory.fresh.add(id);
  const good: string[] = [];
  for (const item of page) {
    const check = await checkItem({
      blobStore: verification.blobStore,
      organizationId: scope.organizationId,
      keys: verification.keys,
      versions: item.versions,
      memory,
    });
    progress.objectsRead += check.objectsRead;
    progress.bytesRead += check.bytesRead;
    good.push(...check.goodChunks);
    current.checkedItems += 1;
    progress.checkedItems += 1;
    if (isDamaged(check)) {
      current.damagedItems += 1;
      if (current.damaged.length < MAX_NAMED_DAMAGED_ITEMS) {
        current.damaged.push({
          itemKey: item.itemKey,
          kind: item.kind,
          name: item.name,
          brokenObjects: check.brokenObjects,
          brokenChunks: check.brokenChunks,
        });
      }
    }
  }
  await markChunksVerified(scope, good, verification.iso());
  if (memory.read.size > MEMORY_LIMIT) memory.read.clear();
  verification.position = {
    ...verification.position,
    afterItem: page.length > 0 ? page[page.length - 1]!.docId : verification.position.afterItem,
  };
  return page.length < ITEM_PAGE;
}

/**
 * Confirms and heals a resource's damaged items under the GC lock: the items still damaged, with their
 * broken chunks' index entries and objects removed; "waiting" when the lock cannot be had now.
 */
async function heal(
  scope: Scope,
  blobStore: BlobStore,
  keys: (dataKeyId: string) => Promise<DerivedKeys>,
  resourceId: string,
  damaged: DamageRecord[],
  now: () => number,
): Promise<DamageRecord[] | "waiting"> {
  const holder = `verify-${randomUUID()}`;
  if (!(await takeLock(scope, holder, new Date(now())))) return "waiting";
  try {
    if (await backupsRunning(scope, new Date(now()))) {
      await releaseLock(scope, holder, {});
      return "waiting";
    }
    const confirmed: DamageRecord[] = [];
    for (const record of damaged) {
      // A second look with nothing remembered: a version pruned meanwhile is not damage.
      const check = await checkItem({
        blobStore,
        organizationId: scope.organizationId,
        keys,
        versions: await itemVersions(scope, resourceId, record.itemKey),
        memory: { read: new Map(), fresh: new Set() },
      });
      if (!isDamaged(check)) continue;
      confirmed.push({ ...record, brokenObjects: check.brokenObjects, brokenChunks: check.brokenChunks });
    }
    // Index entries first, then the objects (see the header).
    await removeChunkRefs(scope, [...new Set(confirmed.flatMap((record) => record.brokenChunks))]);
    for (const name of new Set(confirmed.flatMap((record) => record.brokenObjects))) {
      try {
        await blobStore.delete(name);
      } catch (error) {
        if (!isBlobStoreError(error, "not-found")) throw error;
      }
    }
    await releaseLock(scope, holder, {});
    return confirmed;
  } catch (error) {
    await releaseLock(scope, holder, {}).catch(() => undefined);
    throw error;
  }
}

/** The resource's result, and for damage its alert and audit entry (keyed by run and resource). */
async function recordResult(
  scope: Scope,
  runId: string,
  name: string,
  email: string | null,
  resourceId: string,
  current: VerifyRunRecord["current"],
  verifiedAt: string,
): Promise<void> {
  const integrity: ResourceIntegrity = {
    state: current.damagedItems > 0 ? "damaged" : "ok",
    checkedItems: current.checkedItems,
    damagedItems: current.damagedItems,
    verifiedAt,
    damaged: current.damaged.map((record) => ({
      itemKey: record.itemKey,
      kind: record.kind,
      name: record.name,
      refetch: "pending" as const,
    })),
  };
  await recordResourceIntegrity(scope, resourceId, integrity);
  if (integrity.state !== "damaged") return;
  const resourceName = email ?? name;
  const names = integrity.damaged.map((item) => item.name);
  await putAlert(scope, `integrity-damaged-${runId}-${resourceId}`, {
    createdAt: verifiedAt,
    kind: "integrity-damaged",
    message: damagedAlertText(resourceName, integrity.damagedItems, names),
    read: false,
  });
  await appendAudit(scope, {
    operation: "integrity.damaged",
    actor: SYSTEM_ACTOR,
    object: resourceName,
    failureReason:
      `${integrity.damagedItems} damaged item${integrity.damagedItems === 1 ? "" : "s"}: ${names.join(", ")}`.slice(
        0,
        1000,
      ),
    date: new Date(verifiedAt),
    key: `integrity-damaged-${runId}-${resourceId}`,
  });
}
