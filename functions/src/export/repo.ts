/**
 * Export jobs of one organisation in its region database: `organizations/{id}/exports/{exportId}` (state,
 * options, progress, the checkpoint reached, a lease), `…/exports/{id}/problems/{itemDocId}` (every item
 * left out, with why: the report) and `…/exports/{id}/checkpoint/tail` (the bytes after the last full
 * upload block at the checkpoint, under 256 KiB).
 */
import { FieldPath } from "firebase-admin/firestore";
import type { ExportFormat, ExportProblem, ExportService } from "@alpvault/contracts/exports";
import { catalogDocId } from "../engine/runner/catalog-ids";
import { leaseRun } from "../lib/run-lease";
import { decodeDocument, readableDocument, readableDocuments } from "../lib/stored";
import { organizationRef, type Scope } from "../lib/tenancy";
import {
  EXPORT,
  EXPORT_PROBLEM,
  EXPORT_TAIL,
  type ExportCheckpoint,
  type StoredExport,
  type StoredExportProgress,
} from "./documents";

export type { ExportCheckpoint, StoredExport, StoredExportProgress };

function exportsOf(scope: Scope) {
  return organizationRef(scope).collection("exports");
}

export function newExportId(scope: Scope): string {
  return exportsOf(scope).doc().id;
}

export const EMPTY_CHECKPOINT: ExportCheckpoint = {
  session: null,
  uploaded: 0,
  tail: 0,
  index: 0,
  lastItemKey: null,
  entries: 0,
  directoryParts: 0,
  directoryBytes: 0,
  sourceBytes: 0,
  format: null,
};

export async function createExport(
  scope: Scope,
  job: {
    exportId: string;
    service: ExportService;
    format: ExportFormat;
    resourceId: string;
    resourceName: string;
    fileName: string;
    objectName: string;
    itemIds: string[] | null;
    asOf: string | null;
    within: string | null;
    requestedBy: string;
  },
  now: Date,
  /** The items held (a whole resource's count; named items: as many as named) and their bytes. */
  totals: { items: number; bytes: number },
): Promise<StoredExport> {
  const stored: Omit<StoredExport, "exportId"> = {
    ...job,
    state: "pending",
    requestedAt: now.toISOString(),
    finishedAt: null,
    expiresAt: null,
    progress: {
      total: job.itemIds?.length ?? totals.items,
      exported: 0,
      failed: 0,
      bytes: 0,
      totalBytes: totals.bytes,
    },
    startedAt: null,
    failureReason: null,
    problems: [],
    downloads: 0,
    lastDownloadedAt: null,
    checkpoint: EMPTY_CHECKPOINT,
    lease: null,
    deliveries: 0,
  };
  const { exportId, ...data } = stored as StoredExport;
  void exportId;
  await exportsOf(scope).doc(job.exportId).create(data);
  return { ...stored, exportId: job.exportId };
}

export async function readExport(scope: Scope, exportId: string): Promise<StoredExport | undefined> {
  return decodeDocument(EXPORT, await exportsOf(scope).doc(exportId).get());
}

/**
 * The organisation's exports (of one resource when `resourceId` is given), newest first; one that does
 * not decode is left out (logged).
 */
export async function listExports(scope: Scope, limit: number, resourceId?: string): Promise<StoredExport[]> {
  const query = resourceId ? exportsOf(scope).where("resourceId", "==", resourceId) : exportsOf(scope);
  const snapshot = await query.orderBy("requestedAt", "desc").limit(limit).get();
  return readableDocuments(EXPORT, snapshot.docs);
}

/** Finished exports whose time is up (succeeded or failed, expiring before `now`; one that does not decode is left out, logged). */
export async function expiredExports(scope: Scope, now: string, limit: number): Promise<StoredExport[]> {
  const snapshot = await exportsOf(scope)
    .where("state", "in", ["succeeded", "failed"])
    .where("expiresAt", "<", now)
    .limit(limit)
    .get();
  return readableDocuments(EXPORT, snapshot.docs);
}

/** Takes the export's lease (a pending one starts running): undefined when finished or held by another. */
export async function takeExportLease(
  scope: Scope,
  exportId: string,
  holder: string,
  until: string,
  now: string,
): Promise<StoredExport | undefined> {
  return leaseRun(
    exportsOf(scope).doc(exportId),
    {
      decode: (snapshot) => decodeDocument(EXPORT, snapshot),
      open: (job) => job.state === "pending" || job.state === "running",
      alsoWrite: (job, at) => ({
        deliveries: job.deliveries + 1,
        ...(job.startedAt ? {} : { startedAt: at }),
      }),
    },
    holder,
    until,
    now,
  );
}

