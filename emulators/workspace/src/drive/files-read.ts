/**
 * Drive v3 reading a file: `files.get` (metadata, or `alt=media` content) and exports of Google-type files
 * (`files.export` with Google's 10 MB limit, and the `exportLinks` download path without one).
 */
import { CONTENT_SCOPES, READ_SCOPES, defaultFields } from "./common";
import {
  cannotExportFile,
  conversionNotSupported,
  exportSizeLimitExceeded,
  fileNotDownloadable,
  fileNotExportable,
  required,
} from "./errors";
import { ALL_EXPORT_FORMATS, exportGoogleFile, hasGoogleContent } from "./google-types";
import { contentRestricted, sendBytes } from "./media";
import { DEFAULT_FILE_FIELDS, fileJson, rootFolderJson } from "./resources";
import { rootIdFor, type Access, type StoredFile } from "./store-model";
import type { DriveFiles } from "./file-access";
/** Google's limit on files.export output. */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;

export function registerFileReadRoutes(routes: DriveFiles): void {
  const { store, caller, render, visible, resolveRoot, download } = routes;

  routes.add({
    method: "GET",
    path: "/drive/v3/files/:fileId",
    id: "drive.files.get",
    scopes: READ_SCOPES,
    quotaId: (context) => (context.query.get("alt") === "media" ? "drive.files.download" : "drive.files.get"),
    handler: (context, principal) => {
      const viewer = caller(principal);
      const fileId = context.params.fileId ?? "";
      const media = context.query.get("alt") === "media";
      if (resolveRoot(fileId, viewer) === rootIdFor(viewer.id)) {
        if (media) throw fileNotDownloadable();
        const created = principal.user?.creationTime ?? "2020-01-01T00:00:00.000Z";
        return defaultFields(context, rootFolderJson(viewer, created), DEFAULT_FILE_FIELDS);
      }
      const { file, access } = visible(fileId, viewer, context.query);
      if (!media) return defaultFields(context, fileJson(file, access, render(viewer)), DEFAULT_FILE_FIELDS);
      return download(context, principal, file, access, store.head(file));
    },
  });

  // ------------------------------------------------------------------------------------------ exports

  /**
   * A Google-type file exported to `mimeType`. Blobs, folders and shortcuts are not exportable; Forms,
   * Sites, My Maps and Jamboards are Google types without any export format, so every format is a
   * conversion Google does not support; a role restricted from downloading may not export either.
   */
  const exportBytes = (
    file: StoredFile,
    access: Access,
    mimeType: string | null,
    limit: number | undefined,
  ): Buffer => {
    if (!mimeType) throw required("mimeType");
    if (!hasGoogleContent(file.mimeType)) throw fileNotExportable();
    if (!(ALL_EXPORT_FORMATS[file.mimeType] ?? []).includes(mimeType)) throw conversionNotSupported();
    if (contentRestricted(file, access)) throw cannotExportFile();
    const text = store.head(file)?.content ?? Buffer.alloc(0);
    if (limit !== undefined && text.length > limit) throw exportSizeLimitExceeded();
    const bytes = exportGoogleFile(file.id, file.mimeType, text.toString("utf8"), mimeType);
    if (!bytes) throw conversionNotSupported();
    if (limit !== undefined && bytes.length > limit) throw exportSizeLimitExceeded();
    return bytes;
  };

  // `files.export` has Google's 10 MB limit; `exportLinks` point at our own download path, which has none
  // and is authorised with the bearer token like Google's links.
  const exportRoutes = [
    { path: "/drive/v3/files/:fileId/export", id: "drive.files.export", limit: EXPORT_LIMIT_BYTES },
    { path: "/drive/v3/files/:fileId/exportLinks", id: "drive.files.exportLink", limit: undefined },
  ];
  for (const { path, id, limit } of exportRoutes) {
    routes.add({
      method: "GET",
      path,
      id,
      scopes: CONTENT_SCOPES,
      handler: (context, principal) => {
        const viewer = caller(principal);
        const { file, access } = visible(
          context.params.fileId ?? "",
          viewer,
          new URLSearchParams({ supportsAllDrives: "true" }),
        );
        const mimeType = context.query.get("mimeType");
        return sendBytes(context, exportBytes(file, access, mimeType, limit), mimeType as string);
      },
    });
  }
}
