/**
 * The member of a shared drive a backup or a recovery acts as: a super admin sees a shared drive's members
 * only, not its files, unless they are a member (Drive's "Shared drives roles").
 */
import type { drive_v3 } from "@googleapis/drive";
import type { GoogleCaller } from "../google/caller";

/** Shared drive roles, most powerful first (Drive's "Shared drives roles"). */
export const DRIVE_ROLES = ["organizer", "fileOrganizer", "writer", "commenter", "reader"] as const;
export type DriveRole = (typeof DRIVE_ROLES)[number];

/**
 * A member of a shared drive to act as (domain-wide delegation), found by a super admin through
 * `permissions.list` with `useDomainAdminAccess` (which works for admins who are not members; the drive's
 * files do not): a user of `domain` (not a group, not someone outside the organisation) holding at least
 * `minimum`, the most powerful first. Undefined when there is none: without adding a member, nobody may
 * read the drive for us. The admin's client must be delegated to `admin`.
 */
export async function findDriveMember(options: {
  drive: drive_v3.Drive;
  caller: GoogleCaller;
  admin: string;
  driveId: string;
  domain: string;
  minimum?: DriveRole;
  signal?: AbortSignal;
}): Promise<string | undefined> {
  const allowed = DRIVE_ROLES.slice(
    0,
    DRIVE_ROLES.indexOf(options.minimum ?? "reader") + 1,
  ) as readonly string[];
  const suffix = `@${options.domain.toLowerCase()}`;
  const members: { email: string; rank: number }[] = [];
  let pageToken: string | undefined;
  do {
    const { data } = await options.caller.call(
      {
        api: "drive",
        user: options.admin,
        method: "drive.permissions.list",
        idempotent: true,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      () =>
        options.drive.permissions.list({
          fileId: options.driveId,
          useDomainAdminAccess: true,
          supportsAllDrives: true,
          pageSize: 100,
          fields: "nextPageToken,permissions(type,role,emailAddress,deleted)",
          ...(pageToken ? { pageToken } : {}),
        }),
    );
    for (const permission of data.permissions ?? []) {
      const email = permission.emailAddress?.toLowerCase();
      const rank = allowed.indexOf(permission.role ?? "");
      if (permission.type !== "user" || permission.deleted || !email?.endsWith(suffix) || rank < 0) continue;
      members.push({ email, rank });
    }
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);
  members.sort((a, b) => a.rank - b.rank || a.email.localeCompare(b.email));
  return members[0]?.email;
}
