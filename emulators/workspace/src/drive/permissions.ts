/**
 * Drive v3 permissions: of a file (its owner, user/group/domain/anyone permissions, and for shared-drive
 * files the drive's members, inherited) and of a shared drive itself (`fileId` is the drive id: its
 * members). A super admin who is not a member reaches a shared drive's permissions only with
 * `useDomainAdminAccess=true`; that flag never opens the files inside the drive.
 */
import { boolParam, GoogleApiError, intParam, type RequestContext } from "../http";
import type { Principal } from "../principal";
import {
  READ_SCOPES,
  WRITE_SCOPES,
  allDrivesFlag,
  decodeOffsetToken,
  defaultFields,
  domainAdminAccess,
  encodeOffsetToken,
  optionalString,
  requireRole,
  visibleFile,
  type DriveRoutes,
} from "./common";
import {
  fileNotFound,
  insufficientFilePermissions,
  invalidValue,
  permissionNotFound,
  required,
} from "./errors";
import { DEFAULT_PERMISSION_FIELDS, filePermissions, permissionJson, type RenderContext } from "./resources";
import {
  ROLE_RANK,
  type Access,
  type DrivePerson,
  type PermissionInput,
  type Role,
  type StoredDrive,
  type StoredFile,
  type StoredPermission,
} from "./store-model";

/** What a permissions call is about: a file, or a shared drive (with how the caller reaches it). */
type Target =
  | { kind: "file"; file: StoredFile; access: Access }
  | { kind: "drive"; drive: StoredDrive; role?: Role; asAdmin: boolean };

function ownerRoleOnSharedDrive(): GoogleApiError {
  return new GoogleApiError(
    403,
    "Shared drive files cannot have the owner role.",
    "teamDrivesOwnerRoleNotSupported",
  );
}

function inheritedPermission(): GoogleApiError {
  return new GoogleApiError(
    403,
    "Inherited permissions of a shared drive item cannot be changed on the item.",
    "cannotModifyInheritedTeamDrivePermission",
  );
}

/**
 * The file or shared drive named by `fileId`. A shared drive answers its members (with
 * supportsAllDrives), or a super admin of its customer who asks with `useDomainAdminAccess=true`;
 * anyone else gets Google's 404, as for a file they cannot see.
 */
function targetOf(
  routes: DriveRoutes,
  context: RequestContext,
  principal: Principal,
  viewer: DrivePerson,
): Target {
  const { store } = routes;
  const fileId = context.params.fileId ?? "";
  const asAdmin = domainAdminAccess(context.query, principal);
  const drive = store.drive(fileId);
  if (drive) {
    const role = store.driveRole(drive, viewer);
    const admin = asAdmin && drive.customerId === viewer.customerId;
    if (!allDrivesFlag(context.query) || (!role && !admin)) throw fileNotFound(fileId);
    return { kind: "drive", drive, role, asAdmin: admin };
  }
  return { kind: "file", ...visibleFile(store, fileId, viewer, context.query) };
}

/** Members of a shared drive manage its permissions: organizers, or a super admin with domain access. */
function requireManager(target: Target & { kind: "drive" }): void {
  if (target.asAdmin) return;
  if (!target.role || ROLE_RANK[target.role] < ROLE_RANK.organizer) throw insufficientFilePermissions();
}

function memberJson(member: StoredPermission, ctx: RenderContext): unknown {
  return permissionJson(member, ctx, {
    permissionDetails: [{ permissionType: "member", role: member.role, inherited: false }],
  });
}

function permissionsOf(target: Target, ctx: RenderContext): { id: string }[] {
  return (
    target.kind === "drive"
      ? target.drive.members.map((member) => memberJson(member, ctx))
      : filePermissions(target.file, ctx)
  ) as { id: string }[];
}

