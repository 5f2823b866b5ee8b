/**
 * One item of an export (see job.ts): held at the export's date, read back from the backup and checked,
 * and written as an MBOX entry, an .eml entry or a Drive file entry of a ZIP; an item whose backup is
 * damaged or missing is left out and named in the job's problems and report.
 */
import { EXPORT_ITEM_REASONS, type ExportProblem } from "@alpvault/contracts/exports";
import { itemKindOf } from "@alpvault/contracts/services";
import { heldItem } from "../backups/service";
import type { BlobStore } from "../engine/blobstore/blob-store";
import type { DerivedKeys } from "../engine/format/keys";
import { isIntegrityError, versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem, ItemKind } from "../engine/runner/catalog";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { mboxEntry } from "./mbox";
import type { Output } from "./output";
import { writeExportProblem, type StoredExport } from "./repo";
import { archivePath } from "./service";
import type { ZipWriter } from "./zip";

/** Drive files up to this size are read whole, and checked, before their entry starts; larger ones are
 * read twice: once to check every chunk, once to write them. */
const CHECKED_WHOLE_BYTES = 8 * 1024 * 1024;
const MAX_LISTED_PROBLEMS = 20;

/** The file one delivery of an export writes, and what it reads the items with. */
export interface ExportFile {
  scope: Scope;
  job: StoredExport;
  blobStore: BlobStore;
  keys: (dataKeyId: string) => Promise<DerivedKeys>;
  output: Output;
  /** The ZIP formats' writer (none for MBOX). */
  zip: ZipWriter | undefined;
  /** Archive paths taken in this delivery (names made unique). */
  taken: Set<string>;
}

type Outcome = "exported" | { reason: string };

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

/** The item kind the export is of. */
export function exportKind(job: StoredExport): ItemKind {
  return itemKindOf(job.service);
}

async function leaveOut(file: ExportFile, item: CatalogItem | undefined, itemKey: string, reason: string) {
  const { job } = file;
  job.progress.failed += 1;
  const problem: ExportProblem = { itemKey, name: item ? itemName(item) : "", reason };
  if (job.problems.length < MAX_LISTED_PROBLEMS) job.problems.push(problem);
  await writeExportProblem(file.scope, job.exportId, problem);
}

/** Writes one item; an item whose backup is damaged or missing is left out (and said why). */
async function writeItem(file: ExportFile, item: CatalogItem): Promise<Outcome> {
  const { job, blobStore, output, zip } = file;
  const scopeOf = {
    organizationId: file.scope.organizationId,
    keys: await file.keys(item.current.dataKeyId),
  };
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
      archivePath(metadata, file.taken),
      content,
      Number.isNaN(modified.getTime()) ? new Date(0) : modified,
      item.current.size,
    );
    for await (const piece of pieces) await output.write(piece);
    return "exported";
  } catch (error) {
    if (!isIntegrityError(error)) throw error;
    logs.exportItemUnreadable({ organizationId: file.scope.organizationId, itemKey: item.itemKey });
    return { reason: EXPORT_ITEM_REASONS.integrity };
  }
}

/** One item reached: held at the date, written or left out. */
export async function settleItem(file: ExportFile, itemKey: string, found: CatalogItem | undefined) {
  const { job } = file;
  const item = found && found.kind === exportKind(job) ? found : undefined;
  // As the backups held it at the export's date (the choice its totals were counted with).
  const held = await heldItem(
    file.scope,
    { resourceId: job.resourceId, kind: exportKind(job), asOf: job.asOf },
    found,
  );
  if (!held) {
    if (job.itemIds) {
      await leaveOut(
        file,
        item,
        itemKey,
        item ? EXPORT_ITEM_REASONS.notBackedUp : EXPORT_ITEM_REASONS.notFound,
      );
    }
    return;
  }
  job.checkpoint.sourceBytes += held.current.size;
  // Items backed up since the export was asked for are reached too.
  if (!job.itemIds)
    job.progress.total = Math.max(job.progress.total, job.progress.exported + job.progress.failed + 1);
  if (held.current.metadata.contentSkipped) {
    await leaveOut(
      file,
      held,
      itemKey,
      "Google offers no export of this file: only its details were backed up",
    );
    return;
  }
  const outcome = await writeItem(file, held);
  if (outcome === "exported") job.progress.exported += 1;
  else await leaveOut(file, held, itemKey, outcome.reason);
}
