/**
 * Drive v3 changes: `changes.getStartPageToken` and `changes.list` (per user or per shared drive, removals,
 * newest change of each item only).
 */
import { GoogleApiError, boolParam, intParam } from "../http";
import { READ_SCOPES, allDrivesFlag, csv, defaultFields, type DriveRoutes } from "./common";
import { driveNotFound, invalidValue, required } from "./errors";
import { DEFAULT_CHANGE_LIST_FIELDS, driveJson, fileJson } from "./resources";
import { type DrivePerson } from "./store-model";

export function registerChangeRoutes(routes: DriveRoutes): void {
  const { store, caller, render } = routes;

  const checkDriveParam = (query: URLSearchParams, viewer: DrivePerson): string | undefined => {
    const driveId = query.get("driveId") ?? query.get("teamDriveId") ?? undefined;
    if (!driveId) return undefined;
    if (!allDrivesFlag(query)) {
      throw new GoogleApiError(
        403,
        "The supportsAllDrives parameter must be set to true when driveId is specified.",
        "teamDrivesParameterNotSupported",
      );
    }
    const sharedDrive = store.drive(driveId);
    if (!sharedDrive || !store.driveRole(sharedDrive, viewer)) throw driveNotFound(driveId);
    return driveId;
  };

  routes.add({
    method: "GET",
    path: "/drive/v3/changes/startPageToken",
    id: "drive.changes.getStartPageToken",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      checkDriveParam(context.query, caller(principal));
      return { kind: "drive#startPageToken", startPageToken: String(store.nextChangeToken()) };
    },
  });

  routes.add({
    method: "GET",
    path: "/drive/v3/changes",
    id: "drive.changes.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const { query } = context;
      const viewer = caller(principal);
      const raw = query.get("pageToken");
      if (!raw) throw required("pageToken");
      if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalidValue("pageToken");
      const token = Number(raw);
      if (token > store.nextChangeToken()) {
        throw new GoogleApiError(404, "The page token is not valid.", "notFound", {
          extra: { location: "pageToken", locationType: "parameter" },
        });
      }
      const driveId = checkDriveParam(query, viewer);
      const sharedItems = boolParam(query, "includeItemsFromAllDrives") && allDrivesFlag(query);
      const includeRemoved = boolParam(query, "includeRemoved", true);
      const restrictToMyDrive = boolParam(query, "restrictToMyDrive");
      const pageSize = intParam(query, "pageSize", { default: 100, min: 1, max: 1000 });
      const spaces = csv(query.get("spaces"));
      const records = store.changesFrom(token);
      const last = new Map<string, number>();
      for (const record of records) last.set(`${record.type}:${record.id}`, record.seq);
      const ctx = render(viewer);
      const changes: unknown[] = [];
      let nextToken: number | undefined;
      for (const record of records) {
        if (changes.length >= pageSize) {
          nextToken = record.seq;
          break;
        }
        if (last.get(`${record.type}:${record.id}`) !== record.seq) continue;
        if (spaces.length > 0 && !spaces.includes("drive")) continue;
        if (record.type === "drive") {
          if (driveId || restrictToMyDrive) continue;
          const sharedDrive = store.drive(record.id);
          const role = sharedDrive ? store.driveRole(sharedDrive, viewer) : undefined;
          if (!sharedDrive || !role) continue;
          changes.push({
            kind: "drive#change",
            changeType: "drive",
            type: "drive",
            time: record.time,
            removed: false,
            driveId: record.id,
            teamDriveId: record.id,
            drive: driveJson(sharedDrive, role),
          });
          continue;
        }
        const file = store.fileOrTombstone(record.id);
        if (!file) continue;
        if (driveId ? file.driveId !== driveId : file.driveId && !sharedItems) continue;
        if (restrictToMyDrive && (file.driveId || file.ownerId !== viewer.id)) continue;
        const access = store.access(file, viewer);
        if (!access) continue;
        const live = store.file(record.id) !== undefined;
        if (!live && !includeRemoved) continue;
        changes.push({
          kind: "drive#change",
          changeType: "file",
          type: "file",
          time: record.time,
          removed: !live,
          fileId: file.id,
          ...(live ? { file: fileJson(file, access, ctx) } : {}),
        });
      }
      const result = {
        kind: "drive#changeList",
        ...(nextToken !== undefined
          ? { nextPageToken: String(nextToken) }
          : { newStartPageToken: String(store.nextChangeToken()) }),
        changes,
      };
      return defaultFields(context, result, DEFAULT_CHANGE_LIST_FIELDS);
    },
  });
}