function tailRef(scope: Scope, exportId: string) {
  return exportsOf(scope).doc(exportId).collection("checkpoint").doc("tail");
}

export async function readExportTail(scope: Scope, exportId: string): Promise<Buffer> {
  const bytes = decodeDocument(EXPORT_TAIL, await tailRef(scope, exportId).get())?.bytes;
  return bytes ? Buffer.from(bytes) : Buffer.alloc(0);
}

/**
 * Saves the checkpoint, the tail and the progress in one transaction, only while `holder` holds the lease:
 * false when it lost it (the delivery stops without touching anything more).
 */
export async function saveExportCheckpoint(
  scope: Scope,
  job: Pick<StoredExport, "exportId" | "checkpoint" | "progress" | "problems">,
  tail: Buffer,
  holder: string,
): Promise<boolean> {
  const ref = exportsOf(scope).doc(job.exportId);
  return ref.firestore.runTransaction(async (transaction) => {
    const current = decodeDocument(EXPORT, await transaction.get(ref));
    if (current?.lease?.holder !== holder || current.state !== "running") return false;
    transaction.update(ref, {
      checkpoint: { ...job.checkpoint, tail: tail.length },
      progress: job.progress,
      problems: job.problems,
    });
    transaction.set(tailRef(scope, job.exportId), { bytes: tail });
    return true;
  });
}

/** Gives the lease up (the re-enqueued task goes on). */
export async function releaseExportLease(scope: Scope, exportId: string, holder: string): Promise<void> {
  const ref = exportsOf(scope).doc(exportId);
  await ref.firestore.runTransaction(async (transaction) => {
    const current = decodeDocument(EXPORT, await transaction.get(ref));
    if (current?.lease?.holder === holder) transaction.update(ref, { lease: null });
  });
}

/** Ends the export (only while `holder` holds the lease, when given). */
export async function finishExport(
  scope: Scope,
  job: StoredExport,
  outcome:
    { state: "succeeded"; expiresAt: string } | { state: "failed"; failureReason: string; expiresAt: string },
  now: Date,
  holder?: string,
): Promise<boolean> {
  const ref = exportsOf(scope).doc(job.exportId);
  return ref.firestore.runTransaction(async (transaction) => {
    const current = decodeDocument(EXPORT, await transaction.get(ref));
    if (!current || current.state === "succeeded" || current.state === "failed") return false;
    if (holder && current.lease?.holder !== holder) return false;
    transaction.update(ref, {
      state: outcome.state,
      failureReason: outcome.state === "failed" ? outcome.failureReason : null,
      finishedAt: now.toISOString(),
      expiresAt: outcome.expiresAt,
      lease: null,
      progress: job.progress,
      problems: job.problems,
      checkpoint: job.checkpoint,
    });
    transaction.delete(tailRef(scope, job.exportId));
    return true;
  });
}

/** Marks a finished export expired (its objects are deleted first). */
export async function markExportExpired(scope: Scope, exportId: string): Promise<void> {
  await exportsOf(scope).doc(exportId).update({ state: "expired" });
}

/** Counts a download link handed out. */
export async function recordExportDownload(
  scope: Scope,
  exportId: string,
  now: Date,
): Promise<StoredExport | undefined> {
  const ref = exportsOf(scope).doc(exportId);
  return ref.firestore.runTransaction(async (transaction) => {
    const job = decodeDocument(EXPORT, await transaction.get(ref));
    if (!job || job.state !== "succeeded") return job;
    const downloads = job.downloads + 1;
    transaction.update(ref, { downloads, lastDownloadedAt: now.toISOString() });
    return { ...job, downloads, lastDownloadedAt: now.toISOString() };
  });
}

function problemsOf(scope: Scope, exportId: string) {
  return exportsOf(scope).doc(exportId).collection("problems");
}

export async function writeExportProblem(
  scope: Scope,
  exportId: string,
  problem: ExportProblem,
): Promise<void> {
  await problemsOf(scope, exportId).doc(catalogDocId(problem.itemKey)).set(problem);
}

/** Every item left out of an export, in pages (for the report); one that does not decode is left out (logged). */
export async function* exportProblems(
  scope: Scope,
  exportId: string,
  pageSize = 500,
): AsyncGenerator<ExportProblem> {
  let after: string | undefined;
  for (;;) {
    let query = problemsOf(scope, exportId).orderBy(FieldPath.documentId()).limit(pageSize);
    if (after) query = query.startAfter(after);
    const page = await query.get();
    for (const doc of page.docs) {
      const problem = readableDocument(EXPORT_PROBLEM, doc);
      if (problem) yield problem;
    }
    if (page.size < pageSize) return;
    after = page.docs[page.docs.length - 1]!.id;
  }
}
