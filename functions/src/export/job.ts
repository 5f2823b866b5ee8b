/**
 * The export worker: one `runExport` task delivery writes (a stretch of) one export job's file into the
 * organisation's regional bucket. It takes the job's lease, opens (first delivery) or resumes the file's
 * resumable upload session, and walks the items from the checkpoint: each item is read from the backup,
 * checked (AEAD tag and chunk HMAC, docs/backup-format.md §3) and written by its format's writer
 * (formats/: an MBOX entry, an .eml or Drive file entry of a ZIP, a VEVENT of a calendar's iCalendar file in
 * a ZIP, a VCARD). An item whose stored objects are damaged or missing is left out and named
 * in the job's problems and report (and, in a ZIP, in a last entry); the export goes on.
 *
 * Bytes go to the bucket in 8 MiB requests (multiples of 256 KiB, as the protocol requires). At item
 * boundaries, every 64 MiB or 30 s, the worker checkpoints: it sends what fills whole 256 KiB blocks,
 * keeps the rest (the tail) in Firestore with the position, and, for a ZIP, writes the central directory
 * records of the entries since the last checkpoint as an object of their own. Near its deadline it
 * checkpoints and re-enqueues itself. A delivery that finds the session holding more than the checkpoint
 * says (a crash after a request, before its checkpoint) starts the file over with a new session: nothing
 * is ever appended twice. At the end the directory parts are joined, the last request completes the
 * object, and the job records its size, expiry (7 days) and outcome, audited.
 */
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { EXPORT_LIFETIME_DAYS } from "@alpvault/contracts/exports";
import type { RegionId } from "@alpvault/contracts/regions";
import { appendAudit } from "../audit/service";
import { catalogKeyring, dataKeyResolver, defaultKmsKeyName, type KeyWrappers } from "../backups/data-keys";
import type { EnqueueExport, ExportTask } from "./queue";
import { itemsAfter, itemsByKey } from "../backups/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { csvField } from "../lib/csv";
import { openStretch, type Stretch, type StretchDeps } from "../lib/stretch";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn } from "../organizations/service";
import { settleItem } from "./entries";
import { FORMAT_WRITERS } from "./formats";
import { exportKind, type ExportFile } from "./formats/format";
import { Output } from "./output";
import {
  EMPTY_CHECKPOINT,
  exportProblems,
  finishExport,
  readExportTail,
  releaseExportLease,
  saveExportCheckpoint,
  takeExportLease,
  type StoredExport,
} from "./repo";
import { EXPORT_REPORT_NAME } from "./service";
import { openUploadSession, uploadedBytes, UPLOAD_BLOCK, type UploadTarget } from "./upload";
import { ZipWriter } from "./zip";

export interface ExportDeps extends StretchDeps<ExportTask> {
  blobStore(regionId: RegionId): BlobStore;
  upload(regionId: RegionId): UploadTarget;
  wrappers: KeyWrappers;
  enqueue: EnqueueExport;
  /** Tests lower these to cross checkpoints and request boundaries with little data. */
  sizes?: { flushBytes?: number; checkpointBytes?: number };
}

const PAGE = 50;
const FLUSH_BYTES = 32 * UPLOAD_BLOCK; // 8 MiB
const CHECKPOINT_BYTES = 64 * 1024 * 1024;
const CHECKPOINT_MS = 30_000;
/** A job still unfinished after this many deliveries fails (a fault that retries cannot cure). */
const MAX_DELIVERIES = 500;

/** The directory part objects of an export (ZIP formats), beside its file. */
export function directoryPartName(objectName: string, part: number): string {
  return `${objectName}.d/${String(part).padStart(6, "0")}`;
}

type ExportStretch = Stretch<Scope, StoredExport>;

/** How a delivery records the job's end. */
interface Ending {
  stretch: ExportStretch;
  blobStore: BlobStore;
  audit(operation: "export.started" | "export.finished" | "export.failed", reason?: string): Promise<void>;
  expiresAt(): string;
}

