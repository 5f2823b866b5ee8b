/** Who reaches what in the Drive store: permissions as stored, roles in shared drives, and a caller's access. */
import { type DrivePeopleBook } from "./store-people";
import {
  type Access,
  type DrivePerson,
  type PermissionInput,
  type Role,
  type StoredDrive,
  type StoredFile,
  type StoredPermission,
  ROLE_RANK,
  permissionIdFor,
} from "./store-model";

/** What access is computed from: the people, the shared drives and the files (live or deleted). */
export interface AccessLookup {
  people: DrivePeopleBook;
  drive(driveId: string): StoredDrive | undefined;
  fileOrTombstone(fileId: string): StoredFile | undefined;
}

/** A permission as the store keeps it: with its stable id, lower-case addresses, only its type's fields. */
export function toPermission(permission: PermissionInput): StoredPermission {
  const email = permission.emailAddress?.toLowerCase();
  if ((permission.type === "user" || permission.type === "group") && !email) {
    throw new Error("emailAddress is required for user and group permissions");
  }
  if (permission.type === "domain" && !permission.domain) throw new Error("domain is required");
  return {
    id: permissionIdFor({ ...permission, emailAddress: email }),
    type: permission.type,
    role: permission.role,
    ...(email && (permission.type === "user" || permission.type === "group") ? { emailAddress: email } : {}),
    ...(permission.type === "domain" ? { domain: permission.domain?.toLowerCase() } : {}),
  };
}

/** The permissions of a file whose owner changes: the former owner keeps writer access, the new one needs none. */
export function transferTo(file: StoredFile, former: DrivePerson | undefined, newOwner: DrivePerson): void {
  if (former)
    file.permissions.push(toPermission({ type: "user", role: "writer", emailAddress: former.email }));
  const newOwnerPermission = permissionIdFor({ type: "user", role: "owner", emailAddress: newOwner.email });
  file.permissions = file.permissions.filter((permission) => permission.id !== newOwnerPermission);
}

/** The caller's role in a shared drive, or undefined when not a member. */
export function driveRoleOf(
  people: DrivePeopleBook,
  drive: StoredDrive,
  viewer: DrivePerson,
): Role | undefined {
  let best: Role | undefined;
  for (const member of drive.members) {
    if (!people.permissionMatches(member, viewer)) continue;
    if (!best || ROLE_RANK[member.role] > ROLE_RANK[best]) best = member.role;
  }
  return best;
}

/** The caller's role on a file (direct, inherited from folders, or as a shared drive member). */
export function accessOf(
  lookup: AccessLookup,
  file: StoredFile,
  viewer: DrivePerson,
  depth = 0,
): Access | undefined {
  let role: Role | undefined;
  const via: Access["via"] = new Set();
  const grant = (candidate: Role, how: "owner" | "user" | "domain" | "anyone" | "member"): void => {
    via.add(how);
    if (!role || ROLE_RANK[candidate] > ROLE_RANK[role]) role = candidate;
  };
  if (!file.driveId && file.ownerId === viewer.id) grant("owner", "owner");
  for (const permission of file.permissions) {
    if (!lookup.people.permissionMatches(permission, viewer)) continue;
    grant(permission.role, permission.type === "group" ? "user" : permission.type);
  }
  if (file.driveId) {
    const drive = lookup.drive(file.driveId);
    const member = drive ? driveRoleOf(lookup.people, drive, viewer) : undefined;
    if (member) grant(member, "member");
  }
  if (depth < 64) {
    for (const parentId of file.parents) {
      const parent = lookup.fileOrTombstone(parentId);
      if (!parent) continue;
      const inherited = accessOf(lookup, parent, viewer, depth + 1);
      if (!inherited) continue;
      for (const how of inherited.via) grant(inherited.role, how === "owner" ? "user" : how);
    }
  }
  return role ? { role, via } : undefined;
}
