/**
 * Browsing a drive by folder (docs/api.md "Browse"): the top holds the roots ("My Drive", each shared
 * drive) and no files; a folder shows its own files by name and its sub-folders, each found one read
 * (`nextFolderPath`), never by reading the folder's files.
 */
import { BROWSE_MESSAGES, MAX_BROWSE_FOLDERS, type BrowseFolder } from "@alpvault/contracts/browse";
import { bounded } from "../engine/sources/search-text";
import { DomainError } from "../lib/errors";
import type { CatalogScope } from "../backups/catalog/sealed-documents";
import { heldSubFolders } from "../backups/service";
import { NO_ITEMS, placeKeys, placePage, type PlaceBrowser } from "./browse-place";
import { nextFolderPath, type PlaceFilter } from "./repo";
import { driveResult } from "./results";
import { single } from "./service";

/** The longest folder path a browse takes. */
const MAX_FOLDER = 1_000;
/** Sorts after every character a path holds: the end of a folder's range. */
const HIGHEST = "\uf8ff";

/**
 * The sub-folders of `folder` (its path as kept; "" for the top, whose sub-folders are the roots), at most
 * `MAX_BROWSE_FOLDERS`: each found by the first file path after the last one found, a descendant of the
 * last one found making the next read skip its tree.
 */
export async function subFolders(
  scope: CatalogScope,
  resourceId: string,
  folder: string,
): Promise<{ folders: BrowseFolder[]; atLeast: boolean }> {
  const depth = folder === "" ? 0 : folder.split("/").length;
  const [clear, sealed] = await Promise.all([
    clearSubFolders(scope, resourceId, folder),
    heldSubFolders(scope, resourceId, folder, MAX_BROWSE_FOLDERS + 1),
  ]);
  if (sealed.length === 0) return clear;
  // Format v2's folder documents beside version 1's paths: each folder once, by path.
  const byPath = new Map<string, BrowseFolder>();
  for (const found of [...clear.folders, ...sealed.map((held) => shownFolder(held, depth))]) {
    const key = bounded(found.path);
    if (!byPath.has(key)) byPath.set(key, found);
  }
  const all = [...byPath.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, found]) => found);
  return {
    folders: all.slice(0, MAX_BROWSE_FOLDERS),
    atLeast: clear.atLeast || all.length > MAX_BROWSE_FOLDERS,
  };
}

/** A held folder as a browse lists it: its own name and its path as written. */
function shownFolder(held: { path: string; shown: string }, depth: number): BrowseFolder {
  const shown = held.shown.split("/");
  return {
    name: shown[depth] ?? held.path.split("/")[depth] ?? "",
    path: shown.slice(0, depth + 1).join("/"),
  };
}

/** Version 1's sub-folders of `folder`, found from its files' clear paths. */
async function clearSubFolders(
  scope: CatalogScope,
  resourceId: string,
  folder: string,
): Promise<{ folders: BrowseFolder[]; atLeast: boolean }> {
  const prefix = folder === "" ? "" : `${folder}/`;
  const depth = folder === "" ? 0 : folder.split("/").length;
  const end = `${prefix}${HIGHEST}`;
  const folders: BrowseFolder[] = [];
  let after = prefix;
  let last: string | undefined;
  for (let reads = 0; reads <= 2 * MAX_BROWSE_FOLDERS + 1; reads++) {
    const next = await nextFolderPath(scope, resourceId, after, end);
    if (!next) return { folders, atLeast: false };
    const child = `${prefix}${next.path.slice(prefix.length).split("/")[0] ?? ""}`;
    if (child === last) {
      after = `${child}/${HIGHEST}`;
      continue;
    }
    if (folders.length === MAX_BROWSE_FOLDERS) return { folders, atLeast: true };
    const shown = next.shown.split("/").slice(0, depth + 1);
    folders.push({ name: shown[depth] ?? child.slice(prefix.length), path: shown.join("/") });
    last = child;
    after = child;
  }
  return { folders, atLeast: true };
}

/** A folder path as given: without the slashes that end it. */
export const folderPath = (folder: string | undefined): string => (folder ?? "").trim().replace(/\/+$/, "");

const folderFilter = (folderKey: string): PlaceFilter => ({
  field: "search.path",
  op: "==",
  value: folderKey,
});

export const driveBrowser: PlaceBrowser = {
  params: ["folder"],
  misplaced: BROWSE_MESSAGES.folderForDrive,
  open(query) {
    const given = single(query, "folder");
    if (given !== undefined && given.length > MAX_FOLDER)
      throw DomainError.invalid(BROWSE_MESSAGES.invalidFolder);
    const folder = folderPath(given);
    // As the catalog keeps a path (lower case, at most `MAX_TEXT` characters), so that they compare.
    const folderKey = bounded(folder);
    return {
      key: folderKey,
      async page(context) {
        // The top of the drives holds folders only: every file is in a root ("My Drive", a shared drive).
        const [page, sub] = await Promise.all([
          folderKey === "" ? { found: NO_ITEMS, items: [] } : placePage(context, folderFilter(folderKey)),
          subFolders(context.scope, context.resource.resourceId, folderKey),
        ]);
        return {
          found: page.found,
          results: page.items.map(driveResult),
          extras: { folder, folders: sub.folders, foldersAtLeast: sub.atLeast },
        };
      },
      async keys(context, asOf, limit) {
        if (folderKey === "") return { keys: [], more: false, within: folder };
        return { ...(await placeKeys(context, folderFilter(folderKey), asOf, limit)), within: folder };
      },
    };
  },
};
