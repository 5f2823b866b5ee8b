/**
 * The export worker: one `runExport` task delivery writes (a stretch of) one export job's file into the
 * organisation's regional bucket. It takes the job's lease, opens (first delivery) or resumes the file's
 * resumable upload session, and walks the items from the checkpoint: each item is read from the backup,
 * checked (AEAD tag and chunk HMAC, docs/backup-format.md §3) and written as an MBOX entry, an .eml entry or
 * a Drive file entry of a ZIP. An item whose stored objects are damaged or missing is left out and named
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
import { randomUUID } from "node:crypto";
import { SYSTEM_ACTOR } from "@alpvault/contracts/audit";
import { EXPORT_ITEM_REASONS, EXPORT_LIFETIME_DAYS, type ExportProblem } from "@alpvault/contracts/exports";
import type { RegionId } from "@alpvault/contracts/regions";
import { appendAudit } from "../audit/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { dataKeyResolver, type KeyWrappers } from "../backups/data-keys";
import type { EnqueueExport, ExportTask } from "../backups/queue";
import { isIntegrityError, versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import { itemAsOf, itemsAfter, itemsByKey } from "../backups/service";
import { csvField } from "../lib/csv";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { organizationServedIn } from "../organizations/service";
import { mboxEntry } from "./mbox";
import {
  EMPTY_CHECKPOINT,
  exportProblems,
  finishExport,
  readExportTail,
  releaseExportLease,
  saveExportCheckpoint,
  takeExportLease,
  writeExportProblem,
} from "./repo";
import { archivePath, EXPORT_REPORT_NAME } from "./service";
import { openUploadSession, uploadedBytes, uploadPart, UPLOAD_BLOCK, type UploadTarget } from "./upload";
import { ZipWriter } from "./zip";

export interface ExportDeps {
  blobStore(regionId: RegionId): BlobStore;
  upload(regionId: RegionId): UploadTarget;
  wrappers: KeyWrappers;
  enqueue: EnqueueExport;
  budgetMs: number;
  /** The region this worker runs in: tasks of another region's organisations are dropped. */
  servingRegion?: RegionId;
  now?: () => number;
  /** Tests lower these to cross checkpoints and request boundaries with little data. */
  sizes?: { flushBytes?: number; checkpointBytes?: number };
}

const PAGE = 50;
const FLUSH_BYTES = 32 * UPLOAD_BLOCK; // 8 MiB
const CHECKPOINT_BYTES = 64 * 1024 * 1024;
const CHECKPOINT_MS = 30_000;
/** Drive files up to this size are read whole, and checked, before their entry starts; larger ones are
 * read twice: once to check every chunk, once to write them. */
const CHECKED_WHOLE_BYTES = 8 * 1024 * 1024;
const MAX_LISTED_PROBLEMS = 20;
/** A job still unfinished after this many deliveries fails (a fault that retries cannot cure). */
const MAX_DELIVERIES = 500;

export const EXPORT_CONTENT_TYPES = {
  mbox: "application/mbox",
  eml: "application/zip",
  zip: "application/zip",
} as const;

/** The directory part objects of an export (ZIP formats), beside its file. */
export function directoryPartName(objectName: string, part: number): string {
  return `${objectName}.d/${String(part).padStart(6, "0")}`;
}

/** The file's bytes on their way to the bucket: whole blocks go out, the rest waits. */
class Output {
  private pieces: Buffer[];
  private pending: number;

  constructor(
    private readonly target: UploadTarget,
    private readonly session: string,
    public uploaded: number,
    tail: Buffer,
    private readonly flushBytes: number,
  ) {
    this.pieces = tail.length > 0 ? [tail] : [];
    this.pending = tail.length;
  }

  /** The file's size so far. */
  get size(): number {
    return this.uploaded + this.pending;
  }

  async write(piece: Buffer): Promise<void> {
    if (piece.length === 0) return;
    this.pieces.push(piece);
    this.pending += piece.length;
    if (this.pending >= this.flushBytes) await this.flush();
  }

