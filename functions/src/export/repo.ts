/**
 * Export jobs of one organisation in its region database: `organizations/{id}/exports/{exportId}` (state,
 * options, progress, the checkpoint reached, a lease), `…/exports/{id}/problems/{itemDocId}` (every item
 * left out, with why: the report) and `…/exports/{id}/checkpoint/tail` (the bytes after the last full
 * upload block at the checkpoint, under 256 KiB).
 */
import { FieldPath } from "firebase-admin/firestore";
import type { ExportFormat, ExportJob, ExportProgress, ExportService } from "@alpvault/contracts/exports";
import { catalogDocId } from "../engine/runner/catalog-ids";
import { leaseRun } from "../lib/run-lease";
import { organizationRef, type Scope } from "../lib/tenancy";

/**
 * Where a running export stands, saved at each checkpoint: what of the file is in the bucket (`uploaded`
 * bytes through the resumable session `session`, plus the tail document), and where the items stand.
 */
export interface ExportCheckpoint {
  /** The resumable upload session's URI (the upload's bytes go there across deliveries). */
  session: string | null;
  /** Bytes the session holds (a multiple of 256 KiB until the last request). */
  uploaded: number;
  /** The length of the tail kept in `checkpoint/tail` (the file so far = uploaded + tail). */
  tail: number;
  /** Explicit items: how many are settled; all items: the last item key settled. */
  index: number;
  lastItemKey: string | null;
  /** ZIP formats: entries written, and the central directory parts written as objects so far. */
  entries: number;
  directoryParts: number;
  directoryBytes: number;
  /** The source bytes of the items settled so far (written or left out), for the bytes left. */
  sourceBytes: number;
}

/** What an export records of its progress (the API adds its pace and time left while it runs). */
export type StoredExportProgress = Pick<
  ExportProgress,
  "total" | "exported" | "failed" | "bytes" | "totalBytes"
>;

export interface StoredExport extends Omit<ExportJob, "progress"> {
  progress: StoredExportProgress;
  /** When a delivery first took it (its pace is measured from then). */
  startedAt: string | null;
  itemIds: string[] | null;
  objectName: string;
  checkpoint: ExportCheckpoint;
  lease: { holder: string; until: string } | null;
  /** How many deliveries have worked on it. */
  deliveries: number;
}

function exportsOf(scope: Scope) {
  return organizationRef(scope).collection("exports");
}

function decodeExport(id: string, data: Record<string, unknown> | undefined): StoredExport | undefined {
  if (!data || typeof data.state !== "string" || typeof data.objectName !== "string") return undefined;
  const stored = data as unknown as StoredExport;
  // Exports written before source bytes were counted read as none counted.
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
  return {
    ...stored,
    exportId: id,
    progress: { ...stored.progress, totalBytes: count(stored.progress.totalBytes) },
    checkpoint: { ...stored.checkpoint, sourceBytes: count(stored.checkpoint?.sourceBytes) },
    startedAt: typeof stored.startedAt === "string" ? stored.startedAt : null,
  };
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
  const snapshot = await exportsOf(scope).doc(exportId).get();
  return decodeExport(snapshot.id, snapshot.data());
}

/** The organisation's exports (of one resource when `resourceId` is given), newest first. */
export async function listExports(scope: Scope, limit: number, resourceId?: string): Promise<StoredExport[]> {
  const query = resourceId ? exportsOf(scope).where("resourceId", "==", resourceId) : exportsOf(scope);
  const snapshot = await query.orderBy("requestedAt", "desc").limit(limit).get();
  return snapshot.docs.flatMap((doc) => decodeExport(doc.id, doc.data()) ?? []);
}

/** Finished exports whose time is up (succeeded or failed, expiring before `now`). */
export async function expiredExports(scope: Scope, now: string, limit: number): Promise<StoredExport[]> {
  const snapshot = await exportsOf(scope)
    .where("state", "in", ["succeeded", "failed"])
    .where("expiresAt", "<", now)
    .limit(limit)
    .get();
  return snapshot.docs.flatMap((doc) => decodeExport(doc.id, doc.data()) ?? []);
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
      decode: (data) => decodeExport(exportId, data),
      open: (job) => job.state === "pending" || job.state === "running",
      alsoWrite: (job, at) => ({
        deliveries: (job.deliveries ?? 0) + 1,
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
  const data = (await tailRef(scope, exportId).get()).data();
  const bytes = data?.bytes as unknown;
  return Buffer.isBuffer(bytes) ? bytes : bytes instanceof Uint8Array ? Buffer.from(bytes) : Buffer.alloc(0);
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
    const current = decodeExport(job.exportId, (await transaction.get(ref)).data());
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
    const current = decodeExport(exportId, (await transaction.get(ref)).data());
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
    const current = decodeExport(job.exportId, (await transaction.get(ref)).data());
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
    const job = decodeExport(exportId, (await transaction.get(ref)).data());
    if (!job || job.state !== "succeeded") return job;
    const downloads = (job.downloads ?? 0) + 1;
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
  problem: { itemKey: string; name: string; reason: string },
): Promise<void> {
  await problemsOf(scope, exportId).doc(catalogDocId(problem.itemKey)).set(problem);
}

/** Every item left out of an export, in pages (for the report). */
export async function* exportProblems(
  scope: Scope,
  exportId: string,
  pageSize = 500,
): AsyncGenerator<{ itemKey: string; name: string; reason: string }> {
  let after: string | undefined;
  for (;;) {
    let query = problemsOf(scope, exportId).orderBy(FieldPath.documentId()).limit(pageSize);
    if (after) query = query.startAfter(after);
    const page = await query.get();
    for (const doc of page.docs) {
      const data = doc.data() as { itemKey?: unknown; name?: unknown; reason?: unknown };
      if (typeof data.itemKey !== "string") continue;
      yield {
        itemKey: data.itemKey,
        name: typeof data.name === "string" ? data.name : "",
        reason: typeof data.reason === "string" ? data.reason : "",
      };
    }
    if (page.size < pageSize) return;
    after = page.docs[page.docs.length - 1]!.id;
  }
}
