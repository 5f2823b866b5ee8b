/**
 * Export (beyond the requirements): a resource's backed-up mail as one MBOX file, or its Drive files as one ZIP
 * (their folder paths kept; Google files as their office export; ZIP64 where the archive needs it), streamed
 * to the browser and decrypted on the fly: mail item by item, Drive files chunk by chunk (never a whole file,
 * let alone the whole export, in memory). Selected items or the whole mailbox, as backed up last or, with a
 * date (MM-DD-YYYY), as the backups held them at the end of that day. Everything is checked before
 * the first byte is sent; a failure after that cuts the download short (the browser sees an incomplete file,
 * never a wrong one).
 */
import { isId } from "@alpvault/contracts/ids";
import { searchDateEnd, searchDateProblem } from "@alpvault/contracts/search";
import { DomainError } from "../lib/errors";
import { csvField } from "../lib/csv";
import type { Scope } from "../lib/tenancy";
import * as logs from "../logs";
import { dataKeyResolver, type KeyWrappers } from "../backups/data-keys";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { isIntegrityError, versionChunks, versionContent } from "../engine/restore/content";
import type { CatalogItem } from "../engine/runner/catalog";
import { itemAsOf, itemsAfter, itemsByKey, readBackupResource } from "../backups/service";
import type { ItemMetadata } from "../engine/sources/source";
import { mboxEntry } from "./mbox";
import { ZipWriter } from "./zip";

export const EXPORT_MESSAGES = {
  invalid:
    "An export names a resource, the service (gmail for MBOX, drive for ZIP) and optionally up to 1000 item ids",
  resourceNotFound: "Resource not found",
} as const;

export interface ExportRequest {
  resourceId: string;
  itemIds?: string[];
  /** The end of the request's day (MM-DD-YYYY): items as the backups held them then. */
  asOf?: string;
}

export function parseExportRequest(body: unknown, service: "gmail" | "drive" = "gmail"): ExportRequest {
  const value = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const itemIds = value.itemIds;
  if (
    !isId(value.resourceId) ||
    value.service !== service ||
    (itemIds !== undefined && (!Array.isArray(itemIds) || itemIds.length > 1000 || !itemIds.every(isId)))
  ) {
    throw DomainError.invalid(EXPORT_MESSAGES.invalid);
  }
  let asOf: string | undefined;
  if (value.date !== undefined) {
    const date = typeof value.date === "string" ? value.date.trim() : "";
    const problem = searchDateProblem(date);
    if (problem) throw DomainError.invalid(problem);
    asOf = searchDateEnd(date);
  }
  return {
    resourceId: value.resourceId as string,
    ...(itemIds ? { itemIds: itemIds as string[] } : {}),
    ...(asOf ? { asOf } : {}),
  };
}

/** A checked export, ready to send: its file's name and type, and its bytes, read as they are pulled. */
export interface ExportDownload {
  fileName: string;
  contentType: string;
  /** Fails midway when a stored object is damaged beyond what the format can report: cut the download short. */
  content: AsyncIterable<Buffer>;
}

/** Each item of the export in turn: the named ones, or every item of the kind, a page at a time. */
async function* exportedItems(
  scope: Scope,
  request: ExportRequest,
  kind: "gmail-message" | "drive-file",
): AsyncGenerator<CatalogItem> {
  const { asOf } = request;
  const held = async (item: CatalogItem) =>
    asOf ? await itemAsOf(scope, request.resourceId, item, asOf) : item;
  if (request.itemIds) {
    for (let start = 0; start < request.itemIds.length; start += 50) {
      const page = await itemsByKey(scope, request.resourceId, request.itemIds.slice(start, start + 50));
      for (const item of page) {
        if (!item || item.kind !== kind) continue;
        const version = await held(item);
        if (version) yield version;
      }
    }
    return;
  }
  let after: string | null = null;
  for (;;) {
    const page = await itemsAfter(scope, request.resourceId, kind, after, 50);
    if (page.length === 0) return;
    for (const item of page) {
      const version = await held(item);
      if (version) yield version;
    }
    after = page[page.length - 1]!.itemKey;
  }
}

/** Drive files up to this size are read whole, and checked, before their entry starts. */
const CHECKED_WHOLE_BYTES = 8 * 1024 * 1024;
/** The ZIP entry that lists the files left out because their backup is damaged. */
export const EXPORT_REPORT_NAME = "Alpvault export report.csv";

/**
 * An item's content, or undefined when its stored objects are damaged or missing: the export goes on
 * without it (logged without content; the report names it where the format allows).
 */
async function readable(
  scope: Scope,
  item: CatalogItem,
  read: () => Promise<Buffer>,
): Promise<Buffer | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!isIntegrityError(error)) throw error;
    logs.exportItemUnreadable({ organizationId: scope.organizationId, itemKey: item.itemKey });
    return undefined;
  }
}

interface ExportDeps {
  blobStore: (regionId: Scope["regionId"]) => BlobStore;
  wrappers: KeyWrappers;
}