  /** Sends every whole block waiting; what is left is under 256 KiB. */
  async flush(): Promise<void> {
    const whole = this.pending - (this.pending % UPLOAD_BLOCK);
    if (whole === 0) return;
    // One buffer of the whole blocks (the request's body); the rest is copied out of the last piece.
    const pieces = this.pieces;
    let taken = 0;
    let split = 0;
    while (split < pieces.length && taken + pieces[split]!.length <= whole) taken += pieces[split++]!.length;
    const head = pieces.slice(0, split);
    const rest: Buffer[] = pieces.slice(split);
    if (taken < whole) {
      const piece = rest.shift()!;
      head.push(piece.subarray(0, whole - taken));
      rest.unshift(Buffer.from(piece.subarray(whole - taken)));
    }
    this.pieces = rest;
    this.pending -= whole;
    this.uploaded = await uploadPart(this.target, this.session, this.uploaded, Buffer.concat(head, whole));
  }

  tail(): Buffer {
    return Buffer.concat(this.pieces, this.pending);
  }

  /** Sends the rest and completes the object. */
  async finish(): Promise<number> {
    const total = this.size;
    this.uploaded = await uploadPart(this.target, this.session, this.uploaded, this.tail(), total);
    this.pieces = [];
    this.pending = 0;
    return total;
  }
}

/** The name a report shows for an item: the message's subject or the file's name. */
function itemName(item: CatalogItem): string {
  const display = item.search.display as { subject?: string; name?: string } | undefined;
  return display?.subject ?? display?.name ?? item.current.metadata.name ?? "";
}

