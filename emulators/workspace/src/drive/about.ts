/**
 * Drive v3 `about.get`: the caller, their storage quota and Drive's import and export formats.
 */
import { GoogleApiError } from "../http";
import { READ_SCOPES, type DriveRoutes } from "./common";
import { MAX_UPLOAD_BYTES } from "./files-write";
import { ALL_EXPORT_FORMATS } from "./google-types";
import { IMPORT_FORMATS } from "./office";
import { userJson } from "./resources";

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
      for (const file of store.allFiles()) {
        if (!file.driveId && file.ownerId === viewer.id) usage += store.head(file)?.size ?? 0;
      }
      return {
        kind: "drive#about",
        user: userJson(viewer, viewer),
        storageQuota: {
          limit: String(30 * 1024 ** 4),
          usage: String(usage),
          usageInDrive: String(usage),
          usageInDriveTrash: "0",
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