export async function executeExport(
  task: ExportTask,
  deps: ExportDeps,
): Promise<"dropped" | "continued" | "succeeded" | "failed"> {
  const stretch = await openStretch(task, deps, {
    organization: organizationServedIn,
    lease: (scope, holder, until, now) => takeExportLease(scope, task.exportId, holder, until, now),
  });
  if (!stretch) return "dropped";
  const { scope, run: job, now, holder } = stretch;
  const ending: Ending = {
    stretch,
    blobStore: deps.blobStore(scope.regionId),
    audit: (operation, reason) =>
      appendAudit(scope, {
        operation,
        actor: job.requestedBy || SYSTEM_ACTOR,
        object: `${job.resourceName} (${job.format.toUpperCase()})`,
        failureReason: reason ?? null,
        date: new Date(now()),
        key: `${operation}-${job.exportId}`,
      }),
    expiresAt: () => new Date(now() + EXPORT_LIFETIME_DAYS * 86_400_000).toISOString(),
  };
  if (job.deliveries > MAX_DELIVERIES) {
    return fail(ending, "The export could not be completed. Start a new one.");
  }
  await ending.audit("export.started");

  const sizes = {
    flush: deps.sizes?.flushBytes ?? FLUSH_BYTES,
    checkpoint: deps.sizes?.checkpointBytes ?? CHECKPOINT_BYTES,
  };
  const output = await openOutput(stretch, deps.upload(scope.regionId), sizes.flush);
  // The last request went through, the job's end was not recorded: record it now.
  if (output === "complete") return complete(ending);
  const position = job.checkpoint;
  const file: ExportFile = {
    scope,
    job,
    blobStore: ending.blobStore,
    keys: dataKeyResolver(scope, deps.wrappers),
    output,
    zip: FORMAT_WRITERS[job.format].zip
      ? new ZipWriter({ offset: position.uploaded + position.tail })
      : undefined,
    taken: new Set(),
  };
  try {
    file.scope = { ...scope, keyring: await catalogKeyring(scope, deps.wrappers) };
    const walked = await writeItems(file, stretch, sizes.checkpoint);
    if (walked !== "done") return walked;
    await FORMAT_WRITERS[job.format].finish?.(file);
    if (file.zip) await finishZip(file, file.zip);
    job.progress.bytes = await output.finish();
    return await complete(ending);
  } catch (error) {
    logs.exportFailed({ organizationId: scope.organizationId, exportId: job.exportId, error });
    await releaseExportLease(scope, job.exportId, holder);
    throw error;
  }
}

/**
 * Where the file stands: resumed from the checkpoint, or (first delivery, or a session that holds bytes the
 * checkpoint does not know) started anew; "complete" when the session holds the whole object already.
 */
async function openOutput(
  stretch: ExportStretch,
  target: UploadTarget,
  flushBytes: number,
): Promise<Output | "complete"> {
  const { scope, run: job } = stretch;
  let tail: Buffer = Buffer.alloc(0);
  const checkpoint = job.checkpoint;
  let held: number | "complete" | undefined;
  if (checkpoint.session) held = await uploadedBytes(target, checkpoint.session);
  if (held === "complete") return "complete";
  if (!checkpoint.session || held !== checkpoint.uploaded) {
    if (checkpoint.session)
      logs.exportRestarted({ organizationId: scope.organizationId, exportId: job.exportId });
    job.checkpoint = {
      ...EMPTY_CHECKPOINT,
      // Under the organisation's Cloud KMS key when its default secret is one: the key protects the
      // exported copy as it protects the backups.
      session: await openUploadSession(
        target,
        job.objectName,
        {
          contentType: FORMAT_WRITERS[job.format].contentType,
          contentDisposition: `attachment; filename="${job.fileName}"`,
        },
        await defaultKmsKeyName(scope),
      ),
    };
    // The choice's totals stay: they were counted when the export was asked for.
    job.progress = { ...job.progress, exported: 0, failed: 0, bytes: 0 };
    job.problems = [];
  } else {
    tail = await readExportTail(scope, job.exportId);
  }
  const position = job.checkpoint;
  return new Output(target, position.session as string, position.uploaded, tail, flushBytes);
}

/**
 * Writes the items from the checkpoint, checkpointing when due: "done" at the end, "continued" when the
 * deadline handed the rest over, "dropped" when the lease was lost.
 */