/** An .eml entry's name: the subject made safe for a file name, with the message id to keep it unique. */
function emlPath(item: CatalogItem): string {
  const subject = itemName(item)
    .replace(/[\\/:*?"<>|]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80);
  return `${subject || "(no subject)"} - ${item.itemKey}.eml`;
}

type Outcome = "exported" | { reason: string };

export async function executeExport(
  task: ExportTask,
  deps: ExportDeps,
): Promise<"dropped" | "continued" | "succeeded" | "failed"> {
  const now = deps.now ?? Date.now;
  const organization = await organizationServedIn(task.organizationId, deps.servingRegion);
  if (!organization) return "dropped";
  const scope: Scope = { organizationId: organization.organizationId, regionId: organization.regionId };
  const holder = randomUUID();
  const deadline = now() + deps.budgetMs;
  const job = await takeExportLease(
    scope,
    task.exportId,
    holder,
    new Date(deadline + 120_000).toISOString(),
    new Date(now()).toISOString(),
  );
  if (!job) return "dropped";
  const audit = (operation: "export.started" | "export.finished" | "export.failed", reason?: string) =>
    appendAudit(scope, {
      operation,
      actor: job.requestedBy || SYSTEM_ACTOR,
      object: `${job.resourceName} (${job.format.toUpperCase()})`,
      failureReason: reason ?? null,
      date: new Date(now()),
      key: `${operation}-${job.exportId}`,
    });
  const expiresAt = () => new Date(now() + EXPORT_LIFETIME_DAYS * 86_400_000).toISOString();
  const fail = async (failureReason: string) => {
    if (
      await finishExport(
        scope,
        job,
        { state: "failed", failureReason, expiresAt: expiresAt() },
        new Date(now()),
        holder,
      )
    ) {
      await audit("export.failed", failureReason);
      logs.exportEnded({
        organizationId: scope.organizationId,
        exportId: job.exportId,
        state: "failed",
        ...job.progress,
      });
    }
    return "failed" as const;
  };
  if (job.deliveries > MAX_DELIVERIES) return fail("The export could not be completed. Start a new one.");
  await audit("export.started");

  const target = deps.upload(scope.regionId);
  const sizes = {
    flush: deps.sizes?.flushBytes ?? FLUSH_BYTES,
    checkpoint: deps.sizes?.checkpointBytes ?? CHECKPOINT_BYTES,
  };
  const blobStore = deps.blobStore(scope.regionId);
  const keys = dataKeyResolver(scope, deps.wrappers);

  // Where the file stands: resumed from the checkpoint, or (first delivery, or a session that holds
  // bytes the checkpoint does not know) started anew.
  let tail: Buffer = Buffer.alloc(0);
  const checkpoint = job.checkpoint;
  let held: number | "complete" | undefined;
  if (checkpoint.session) held = await uploadedBytes(target, checkpoint.session);
  if (held === "complete") {
    // The last request went through, the job's end was not recorded: record it now.
    return complete();
  }
  if (!checkpoint.session || held !== checkpoint.uploaded) {
    if (checkpoint.session)
      logs.exportRestarted({ organizationId: scope.organizationId, exportId: job.exportId });
    job.checkpoint = {
      ...EMPTY_CHECKPOINT,
      session: await openUploadSession(target, job.objectName, {
        contentType: EXPORT_CONTENT_TYPES[job.format],
        contentDisposition: `attachment; filename="${job.fileName}"`,
      }),
    };
    job.progress = { total: job.itemIds?.length ?? 0, exported: 0, failed: 0, bytes: 0 };
    job.problems = [];
  } else {
    tail = await readExportTail(scope, job.exportId);
  }
  const position = job.checkpoint;
  const output = new Output(target, position.session as string, position.uploaded, tail, sizes.flush);
  const zip =
    job.format === "mbox" ? undefined : new ZipWriter({ offset: position.uploaded + position.tail });
  const taken = new Set<string>();

  let lastCheckpointBytes = output.size;
  let lastCheckpointAt = now();
  /** Writes the directory records kept so far as an object, then the checkpoint. False: the lease is lost. */
  const saveCheckpoint = async (): Promise<boolean> => {
    await output.flush();
    if (zip) {
      const { records, count } = zip.takeDirectory();
      if (count > 0) {
        position.entries += count;
        await blobStore.delete(directoryPartName(job.objectName, position.directoryParts));
        await blobStore.putIfAbsent(directoryPartName(job.objectName, position.directoryParts), records);
        position.directoryParts += 1;
        position.directoryBytes += records.length;
      }
    }
    position.uploaded = output.uploaded;
    job.progress.bytes = output.size;
    lastCheckpointBytes = output.size;
    lastCheckpointAt = now();
    return saveExportCheckpoint(scope, job, output.tail(), holder);
  };

  const leaveOut = async (item: CatalogItem | undefined, itemKey: string, reason: string) => {
    job.progress.failed += 1;
    const problem: ExportProblem = { itemKey, name: item ? itemName(item) : "", reason };
    if (job.problems.length < MAX_LISTED_PROBLEMS) job.problems.push(problem);
    await writeExportProblem(scope, job.exportId, problem);
  };

  const objects = async (item: CatalogItem) => ({
    organizationId: scope.organizationId,
    keys: await keys(item.current.dataKeyId),
  });

  /** Writes one item; an item whose backup is damaged or missing is left out (and said why). */
  const writeItem = async (item: CatalogItem): Promise<Outcome> => {
    const scopeOf = await objects(item);
    try {
      if (job.format === "mbox" || job.format === "eml") {
        const raw = await versionContent(blobStore, scopeOf, item.current);
        const search = item.search as { fromEmail?: string; date?: string };
        const date = new Date(search.date ?? 0);
        const when = Number.isNaN(date.getTime()) ? new Date(0) : date;
        if (job.format === "mbox") {
          await output.write(mboxEntry(raw, search.fromEmail ?? "", when));
        } else {
          for await (const piece of zip!.entry(emlPath(item), [raw], when, raw.length))
            await output.write(piece);
        }
        return "exported";
      }
      const metadata = item.current.metadata;
      const modified = new Date(metadata.modifiedTime ?? 0);
      let content: AsyncIterable<Buffer> | Buffer[];
      if (item.current.size <= CHECKED_WHOLE_BYTES) {
        content = [await versionContent(blobStore, scopeOf, item.current)];
      } else {
        // Every chunk is checked before the entry starts: bytes sent to the bucket cannot be taken back.
        for await (const chunk of versionChunks(blobStore, scopeOf, item.current)) void chunk;
        content = versionChunks(blobStore, scopeOf, item.current);
      }
      const pieces = zip!.entry(
        archivePath(metadata, taken),
        content,
        Number.isNaN(modified.getTime()) ? new Date(0) : modified,
        item.current.size,
      );
      for await (const piece of pieces) await output.write(piece);
      return "exported";
    } catch (error) {
      if (!isIntegrityError(error)) throw error;
      logs.exportItemUnreadable({ organizationId: scope.organizationId, itemKey: item.itemKey });
      return { reason: EXPORT_ITEM_REASONS.integrity };
    }
  };

  const kind = job.service === "gmail" ? "gmail-message" : "drive-file";
  /** One item reached: held at the date, written or left out; the position moves past it. */
  const settle = async (itemKey: string, found: CatalogItem | undefined) => {
    const item = found && found.kind === kind ? found : undefined;
    const held = item && job.asOf ? await itemAsOf(scope, job.resourceId, item, job.asOf) : item;
    if (!held) {
      if (job.itemIds) {
        await leaveOut(item, itemKey, item ? EXPORT_ITEM_REASONS.notBackedUp : EXPORT_ITEM_REASONS.notFound);
      }
      return;
    }
    if (!job.itemIds) job.progress.total += 1;
    if (held.current.metadata.contentSkipped) {
      await leaveOut(held, itemKey, "Google offers no export of this file: only its details were backed up");
      return;
    }
    const outcome = await writeItem(held);
    if (outcome === "exported") job.progress.exported += 1;
    else await leaveOut(held, itemKey, outcome.reason);
  };

  /** After an item: a checkpoint when due; at the deadline, hands over to a new delivery. */
  const afterItem = async (): Promise<"go on" | "continued" | "lost"> => {
    const due =
      output.size - lastCheckpointBytes >= sizes.checkpoint || now() - lastCheckpointAt >= CHECKPOINT_MS;
    const late = now() >= deadline;
    if (!due && !late) return "go on";
    if (!(await saveCheckpoint())) return "lost";
    if (!late) return "go on";
    await releaseExportLease(scope, job.exportId, holder);
    await deps.enqueue(
      scope.regionId,
      { organizationId: scope.organizationId, exportId: job.exportId },
      {
        id: `${job.exportId}-${job.deliveries}`,
      },
    );
    return "continued";
  };

  try {
    if (job.itemIds) {
      while (position.index < job.itemIds.length) {
        const keysPage = job.itemIds.slice(position.index, position.index + PAGE);
        const found = await itemsByKey(scope, job.resourceId, keysPage);
        for (const [offset, itemKey] of keysPage.entries()) {
          await settle(itemKey, found[offset]);
          position.index += 1;
          const next = await afterItem();
          if (next === "lost") return "dropped";
          if (next === "continued") return "continued";
        }
      }
    } else {
      for (;;) {
        const page = await itemsAfter(scope, job.resourceId, kind, position.lastItemKey, PAGE);
        if (page.length === 0) break;
        for (const item of page) {
          await settle(item.itemKey, item);
          position.lastItemKey = item.itemKey;
          const next = await afterItem();
          if (next === "lost") return "dropped";
          if (next === "continued") return "continued";
        }
      }
    }

    if (zip) {
      // A ZIP ends with the report of what was left out, then its central directory.
      if (job.progress.failed > 0) {
        const lines: string[] = ["item,name,reason"];
        for await (const problem of exportProblems(scope, job.exportId)) {
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
        await output.write(await blobStore.get(directoryPartName(job.objectName, part)));
      }
      const rest = zip.takeDirectory();
      await output.write(rest.records);
      const count = position.entries + rest.count;
      await output.write(
        zip.endRecords({ count, start, size: position.directoryBytes + rest.records.length }),
      );
    }
    job.progress.bytes = await output.finish();
    return await complete();
  } catch (error) {
    logs.exportFailed({ organizationId: scope.organizationId, exportId: job.exportId, error });
    await releaseExportLease(scope, job.exportId, holder);
    throw error;
  }

  /** Records the end; the directory parts are no longer needed. */
  async function complete(): Promise<"succeeded" | "dropped"> {
    const outcome = { state: "succeeded" as const, expiresAt: expiresAt() };
    if (!(await finishExport(scope, job!, outcome, new Date(now()), holder))) return "dropped";
    for (let part = 0; part < job!.checkpoint.directoryParts; part++) {
      await blobStore.delete(directoryPartName(job!.objectName, part));
    }
    await audit(
      "export.finished",
      job!.progress.failed > 0 ? `${job!.progress.failed} items left out` : undefined,
    );
    logs.exportEnded({
      organizationId: scope.organizationId,
      exportId: job!.exportId,
      state: "succeeded",
      ...job!.progress,
    });
    return "succeeded";
  }
}
