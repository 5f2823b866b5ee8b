/**
 * Export (beyond the spec): a resource's backed-up mail as one MBOX file, streamed to the browser and
 * decrypted on the fly, message by message (never the whole export in memory). Selected items or the
 * whole mailbox. Everything is checked before the first byte is sent; a failure after that cuts the
 * download short (the browser sees an incomplete file, never a wrong one).
 */
import type { Response } from "express";
import { AppError } from "../http/app-error";
import type { Scope } from "../lib/tenancy";
import { readBackupResource } from "../backup/repo";
import { dataKeyResolver, type KeyWrappers } from "../backup/data-keys";
import type { BlobStore } from "../backup/blobstore/blob-store";
import { versionContent } from "../backup/restore/content";
import type { CatalogItem } from "../backup/runner/catalog";
import { itemsToRecover, readItems } from "../recovery/repo";
import { mboxEntry } from "./mbox";

export const EXPORT_MESSAGES = {
  invalid: "An export names a resource, the service 'gmail' and optionally up to 1000 item ids",
  resourceNotFound: "Resource not found",
} as const;

export interface ExportRequest {
  resourceId: string;
  itemIds?: string[];
}

export function parseExportRequest(body: unknown): ExportRequest {
  const value = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const itemIds = value.itemIds;
  if (
    typeof value.resourceId !== "string" ||
    value.resourceId.length === 0 ||
    value.service !== "gmail" ||
    (itemIds !== undefined &&
      (!Array.isArray(itemIds) ||
        itemIds.length > 1000 ||
        !itemIds.every((id) => typeof id === "string" && id)))
  ) {
    throw AppError.badRequest(EXPORT_MESSAGES.invalid);
  }
  return { resourceId: value.resourceId, ...(itemIds ? { itemIds: itemIds as string[] } : {}) };
}

/** Writes and waits when the socket's buffer is full. */
function write(response: Response, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (response.destroyed) {
      reject(new Error("The download was closed"));
      return;
    }
    if (response.write(chunk)) resolve();
    else response.once("drain", resolve);
  });
}

export async function exportMailbox(
  scope: Scope,
  body: unknown,
  response: Response,
  deps: { blobStore: (regionId: Scope["regionId"]) => BlobStore; wrappers: KeyWrappers },
): Promise<void> {
  const request = parseExportRequest(body);
  const resource = await readBackupResource(scope, request.resourceId);
  if (!resource) throw AppError.notFound(EXPORT_MESSAGES.resourceNotFound);
  const keys = dataKeyResolver(scope, deps.wrappers);
  const blobStore = deps.blobStore(scope.regionId);
  const name = (resource.email ?? resource.name).replace(/[^A-Za-z0-9@._-]/g, "_");
  response.status(200);
  response.setHeader("Content-Type", "application/mbox");
  response.setHeader("Content-Disposition", `attachment; filename="${name}.mbox"`);
  response.setHeader("Cache-Control", "no-store");
  const send = async (item: CatalogItem | undefined) => {
    if (!item || item.kind !== "gmail-message") return;
    const current = item.current;
    const raw = await versionContent(
      blobStore,
      { organizationId: scope.organizationId, keys: await keys(current.dataKeyId) },
      current,
    );
    const search = item.search as { fromEmail?: string; date?: string };
    const date = new Date(search.date ?? Date.now());
    await write(
      response,
      mboxEntry(raw, search.fromEmail ?? "", Number.isNaN(date.getTime()) ? new Date(0) : date),
    );
  };
  try {
    if (request.itemIds) {
      for (let start = 0; start < request.itemIds.length; start += 50) {
        const page = await readItems(scope, request.resourceId, request.itemIds.slice(start, start + 50));
        for (const item of page) await send(item as CatalogItem | undefined);
      }
    } else {
      let after: string | null = null;
      for (;;) {
        const page = await itemsToRecover(scope, request.resourceId, "gmail-message", after, 50);
        if (page.length === 0) break;
        for (const item of page) await send(item as unknown as CatalogItem);
        after = String(page[page.length - 1]!.itemKey);
      }
    }
    response.end();
  } catch {
    // Headers are out: the only honest answer left is to cut the download short.
    response.destroy();
  }
}