/** How `produce` reads an item's current version, decrypted: whole (small items), or chunk by chunk. */
interface ContentReader {
  content(item: CatalogItem): Promise<Buffer>;
  chunks(item: CatalogItem): AsyncIterable<Buffer>;
}

/** Checks the request; the download's content is what `produce` yields, read when it is pulled. */
async function prepareExport(
  scope: Scope,
  body: unknown,
  deps: ExportDeps,
  format: { service: "gmail" | "drive"; contentType: string; extension: string },
  produce: (request: ExportRequest, read: ContentReader) => AsyncIterable<Buffer>,
): Promise<ExportDownload> {
  const request = parseExportRequest(body, format.service);
  const resource = await readBackupResource(scope, request.resourceId);
  if (!resource) throw DomainError.notFound(EXPORT_MESSAGES.resourceNotFound);
  const keys = dataKeyResolver(scope, deps.wrappers);
  const blobStore = deps.blobStore(scope.regionId);
  const name = (resource.email ?? resource.name).replace(/[^A-Za-z0-9@._-]/g, "_");
  const objectScope = async (item: CatalogItem) => ({
    organizationId: scope.organizationId,
    keys: await keys(item.current.dataKeyId),
  });
  const read: ContentReader = {
    content: async (item) => versionContent(blobStore, await objectScope(item), item.current),
    chunks: async function* (item) {
      yield* versionChunks(blobStore, await objectScope(item), item.current);
    },
  };
  return {
    fileName: `${name}.${format.extension}`,
    contentType: format.contentType,
    content: produce(request, read),
  };
}

export function exportMailbox(scope: Scope, body: unknown, deps: ExportDeps): Promise<ExportDownload> {
  return prepareExport(
    scope,
    body,
    deps,
    { service: "gmail", contentType: "application/mbox", extension: "mbox" },
    async function* (request, read) {
      for await (const item of exportedItems(scope, request, "gmail-message")) {
        const search = item.search as { fromEmail?: string; date?: string };
        const date = new Date(search.date ?? 0);
        const raw = await readable(scope, item, () => read.content(item));
        if (!raw) continue;
        yield mboxEntry(raw, search.fromEmail ?? "", Number.isNaN(date.getTime()) ? new Date(0) : date);
      }
    },
  );
}

const EXTENSIONS: Record<string, string> = {
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
  "application/pdf": ".pdf",
};

/** The file's path in the archive: its folder path and name (Google files with their export's extension). */
export function archivePath(metadata: ItemMetadata, taken: Set<string>): string {
  const folder = (metadata.path ?? "")
    .split("/")
    .filter(Boolean)
    .map((part) => part.replace(/[\\:*?"<>|]/g, "_"));
  let name = (metadata.name ?? "file").replace(/[\\/:*?"<>|]/g, "_");
  const extension = metadata.native ? (EXTENSIONS[metadata.native.exportMimeType] ?? "") : "";
  if (extension && !name.toLowerCase().endsWith(extension)) name += extension;
  const base = [...folder, name].join("/");
  let candidate = base;
  for (let copy = 2; taken.has(candidate); copy++) {
    const dot = base.lastIndexOf(".");
    candidate =
      dot > base.lastIndexOf("/") ? `${base.slice(0, dot)} (${copy})${base.slice(dot)}` : `${base} (${copy})`;
  }
  taken.add(candidate);
  return candidate;
}

export function exportDrive(scope: Scope, body: unknown, deps: ExportDeps): Promise<ExportDownload> {
  return prepareExport(
    scope,
    body,
    deps,
    { service: "drive", contentType: "application/zip", extension: "zip" },
    async function* (request, read) {
      const zip = new ZipWriter();
      const taken = new Set<string>();
      const unreadable: CatalogItem[] = [];
      for await (const item of exportedItems(scope, request, "drive-file")) {
        const metadata = item.current.metadata;
        const modified = new Date(metadata.modifiedTime ?? 0);
        // A file small enough is read (and checked) whole first, so a damaged one is left out; a larger one
        // streams: each decrypted chunk is deflated and sent before the next is read, and damage found
        // midway cuts the download short. The backed-up size decides whether the entry needs ZIP64.
        let content: AsyncIterable<Buffer> | Buffer[] = read.chunks(item);
        if (item.current.size <= CHECKED_WHOLE_BYTES) {
          const whole = await readable(scope, item, () => read.content(item));
          if (!whole) {
            unreadable.push(item);
            continue;
          }
          content = [whole];
        }
        const pieces = zip.entry(
          archivePath(metadata, taken),
          content,
          Number.isNaN(modified.getTime()) ? new Date(0) : modified,
          item.current.size,
        );
        yield* pieces;
      }
      if (unreadable.length > 0) {
        const lines = unreadable.map(
          (item) =>
            `${csvField(item.current.metadata.path ?? "")},${csvField(item.current.metadata.name ?? "")},integrity check failed`,
        );
        const report = Buffer.from(["folder,name,reason", ...lines, ""].join("\r\n"));
        yield* zip.entry(EXPORT_REPORT_NAME, [report], new Date(), report.length);
      }
      yield* zip.finish();
    },
  );
}
