/**
 * One item of an export (see job.ts): held at the export's date, read back from the backup and checked,
 * and written by the export format's writer (formats/); an item whose backup is damaged or missing is left
 * out and named in the job's problems and report.
 */
import { EXPORT_ITEM_REASONS, type ExportProblem } from "@alpvault/contracts/exports";
import { heldItem } from "../backups/service";
import { isIntegrityError, versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import * as logs from "../logs";
import { FORMAT_WRITERS } from "./formats";
import { exportKind, itemName, type ExportFile } from "./formats/format";
import { writeExportProblem } from "./repo";

const MAX_LISTED_PROBLEMS = 20;

type Outcome = "exported" | { reason: string };

async function leaveOut(file: ExportFile, item: CatalogItem | undefined, itemKey: string, reason: string) {
  const { job } = file;
  job.progress.failed += 1;
  const problem: ExportProblem = { itemKey, name: item ? itemName(item) : "", reason };
  if (job.problems.length < MAX_LISTED_PROBLEMS) job.problems.push(problem);
  await writeExportProblem(file.scope, job.exportId, problem);
}

/** Writes one item in the export's format; an item whose backup is damaged or missing is left out (and said why). */
async function writeItem(file: ExportFile, item: CatalogItem): Promise<Outcome> {
  const { blobStore } = file;
  const scopeOf = {
    organizationId: file.scope.organizationId,
    keys: await file.keys(item.current.dataKeyId),
  };
  try {
    await FORMAT_WRITERS[file.job.format].write(file, item, {
      content: () => versionContent(blobStore, scopeOf, item.current),
      chunks: () => versionChunks(blobStore, scopeOf, item.current),
    });
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
