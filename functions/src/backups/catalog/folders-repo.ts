/**
 * A drive's folders in catalog format v2 (docs/backup-format.md §9.3): `resources/{resourceId}/folders/
 * {token of its path}`, `{key, parent: token of its parent's path, sealed: {path, shown}, firstSeenAt}`,
 * one per folder a file of version 2 was seen in, and per folder above it. Version 1 finds a folder's
 * sub-folders by a range over its files' clear paths; version 2's paths are tokens, which have no order,
 * so a folder's sub-folders are the folder documents whose parent is its token.
 */
import type { DocumentReference, Transaction } from "firebase-admin/firestore";
import { z } from "zod/mini";
import { searchToken, openValue, sealValue } from "../../engine/format/catalog-seal";
import { TOKEN_FIELDS } from "../../engine/format/catalog-index";
import type { DerivedKeys } from "../../engine/format/keys";
import { organizationRef } from "../../lib/tenancy";
import { readableDocument } from "../../lib/stored";
import { CATALOG_FOLDER } from "./documents";
import type { CatalogScope } from "./sealed-documents";

/** A folder as a browse shows it: its path as search keeps it (lower case) and as written. */
export interface HeldFolder {
  path: string;
  shown: string;
}

function foldersOf(scope: CatalogScope, resourceId: string) {
  return organizationRef(scope).collection("resources").doc(resourceId).collection("folders");
}

const sealPlace = (scope: CatalogScope, resourceId: string, token: string) => ({
  organizationId: scope.organizationId,
  resourceId,
  documentId: `folder:${token}`,
  field: "sealed",
});

/** A path and every folder above it ("a/b/c" → "a", "a/b", "a/b/c"), as kept and as written. */
export function foldersAlong(path: HeldFolder): HeldFolder[] {
  const kept = path.path.split("/");
  const shown = path.shown.split("/");
  if (kept.length !== shown.length) return [{ path: path.path, shown: path.shown }];
  return kept
    .map((_, index) => ({
      path: kept.slice(0, index + 1).join("/"),
      shown: shown.slice(0, index + 1).join("/"),
    }))
    .filter((folder) => folder.path !== "");
}

/** The parent of a folder path ("" for a root). */
const parentOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");

/**
 * In the transaction, the folder documents of `folders` under `keys` that do not exist yet (reads them
 * first: call before the transaction's writes).
 */
export async function recordFolders(
  transaction: Transaction,
  scope: CatalogScope,
  resourceId: string,
  keys: DerivedKeys,
  folders: HeldFolder[],
  at: string,
): Promise<() => void> {
  const unique = new Map(folders.map((folder) => [folder.path, folder]));
  const entries = [...unique.values()].map((folder) => {
    const token = searchToken(keys, TOKEN_FIELDS.path, folder.path);
    return { folder, token, ref: foldersOf(scope, resourceId).doc(token) as DocumentReference };
  });
  if (entries.length === 0) return () => undefined;
  const snapshots = await transaction.getAll(...entries.map((entry) => entry.ref));
  return () => {
    entries.forEach((entry, index) => {
      if (snapshots[index]?.exists) return;
      transaction.create(entry.ref, {
        key: keys.dataKeyId,
        parent: searchToken(keys, TOKEN_FIELDS.path, parentOf(entry.folder.path)),
        sealed: sealValue(keys, sealPlace(scope, resourceId, entry.token), entry.folder),
        firstSeenAt: at,
      });
    });
  };
}

/**
 * The sub-folders of `folder` (its path as kept, "" for the top) under each of the keyring's keys, opened,
 * by path; at most `limit` a key (the caller asks one more than it shows, to know there are more).
 */
export async function heldSubFolders(
  scope: CatalogScope,
  resourceId: string,
  folder: string,
  limit: number,
): Promise<HeldFolder[]> {
  const keyring = scope.keyring;
  if (!keyring) return [];
  const found = await Promise.all(
    keyring.all().map(async (keys) => {
      const page = await foldersOf(scope, resourceId)
        .where("parent", "==", searchToken(keys, TOKEN_FIELDS.path, folder))
        .limit(limit)
        .get();
      return page.docs.flatMap((doc) => {
        const stored = readableDocument(CATALOG_FOLDER, doc);
        if (!stored || stored.key !== keys.dataKeyId) return [];
        const opened = openValue(keys, sealPlace(scope, resourceId, doc.id), stored.sealed);
        const held = z.object({ path: z.string(), shown: z.string() }).safeParse(opened);
        return held.success && parentOf(held.data.path) === folder ? [held.data] : [];
      });
    }),
  );
  return found.flat().sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
