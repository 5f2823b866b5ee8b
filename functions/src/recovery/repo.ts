/**
 * Recoveries of one organisation in its region database: `organizations/{id}/recoveries/{recoveryId}`
 * (state, options, progress, the position reached, a lease), `…/recoveries/{id}/ledger/{itemDocId}` (what
 * was restored where: a retried or resumed recovery never restores an item twice) and
 * `recoveryLocks/{targetResourceId}` (one recovery per target resource at a time).
 */
import { FieldPath } from "firebase-admin/firestore";
import type { Recovery, RecoveryProgress } from "@alpvault/contracts/recovery";
import type { RecoveryRequest } from "@alpvault/contracts/recovery-request";
import { searchDateEnd } from "@alpvault/contracts/search";
import { catalogDocId } from "../engine/runner/catalog-ids";
import { leaseRun } from "../lib/run-lease";
import { organizationRef, type Scope } from "../lib/tenancy";

/** What a recovery records of its progress (the API adds its pace and time left while it runs). */
export type StoredProgress = Pick<
  RecoveryProgress,
  "total" | "restored" | "skipped" | "failed" | "bytes" | "totalBytes"
>;

export interface StoredRecovery extends Omit<Recovery, "progress"> {
  progress: StoredProgress;
  permissions: boolean;
  itemIds: string[] | null;
  requestedBy: string;
  /**
   * Explicit items: how many are done; all items: the last item key done. `bytes`: the source bytes of the
   * items settled (restored, skipped or failed), for the bytes left.
   */
  position: { index: number; lastItemKey: string | null; bytes: number };
  lease: { holder: string; until: string } | null;
  /** When a worker first took it (its pace is measured from then). */
  startedAt: string | null;
}

function recoveries(scope: Scope) {
  return organizationRef(scope).collection("recoveries");
}

function lockRef(scope: Scope, targetResourceId: string) {
  return organizationRef(scope).collection("recoveryLocks").doc(targetResourceId);
}

export function decodeRecovery(
  id: string,
  data: Record<string, unknown> | undefined,
): StoredRecovery | undefined {
  if (!data || typeof data.state !== "string") return undefined;
  const stored = data as unknown as StoredRecovery;
  // Recoveries written before bytes were counted read as none counted.
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
  return {
    ...stored,
    recoveryId: id,
    progress: {
      ...stored.progress,
      bytes: count(stored.progress.bytes),
      totalBytes: count(stored.progress.totalBytes),
    },
    position: { ...stored.position, bytes: count(stored.position?.bytes) },
    startedAt: typeof stored.startedAt === "string" ? stored.startedAt : null,
  };
}

export async function readRecovery(scope: Scope, recoveryId: string): Promise<StoredRecovery | undefined> {
  const snapshot = await recoveries(scope).doc(recoveryId).get();
  return decodeRecovery(snapshot.id, snapshot.data());
}

/**
 * The newest recoveries of a resource, from it or to it (two queries, `resourceId` and `targetResourceId`
 * each with `requestedAt` descending), merged newest first.
 */
export async function recoveriesOfResource(
  scope: Scope,
  resourceId: string,
  limit: number,
): Promise<StoredRecovery[]> {
  const newest = (field: "resourceId" | "targetResourceId") =>
    recoveries(scope).where(field, "==", resourceId).orderBy("requestedAt", "desc").limit(limit).get();
  const [from, to] = await Promise.all([newest("resourceId"), newest("targetResourceId")]);
  const byId = new Map<string, StoredRecovery>();
  for (const doc of [...from.docs, ...to.docs]) {
    const recovery = decodeRecovery(doc.id, doc.data());
    if (recovery) byId.set(doc.id, recovery);
  }
  return [...byId.values()]
    .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt) || a.recoveryId.localeCompare(b.recoveryId))
    .slice(0, limit);
}

/**
 * Writes a pending recovery and takes its target's lock, in one transaction; `busy` when another recovery of
 * the same target is pending or running.
 */
export async function createRecovery(
  scope: Scope,
  request: RecoveryRequest & { targetResourceId: string },
  requestedBy: string,
  now: Date,
  /** The items (chosen, or held at the date for a whole resource) and their bytes. */
  totals: { items: number; bytes: number },
): Promise<{ kind: "created"; recovery: StoredRecovery } | { kind: "busy" }> {
  const db = organizationRef(scope).firestore;
  return db.runTransaction(async (transaction) => {
    const lock = await transaction.get(lockRef(scope, request.targetResourceId));
    const holder = lock.get("recoveryId") as unknown;
    if (typeof holder === "string") {
      const active = await transaction.get(recoveries(scope).doc(holder));
      const state = active.get("state") as unknown;
      if (state === "pending" || state === "running") return { kind: "busy" as const };
    }
    const ref = recoveries(scope).doc();
    const recovery: Omit<StoredRecovery, "recoveryId"> = {
      state: "pending",
      service: request.service as StoredRecovery["service"],
      resourceId: request.resourceId,
      targetResourceId: request.targetResourceId,
      method: request.method as StoredRecovery["method"],
      folderName: request.method === "folder" ? (request.folderName ?? null) : null,
      asOf: request.date ? (searchDateEnd(request.date) ?? null) : null,
      permissions: request.permissions === true,
      itemIds: request.itemIds ?? null,
      requestedAt: now.toISOString(),
      requestedBy,
      finishedAt: null,
      progress: {
        total: request.itemIds?.length ?? totals.items,
        restored: 0,
        skipped: 0,
        failed: 0,
        bytes: 0,
        totalBytes: totals.bytes,
      },
      problems: [],
      failureReason: null,
      position: { index: 0, lastItemKey: null, bytes: 0 },
      lease: null,
      startedAt: null,
    };
    transaction.create(ref, recovery);
    transaction.set(lockRef(scope, request.targetResourceId), { recoveryId: ref.id, at: now.toISOString() });
    return { kind: "created" as const, recovery: { ...recovery, recoveryId: ref.id } };
  });
}

