/**
 * What an export format supplies (the registry is `formats/index.ts`): its file's media type and
 * extension, whether it is a ZIP (the job then ends it with its report and central directory), how one
 * held item is written, and what the file still owes after the last item.
 */
import { itemKindOf } from "@alpvault/contracts/services";
import type { BlobStore } from "../../engine/blobstore/blob-store";
import type { DerivedKeys } from "../../engine/format/keys";
import type { CatalogItem, ItemKind } from "../../engine/runner/catalog";
import type { CatalogScope } from "../../backups/catalog/sealed-documents";
import type { Output } from "../output";
import type { StoredExport } from "../repo";
import type { ZipWriter } from "../zip";

/** The file one delivery of an export writes, and what it reads the items with. */
export interface ExportFile {
  /** With the catalog's keys once the walk begins. */
  scope: CatalogScope;
  job: StoredExport;
  blobStore: BlobStore;
  keys: (dataKeyId: string) => Promise<DerivedKeys>;
  output: Output;
  /** The ZIP formats' writer (none for the others). */
  zip: ZipWriter | undefined;
  /** Archive paths taken in this delivery (names made unique). */
  taken: Set<string>;
  /**
   * What the format's writer decoded of `job.checkpoint.format` in this delivery (the same object, kept
   * up to date, is what the next checkpoint saves).
   */
  formatState?: unknown;
}

/** How a writer reads a held item's current version, decrypted and checked. */
export interface ItemReader {
  /** The whole content. */
  content(): Promise<Buffer>;
  /** The content chunk by chunk (a large file), each checked as it is read. */
  chunks(): AsyncIterable<Buffer>;
}

export interface FormatWriter {
  contentType: string;
  /** The export file's extension. */
  extension: string;
  /** The file is a ZIP. */
  zip: boolean;
  /**
   * Writes one held item. A damaged or missing backup throws an integrity error before any of the item's
   * bytes are written: the item is left out and the export goes on.
   */
  write(file: ExportFile, item: CatalogItem, read: ItemReader): Promise<void>;
  /** After the last item: what the file still owes (before a ZIP's report and directory). */
  finish?(file: ExportFile): Promise<void>;
}

/** An item's display name as a report shows it: the message's subject, the file's, event's or contact's name. */
export function itemName(item: CatalogItem): string {
  const display = item.search.display as { subject?: string; name?: string; summary?: string } | undefined;
  return display?.subject ?? display?.name ?? display?.summary ?? item.current.metadata.name ?? "";
}

/** A name made safe as a file name in an archive (no path separators or characters Windows refuses). */
export const safeFileName = (name: string): string =>
  name
    .replace(/[\\/:*?"<>|]/g, "_")
    .replace(/\s+/g, " ")
    .trim();

/** `base` + `extension`, or with " (2)", " (3)"… before the extension when taken; the name is taken then. */
export function uniqueName(base: string, extension: string, taken: { has(name: string): boolean }): string {
  let candidate = `${base}${extension}`;
  for (let copy = 2; taken.has(candidate); copy++) candidate = `${base} (${copy})${extension}`;
  return candidate;
}

/** A valid date for an archive entry (the epoch for none). */
export function entryDate(value: string | null | undefined): Date {
  const date = new Date(value ?? 0);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}

/** The item kind the export is of. */
export function exportKind(job: Pick<StoredExport, "service">): ItemKind {
  return itemKindOf(job.service);
}