/** The permission a create or update asks for, checked as Google checks it. */
function requestedPermission(body: Record<string, unknown>, forDrive: boolean): PermissionInput {
  const type = optionalString(body, "type");
  const role = optionalString(body, "role");
  if (!type) throw required("permission.type");
  if (!role) throw required("permission.role");
  const types = forDrive ? ["user", "group", "domain"] : ["user", "group", "domain", "anyone"];
  if (!types.includes(type)) throw invalidValue("permission.type");
  if (!(role in ROLE_RANK)) throw invalidValue("permission.role");
  const emailAddress = optionalString(body, "emailAddress");
  const domain = optionalString(body, "domain");
  if ((type === "user" || type === "group") && !emailAddress) throw required("permission.emailAddress");
  if (type === "domain" && !domain) throw required("permission.domain");
  return {
    type: type as PermissionInput["type"],
    role: role as Role,
    ...(emailAddress ? { emailAddress } : {}),
    ...(domain ? { domain } : {}),
  };
}

/** Makes `emailAddress` the owner of a My Drive file (role owner with transferOwnership=true). */
function transferOwnership(
  routes: DriveRoutes,
  context: RequestContext,
  viewer: DrivePerson,
  file: StoredFile,
  access: Access,
  input: PermissionInput,
): unknown {
  const { store, render } = routes;
  if (!boolParam(context.query, "transferOwnership")) {
    throw new GoogleApiError(
      403,
      "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
      "forbidden",
      { extra: { location: "transferOwnership", locationType: "parameter" } },
    );
  }
  if (access.role !== "owner") throw insufficientFilePermissions();
  const newOwner =
    input.type === "user" && input.emailAddress ? store.personByEmail(input.emailAddress) : undefined;
  if (!newOwner || newOwner.customerId !== viewer.customerId) {
    throw new GoogleApiError(
      400,
      'Bad Request. User message: "You can\'t change the owner of this item."',
      "invalidSharingRequest",
    );
  }
  store.transferOwnership(file.id, newOwner.id);
  const ownerPermission = (
    filePermissions(store.file(file.id) as StoredFile, render(viewer)) as unknown[]
  )[0];
  return defaultFields(context, ownerPermission, DEFAULT_PERMISSION_FIELDS);
}

/** `permissions.list` and `permissions.get`. */
export function registerPermissionReadRoutes(routes: DriveRoutes): void {
  const { render } = routes;

  routes.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/permissions",
    id: "drive.permissions.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const viewer = routes.caller(principal);
      const target = targetOf(routes, context, principal, viewer);
      const pageSize = intParam(context.query, "pageSize", { default: 100, min: 1, max: 100 });
      const all = permissionsOf(target, render(viewer));
      const key = `permissions|${target.kind === "drive" ? target.drive.id : target.file.id}`;
      const start = decodeOffsetToken(context.query.get("pageToken"), key);
      const next = start + pageSize < all.length ? encodeOffsetToken(start + pageSize, key) : undefined;
      const result = {
        kind: "drive#permissionList",
        ...(next ? { nextPageToken: next } : {}),
        permissions: all.slice(start, start + pageSize),
      };
      return defaultFields(context, result, `kind,nextPageToken,permissions(${DEFAULT_PERMISSION_FIELDS})`);
    },
  });
  routes.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/permissions/:permissionId",
    id: "drive.permissions.get",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const viewer = routes.caller(principal);
      const target = targetOf(routes, context, principal, viewer);
      const permissionId = context.params.permissionId ?? "";
      const found = permissionsOf(target, render(viewer)).find((p) => p.id === permissionId);
      if (!found) throw permissionNotFound(permissionId);
      return defaultFields(context, found, DEFAULT_PERMISSION_FIELDS);
    },
  });
}

