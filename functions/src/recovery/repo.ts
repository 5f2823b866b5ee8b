/**
 * Recoveries of one organisation in its region database: `organizations/{id}/recoveries/{recoveryId}`
 * (state, options, progress, the position reached, a lease), `…/recoveries/{id}/ledger/{itemDocId}` (what
 * was restored where: a retried or resumed recovery never restores an item twice) and
 * `recoveryLocks/{targetResourceId}` (one recovery per target resource at a time).
 */
import { randomBytes } from "node:crypto";
import { FieldPath } from "firebase-admin/firestore";
import type { RecoveryRequest } from "@alpvault/contracts/recovery-request";
import { searchDateEnd } from "@alpvault/contracts/search";
import { SERVICES } from "@alpvault/contracts/services";
import { catalogDocId } from "../engine/runner/catalog-ids";
import { leaseRun } from "../lib/run-lease";
import { decodeDocument, readableDocument, readableDocuments } from "../lib/stored";
import { organizationRef, type Scope } from "../lib/tenancy";
import {
  LEDGER_ENTRY,
  RECOVERY,
  RECOVERY_LOCK,
  type LedgerEntry,
  type StoredProgress,
  type StoredRecovery,
} from "./documents";

export type { LedgerEntry, StoredProgress, StoredRecovery };

function recoveries(scope: Scope) {
  return organizationRef(scope).collection("recoveries");
}

function lockRef(scope: Scope, targetResourceId: string) {
  return organizationRef(scope).collection("recoveryLocks").doc(targetResourceId);
}

export async function readRecovery(scope: Scope, recoveryId: string): Promise<StoredRecovery | undefined> {
  return decodeDocument(RECOVERY, await recoveries(scope).doc(recoveryId).get());
}

/**
 * The newest recoveries of a resource, from it or to it (two queries, `resourceId` and `targetResourceId`
 * each with `requestedAt` descending), merged newest first. One that does not decode is left out (logged).
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
  for (const recovery of readableDocuments(RECOVERY, [...from.docs, ...to.docs])) {
    byId.set(recovery.recoveryId, recovery);
  }
  return [...byId.values()]
    .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt) || a.recoveryId.localeCompare(b.recoveryId))
    .slice(0, limit);
}

/** The chosen items, in the order the service restores them in (item-key order for some). */
function chosenInOrder(service: StoredRecovery["service"], itemIds: string[] | undefined): string[] | null {
  if (!itemIds) return null;
  return SERVICES[service].restoresInKeyOrder ? [...itemIds].sort() : itemIds;
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
    const lock = decodeDocument(
      RECOVERY_LOCK,
      await transaction.get(lockRef(scope, request.targetResourceId)),
    );
    if (lock) {
      const state = decodeDocument(
        RECOVERY,
        await transaction.get(recoveries(scope).doc(lock.recoveryId)),
      )?.state;
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
      itemIds: chosenInOrder(request.service as StoredRecovery["service"], request.itemIds),
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
      tagSecret: randomBytes(32).toString("base64url"),
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
      decode: (snapshot) => decodeDocument(RECOVERY, snapshot),
      open: (recovery) => recovery.state !== "succeeded" && recovery.state !== "failed",
      alsoWrite: (recovery, at) => (recovery.startedAt ? {} : { startedAt: at }),
    },
    holder,
    until,
    now,
  );
}

/** The organisation's recoveries pending or running, with their target (one that does not decode is left out, logged). */
export async function activeRecoveries(
  scope: Scope,
): Promise<{ recoveryId: string; targetResourceId: string; state: "pending" | "running" }[]> {
  const snapshot = await recoveries(scope).where("state", "in", ["pending", "running"]).get();
  return readableDocuments(RECOVERY, snapshot.docs).map((recovery) => ({
    recoveryId: recovery.recoveryId,
    targetResourceId: recovery.targetResourceId,
    state: recovery.state === "running" ? "running" : "pending",
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
    const current = decodeDocument(RECOVERY, await transaction.get(ref));
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
    const current = decodeDocument(RECOVERY, await transaction.get(ref));
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
    const lockSnapshot = await transaction.get(lockRef(scope, recovery.targetResourceId));
    transaction.update(ref, {
      state: outcome.state,
      failureReason: outcome.state === "failed" ? outcome.failureReason : null,
      finishedAt: now.toISOString(),
      lease: null,
      progress: recovery.progress,
      position: recovery.position,
      problems: recovery.problems ?? [],
    });
    const lock = decodeDocument(RECOVERY_LOCK, lockSnapshot);
    if (lock?.recoveryId === recovery.recoveryId) transaction.delete(lockSnapshot.ref);
  });
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
  return decodeDocument(LEDGER_ENTRY, await ledger(scope, recoveryId).doc(ledgerDocId(itemKey)).get());
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

/** Every ledger entry of a recovery, in pages (for the report); one that does not decode is left out (logged). */
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
      const entry = readableDocument(LEDGER_ENTRY, doc);
      if (entry) yield entry;
    }
    if (page.size < pageSize) return;
    after = page.docs[page.docs.length - 1]!.id;
  }
}
