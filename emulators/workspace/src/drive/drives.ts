/**
 * Drive v3 shared drives: `drives.list`, `drives.get` (members, or a super admin with
 * `useDomainAdminAccess=true`) and `drives.create`.
 */
import { intParam } from "../http";
import {
  READ_SCOPES,
  WRITE_SCOPES,
  decodeOffsetToken,
  domainAdminAccess,
  encodeOffsetToken,
  optionalString,
  type DriveRoutes,
} from "./common";
import { driveNotFound, required } from "./errors";
import { driveJson } from "./resources";

export function registerSharedDriveRoutes(routes: DriveRoutes): void {
  const { store, caller } = routes;

  routes.add({
    method: "GET",
    path: "/drive/v3/drives",
    id: "drive.drives.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const viewer = caller(principal);
      const asAdmin = domainAdminAccess(context.query, principal);
      const pageSize = intParam(context.query, "pageSize", { default: 10, min: 1, max: 100 });
      const all = store
        .allDrives()
        .filter((sharedDrive) =>
          asAdmin
            ? sharedDrive.customerId === viewer.customerId
            : store.driveRole(sharedDrive, viewer) !== undefined,
        );
      const key = `drives|${String(asAdmin)}`;
      const start = decodeOffsetToken(context.query.get("pageToken"), key);
      const page = all.slice(start, start + pageSize);
      const next = start + pageSize < all.length ? encodeOffsetToken(start + pageSize, key) : undefined;
      return {
        kind: "drive#driveList",
        ...(next ? { nextPageToken: next } : {}),
        drives: page.map((sharedDrive) => driveJson(sharedDrive, store.driveRole(sharedDrive, viewer))),
      };
    },
  });

  routes.add({
    method: "GET",
    path: "/drive/v3/drives/:driveId",
    id: "drive.drives.get",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const viewer = caller(principal);
      const asAdmin = domainAdminAccess(context.query, principal);
      const driveId = context.params.driveId ?? "";
      const sharedDrive = store.drive(driveId);
      const role = sharedDrive ? store.driveRole(sharedDrive, viewer) : undefined;
      if (!sharedDrive || (!role && !(asAdmin && sharedDrive.customerId === viewer.customerId))) {
        throw driveNotFound(driveId);
      }
      return driveJson(sharedDrive, role);
    },
  });

  routes.add({
    method: "POST",
    path: "/drive/v3/drives",
    id: "drive.drives.create",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) => {
      const viewer = caller(principal);
      if (!context.query.get("requestId")) throw required("requestId");
      const name = optionalString(await context.json(), "name");
      if (!name) throw required("name");
      const { id } = store.createSharedDrive({ name, creatorUserId: viewer.id });
      const sharedDrive = store.drive(id);
      return driveJson(sharedDrive as NonNullable<typeof sharedDrive>, "organizer");
    },
  });
}