/** `permissions.create`, `permissions.update` and `permissions.delete`. */
export function registerPermissionWriteRoutes(routes: DriveRoutes): void {
  const { store, render } = routes;

  routes.add({
    method: "POST",
    path: "/drive/v3/files/:fileId/permissions",
    id: "drive.permissions.create",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) => {
      const viewer = routes.caller(principal);
      const target = targetOf(routes, context, principal, viewer);
      const body = await context.json();
      if (target.kind === "drive") {
        requireManager(target);
        const input = requestedPermission(body, true);
        if (input.role === "owner") throw ownerRoleOnSharedDrive();
        store.addDriveMember(target.drive.id, input);
        const member = target.drive.members.at(-1) as StoredPermission;
        return defaultFields(context, memberJson(member, render(viewer)), DEFAULT_PERMISSION_FIELDS);
      }
      const { file, access } = target;
      requireRole(access, "writer");
      const input = requestedPermission(body, false);
      if (input.role === "owner") {
        if (file.driveId) throw ownerRoleOnSharedDrive();
        return transferOwnership(routes, context, viewer, file, access, input);
      }
      if ((input.role === "organizer" || input.role === "fileOrganizer") && !file.driveId)
        throw invalidValue("permission.role");
      const { id } = store.addPermission(file.id, input);
      const stored = (store.file(file.id) as StoredFile).permissions.find(
        (permission) => permission.id === id,
      );
      const details = file.driveId
        ? { permissionDetails: [{ permissionType: "file", role: input.role, inherited: false }] }
        : {};
      return defaultFields(
        context,
        permissionJson(stored as StoredPermission, render(viewer), details),
        DEFAULT_PERMISSION_FIELDS,
      );
    },
  });
  routes.add({
    method: "PATCH",
    path: "/drive/v3/files/:fileId/permissions/:permissionId",
    id: "drive.permissions.update",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) => {
      const viewer = routes.caller(principal);
      const target = targetOf(routes, context, principal, viewer);
      const permissionId = context.params.permissionId ?? "";
      const role = optionalString(await context.json(), "role");
      if (!role) throw required("permission.role");
      if (!(role in ROLE_RANK)) throw invalidValue("permission.role");
      if (target.kind === "drive") {
        requireManager(target);
        if (role === "owner") throw ownerRoleOnSharedDrive();
        if (!store.updateDriveMember(target.drive.id, permissionId, role as Role))
          throw permissionNotFound(permissionId);
        const member = target.drive.members.find((item) => item.id === permissionId) as StoredPermission;
        return defaultFields(context, memberJson(member, render(viewer)), DEFAULT_PERMISSION_FIELDS);
      }
      const { file, access } = target;
      requireRole(access, "writer");
      const existing = file.permissions.find((permission) => permission.id === permissionId);
      if (!existing) {
        const listed = permissionsOf(target, render(viewer)).some((p) => p.id === permissionId);
        if (!listed) throw permissionNotFound(permissionId);
        // The owner's permission, or a drive member's inherited one: not changeable on the file.
        throw file.driveId ? inheritedPermission() : insufficientFilePermissions();
      }
      if (role === "owner") {
        if (file.driveId) throw ownerRoleOnSharedDrive();
        return transferOwnership(routes, context, viewer, file, access, { ...existing, role: "owner" });
      }
      if ((role === "organizer" || role === "fileOrganizer") && !file.driveId)
        throw invalidValue("permission.role");
      store.updatePermission(file.id, permissionId, role as Role);
      const details = file.driveId
        ? { permissionDetails: [{ permissionType: "file", role, inherited: false }] }
        : {};
      return defaultFields(
        context,
        permissionJson(existing, render(viewer), details),
        DEFAULT_PERMISSION_FIELDS,
      );
    },
  });
  routes.add({
    method: "DELETE",
    path: "/drive/v3/files/:fileId/permissions/:permissionId",
    id: "drive.permissions.delete",
    scopes: WRITE_SCOPES,
    handler: (context, principal) => {
      const viewer = routes.caller(principal);
      const target = targetOf(routes, context, principal, viewer);
      const permissionId = context.params.permissionId ?? "";
      if (target.kind === "drive") {
        requireManager(target);
        if (!store.removeDriveMember(target.drive.id, permissionId)) throw permissionNotFound(permissionId);
        return undefined;
      }
      const { file, access } = target;
      requireRole(access, "writer");
      if (!store.removePermission(file.id, permissionId)) {
        const listed = permissionsOf(target, render(viewer)).some((p) => p.id === permissionId);
        if (!listed) throw permissionNotFound(permissionId);
        throw file.driveId ? inheritedPermission() : insufficientFilePermissions();
      }
      return undefined;
    },
  });
}

export function registerPermissionRoutes(routes: DriveRoutes): void {
  registerPermissionReadRoutes(routes);
  registerPermissionWriteRoutes(routes);
}