async function writeItems(
  file: ExportFile,
  stretch: ExportStretch,
  checkpointBytes: number,
): Promise<"done" | "continued" | "dropped"> {
  const { scope, job, output } = file;
  const position = job.checkpoint;
  const last = { bytes: output.size, at: stretch.now() };
  /** After an item: a checkpoint when due; at the deadline, hands over to a new delivery. */
  const afterItem = async (): Promise<"go on" | "continued" | "dropped"> => {
    const due = output.size - last.bytes >= checkpointBytes || stretch.now() - last.at >= CHECKPOINT_MS;
    const late = stretch.late();
    if (!due && !late) return "go on";
    if (!(await saveCheckpoint(file, stretch, last))) return "dropped";
    if (!late) return "go on";
    return stretch.handOver(() => releaseExportLease(scope, job.exportId, stretch.holder), {
      id: `${job.exportId}-${job.deliveries}`,
    });
  };

  if (job.itemIds) {
    while (position.index < job.itemIds.length) {
      const keysPage = job.itemIds.slice(position.index, position.index + PAGE);
      const found = await itemsByKey(scope, job.resourceId, keysPage);
      for (const [offset, itemKey] of keysPage.entries()) {
        await settleItem(file, itemKey, found[offset]);
        position.index += 1;
        const next = await afterItem();
        if (next !== "go on") return next;
      }
    }
    return "done";
  }
  for (;;) {
    const page = await itemsAfter(scope, job.resourceId, exportKind(job), position.lastItemKey, PAGE);
    if (page.length === 0) {
      // A whole resource's total was counted when the export was asked for; now it is what was reached.
      job.progress.total = job.progress.exported + job.progress.failed;
      return "done";
    }
    for (const item of page) {
      await settleItem(file, item.itemKey, item);
      position.lastItemKey = item.itemKey;
      const next = await afterItem();
      if (next !== "go on") return next;
    }
  }
}

/**
 * Writes the directory records kept so far as an object, then the checkpoint (and marks when and at what
 * size it was taken). False: the lease is lost.
 */
async function saveCheckpoint(
  file: ExportFile,
  stretch: ExportStretch,
  last: { bytes: number; at: number },
): Promise<boolean> {
  const { job, output, zip } = file;
  const position = job.checkpoint;
  await output.flush();
  if (zip) {
    const { records, count } = zip.takeDirectory();
    if (count > 0) {
      position.entries += count;
      await file.blobStore.delete(directoryPartName(job.objectName, position.directoryParts));
      await file.blobStore.putIfAbsent(directoryPartName(job.objectName, position.directoryParts), records);
      position.directoryParts += 1;
      position.directoryBytes += records.length;
    }
  }
  position.uploaded = output.uploaded;
  job.progress.bytes = output.size;
  last.bytes = output.size;
  last.at = stretch.now();
  return saveExportCheckpoint(file.scope, job, output.tail(), stretch.holder);
}

/** A ZIP ends with the report of what was left out, then its central directory. */
async function finishZip(file: ExportFile, zip: ZipWriter): Promise<void> {
  const { job, output } = file;
  const position = job.checkpoint;
  if (job.progress.failed > 0) {
    const lines: string[] = ["item,name,reason"];
    for await (const problem of exportProblems(file.scope, job.exportId)) {
      lines.push([problem.itemKey, problem.name, problem.reason].map(csvField).join(","));
    }
    const report = Buffer.from([...lines, ""].join("\r\n"));
    for await (const piece of zip.entry(
      EXPORT_REPORT_NAME,
      [report],
      new Date(job.requestedAt),
      report.length,
    ))
      await output.write(piece);
  }
  const start = output.size;
  for (let part = 0; part < position.directoryParts; part++) {
    await output.write(await file.blobStore.get(directoryPartName(job.objectName, part)));
  }
  const rest = zip.takeDirectory();
  await output.write(rest.records);
  const count = position.entries + rest.count;
  await output.write(zip.endRecords({ count, start, size: position.directoryBytes + rest.records.length }));
}

/** Records the end; the directory parts are no longer needed. */
async function complete(ending: Ending): Promise<"succeeded" | "dropped"> {
  const { scope, run: job, now, holder } = ending.stretch;
  const outcome = { state: "succeeded" as const, expiresAt: ending.expiresAt() };
  if (!(await finishExport(scope, job, outcome, new Date(now()), holder))) return "dropped";
  for (let part = 0; part < job.checkpoint.directoryParts; part++) {
    await ending.blobStore.delete(directoryPartName(job.objectName, part));
  }
  await ending.audit(
    "export.finished",
    job.progress.failed > 0 ? `${job.progress.failed} items left out` : undefined,
  );
  logs.exportEnded({
    organizationId: scope.organizationId,
    exportId: job.exportId,
    state: "succeeded",
    ...job.progress,
  });
  return "succeeded";
}

/** Records that the job failed (only while this delivery holds its lease). */
async function fail(ending: Ending, failureReason: string): Promise<"failed"> {
  const { scope, run: job, now, holder } = ending.stretch;
  const outcome = { state: "failed" as const, failureReason, expiresAt: ending.expiresAt() };
  if (await finishExport(scope, job, outcome, new Date(now()), holder)) {
    await ending.audit("export.failed", failureReason);
    logs.exportEnded({
      organizationId: scope.organizationId,
      exportId: job.exportId,
      state: "failed",
      ...job.progress,
    });
  }
  return "failed";
}