/** Takes the recovery's lease (a pending one starts running): false when finished or held by another. */
export async function takeRecoveryLease(
  scope: Scope,
  recoveryId: string,
  holder: string,
  until: string,
  now: string,
): Promise<StoredRecovery | undefined> {
  return leaseRun(
    recoveries(scope).doc(recoveryId),
    {
      decode: (data) => decodeRecovery(recoveryId, data),
      open: (recovery) => recovery.state !== "succeeded" && recovery.state !== "failed",
      alsoWrite: (recovery, at) => (recovery.startedAt ? {} : { startedAt: at }),
    },
    holder,
    until,
    now,
  );
}

/** The organisation's recoveries pending or running, with their target. */
export async function activeRecoveries(
  scope: Scope,
): Promise<{ recoveryId: string; targetResourceId: string; state: "pending" | "running" }[]> {
  const snapshot = await recoveries(scope).where("state", "in", ["pending", "running"]).get();
  return snapshot.docs.map((doc) => ({
    recoveryId: doc.id,
    targetResourceId: String(doc.get("targetResourceId")),
    state: doc.get("state") === "running" ? "running" : "pending",
  }));
}

/** Saves progress and position (only while `holder` holds the lease). */
export async function saveRecoveryProgress(
  scope: Scope,
  recovery: Pick<StoredRecovery, "recoveryId" | "progress" | "position" | "problems">,
  holder: string,
): Promise<boolean> {
  const ref = recoveries(scope).doc(recovery.recoveryId);
  return ref.firestore.runTransaction(async (transaction) => {
    const current = decodeRecovery(recovery.recoveryId, (await transaction.get(ref)).data());
    if (current?.lease?.holder !== holder || current.state !== "running") return false;
    transaction.update(ref, {
      progress: recovery.progress,
      position: recovery.position,
      problems: recovery.problems ?? [],
    });
    return true;
  });
}

/** Gives the lease up (the re-enqueued task goes on). */
export async function releaseRecoveryLease(scope: Scope, recoveryId: string, holder: string): Promise<void> {
  const ref = recoveries(scope).doc(recoveryId);
  await ref.firestore.runTransaction(async (transaction) => {
    const current = decodeRecovery(recoveryId, (await transaction.get(ref)).data());
    if (current?.lease?.holder === holder) transaction.update(ref, { lease: null });
  });
}

/** Ends the recovery and frees its target. */
export async function finishRecovery(
  scope: Scope,
  recovery: StoredRecovery,
  outcome: { state: "succeeded" } | { state: "failed"; failureReason: string },
  now: Date,
): Promise<void> {
  const ref = recoveries(scope).doc(recovery.recoveryId);
  await ref.firestore.runTransaction(async (transaction) => {
    const lock = await transaction.get(lockRef(scope, recovery.targetResourceId));
    transaction.update(ref, {
      state: outcome.state,
      failureReason: outcome.state === "failed" ? outcome.failureReason : null,
      finishedAt: now.toISOString(),
      lease: null,
      progress: recovery.progress,
      position: recovery.position,
      problems: recovery.problems ?? [],
    });
    if (lock.get("recoveryId") === recovery.recoveryId) transaction.delete(lock.ref);
  });
}

/**
 * One item of a recovery: "importing" before the import, "done" after it (with `reason` when the item was
 * already there and left as it was), or "skipped"/"failed" with why. The report lists them all.
 */
export interface LedgerEntry {
  state: "importing" | "done" | "skipped" | "failed";
  targetId?: string;
  reason?: string;
  /** The message's subject or the file's name, for the report. */
  name?: string;
}

function ledger(scope: Scope, recoveryId: string) {
  return recoveries(scope).doc(recoveryId).collection("ledger");
}

const ledgerDocId = (itemKey: string) => catalogDocId(itemKey);

export async function readLedger(
  scope: Scope,
  recoveryId: string,
  itemKey: string,
): Promise<LedgerEntry | undefined> {
  return (await ledger(scope, recoveryId).doc(ledgerDocId(itemKey)).get()).data() as LedgerEntry | undefined;
}

export async function writeLedger(
  scope: Scope,
  recoveryId: string,
  itemKey: string,
  entry: LedgerEntry,
): Promise<void> {
  await ledger(scope, recoveryId)
    .doc(ledgerDocId(itemKey))
    .set({ itemKey, ...entry });
}

/** Every ledger entry of a recovery, in pages (for the report). */
export async function* ledgerEntries(
  scope: Scope,
  recoveryId: string,
  pageSize = 500,
): AsyncGenerator<LedgerEntry & { itemKey: string }> {
  let after: string | undefined;
  for (;;) {
    let query = ledger(scope, recoveryId).orderBy(FieldPath.documentId()).limit(pageSize);
    if (after) query = query.startAfter(after);
    const page = await query.get();
    for (const doc of page.docs) {
      const data = doc.data() as Partial<LedgerEntry> & { itemKey?: unknown };
      if (typeof data.itemKey !== "string" || typeof data.state !== "string") continue;
      yield { ...(data as LedgerEntry), itemKey: data.itemKey };
    }
    if (page.size < pageSize) return;
    after = page.docs[page.docs.length - 1]!.id;
  }
}
