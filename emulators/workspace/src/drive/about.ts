/**
 * Drive v3 `about.get` (https://developers.google.com/workspace/drive/api/reference/rest/v3/about): the
 * caller, their storage quota and Drive's import and export formats. The storage quota's figures are int64
 * values, so strings, in bytes: `usageInDrive` is what the user's own files in Drive use (trashed ones
 * included, as `files.quotaBytesUsed` counts them), `usageInDriveTrash` the trashed ones' part. `usage` (all
 * services) is Drive's alone here: the emulator keeps no mailbox sizes.
 */
import { GoogleApiError } from "../http";
import { READ_SCOPES, type DriveRoutes } from "./common";
import { MAX_UPLOAD_BYTES } from "./files-write";
import { ALL_EXPORT_FORMATS } from "./google-types";
import { IMPORT_FORMATS } from "./office";
import { quotaBytesUsed, userJson } from "./resources";

export function registerAboutRoutes(routes: DriveRoutes): void {
  const { store, caller } = routes;

  routes.add({
    method: "GET",
    path: "/drive/v3/about",
    id: "drive.about.get",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      if (!context.query.get("fields")) {
        throw new GoogleApiError(400, "The 'fields' parameter is required for this method.", "required", {
          extra: { location: "fields", locationType: "parameter" },
        });
      }
      const viewer = caller(principal);
      let usage = 0;
      let trash = 0;
      for (const file of store.allFiles()) {
        if (file.ownerId !== viewer.id) continue;
        const used = quotaBytesUsed(file, store.head(file));
        usage += used;
        if (file.trashed) trash += used;
      }
      return {
        kind: "drive#about",
        user: userJson(viewer, viewer),
        storageQuota: {
          limit: String(30 * 1024 ** 4),
          usage: String(usage),
          usageInDrive: String(usage),
          usageInDriveTrash: String(trash),
        },
        maxUploadSize: String(MAX_UPLOAD_BYTES),
        appInstalled: false,
        canCreateDrives: true,
        exportFormats: Object.fromEntries(Object.entries(ALL_EXPORT_FORMATS)),
        importFormats: Object.fromEntries(Object.entries(IMPORT_FORMATS)),
        folderColorPalette: ["#8f8f8f"],
      };
    },
  });
}
