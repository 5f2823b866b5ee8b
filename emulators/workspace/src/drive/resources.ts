/**
 * Drive v3 JSON shapes: files (with capabilities, owners, permissions, exportLinks), permissions,
 * revisions, shared drives and changes, as the caller sees them, plus Drive's default partial responses
 * (what Drive v3 returns when the request has no `fields`).
 */
import { exportFormatsOf, hasGoogleContent, isGoogleType } from "./google-types";
import { contentRestricted } from "./media";
import { GOOGLE_DOC, GOOGLE_FOLDER, GOOGLE_SHEET, GOOGLE_SLIDES } from "./office";
import { type DriveStore } from "./store";
import {
  ROLE_RANK,
  permissionIdFor,
  rootIdFor,
  type Access,
  type DrivePerson,
  type Role,
  type StoredDrive,
  type StoredFile,
  type StoredPermission,
  type StoredRevision,
} from "./store-model";

export const DEFAULT_FILE_FIELDS = "kind,id,name,mimeType";
export const DEFAULT_FILE_LIST_FIELDS = `kind,nextPageToken,incompleteSearch,files(${DEFAULT_FILE_FIELDS})`;
export const DEFAULT_PERMISSION_FIELDS = "kind,id,type,emailAddress,role,domain,allowFileDiscovery";
export const DEFAULT_REVISION_FIELDS = "kind,id,mimeType,modifiedTime";
export const DEFAULT_CHANGE_LIST_FIELDS = `kind,nextPageToken,newStartPageToken,changes(kind,changeType,time,removed,fileId,file(${DEFAULT_FILE_FIELDS}),driveId,drive(kind,id,name))`;

/**
 * The storage quota a file uses (`files.quotaBytesUsed`): its content's bytes when it is a blob in a My
 * Drive; Google files and shared drives' files use none of the user's quota.
 */
export function quotaBytesUsed(file: StoredFile, head: StoredRevision | undefined): number {
  return !isGoogleType(file.mimeType) && !file.driveId ? (head?.size ?? 0) : 0;
}

export interface RenderContext {
  store: DriveStore;
  baseUrl: string;
  viewer: DrivePerson;
}

export function userJson(person: DrivePerson | undefined, viewer: DrivePerson, fallbackId = ""): unknown {
  if (!person) {
    return {
      kind: "drive#user",
      displayName: "Deleted user",
      me: false,
      permissionId: digitsFallback(fallbackId),
    };
  }
  return {
    kind: "drive#user",
    displayName: person.displayName,
    emailAddress: person.email,
    permissionId: permissionIdFor({ type: "user", role: "reader", emailAddress: person.email }),
    me: person.id === viewer.id,
  };
}

function digitsFallback(id: string): string {
  return permissionIdFor({ type: "user", role: "reader", emailAddress: `deleted:${id}` });
}

function extension(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1) : undefined;
}

export function exportLinksFor(baseUrl: string, file: StoredFile): Record<string, string> | undefined {
  const formats = exportFormatsOf(file.mimeType);
  if (!formats) return undefined;
  const links: Record<string, string> = {};
  for (const mimeType of formats) {
    links[mimeType] =
      `${baseUrl}/drive/v3/files/${file.id}/exportLinks?mimeType=${encodeURIComponent(mimeType)}`;
  }
  return links;
}

function webViewLink(file: StoredFile): string {
  if (file.mimeType === GOOGLE_FOLDER) return `https://drive.google.com/drive/folders/${file.id}`;
  if (file.mimeType === GOOGLE_DOC) return `https://docs.google.com/document/d/${file.id}/edit?usp=drivesdk`;
  if (file.mimeType === GOOGLE_SHEET)
    return `https://docs.google.com/spreadsheets/d/${file.id}/edit?usp=drivesdk`;
  if (file.mimeType === GOOGLE_SLIDES)
    return `https://docs.google.com/presentation/d/${file.id}/edit?usp=drivesdk`;
  return `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`;
}

export function capabilities(file: StoredFile, access: Access): Record<string, boolean> {
  const { role } = access;
  const rank = ROLE_RANK[role];
  const folder = file.mimeType === GOOGLE_FOLDER;
  const restricted = contentRestricted(file, access);
  const shared = !!file.driveId;
  const writer = rank >= ROLE_RANK.writer;
  const canTrash = shared ? rank >= ROLE_RANK.fileOrganizer : role === "owner";
  const canDelete = shared ? rank >= ROLE_RANK.organizer : role === "owner";
  return {
    canAddChildren: folder && writer,
    canChangeCopyRequiresWriterPermission: writer && !folder,
    canComment: rank >= ROLE_RANK.commenter,
    canCopy: !folder && !restricted,
    canDelete,
    canDownload: !restricted,
    canEdit: writer,
    canListChildren: folder,
    canModifyContent: writer,
    // Within a shared drive only content managers and managers organise items.
    canMoveItemWithinDrive: shared ? rank >= ROLE_RANK.fileOrganizer : writer,
    canReadRevisions: writer && !folder,
    canRemoveChildren: folder && writer,
    canRename: writer,
    canShare: writer,
    canTrash,
    canUntrash: canTrash,
    canReadDrive: shared,
  };
}

export function permissionJson(
  permission: StoredPermission,
  ctx: RenderContext,
  extra: object = {},
): unknown {
  const person = permission.emailAddress ? ctx.store.personByEmail(permission.emailAddress) : undefined;
  return {
    kind: "drive#permission",
    id: permission.id,
    type: permission.type,
    role: permission.role,
    ...(permission.emailAddress ? { emailAddress: person?.email ?? permission.emailAddress } : {}),
    ...(permission.domain ? { domain: permission.domain, displayName: permission.domain } : {}),
    ...(person ? { displayName: person.displayName } : {}),
    ...(permission.type === "domain" || permission.type === "anyone" ? { allowFileDiscovery: false } : {}),
    deleted: false,
    pendingOwner: false,
    ...extra,
  };
}

/** A file's permissions as permissions.list shows them (owner first; drive members for shared drives). */
export function filePermissions(file: StoredFile, ctx: RenderContext): unknown[] {
  const out: unknown[] = [];
  if (file.driveId) {
    const drive = ctx.store.drive(file.driveId);
    for (const member of drive?.members ?? []) {
      out.push(
        permissionJson(member, ctx, {
          permissionDetails: [
            { permissionType: "member", role: member.role, inheritedFrom: file.driveId, inherited: true },
          ],
        }),
      );
    }
    for (const permission of file.permissions) {
      out.push(
        permissionJson(permission, ctx, {
          permissionDetails: [{ permissionType: "file", role: permission.role, inherited: false }],
        }),
      );
    }
    return out;
  }
  const owner = ctx.store.person(file.ownerId);
  if (owner) {
    out.push(
      permissionJson(
        {
          id: permissionIdFor({ type: "user", role: "owner", emailAddress: owner.email }),
          type: "user",
          role: "owner",
          emailAddress: owner.email,
        },
        ctx,
      ),
    );
  }
  for (const permission of file.permissions) out.push(permissionJson(permission, ctx));
  return out;
}

export function fileJson(file: StoredFile, access: Access, ctx: RenderContext): Record<string, unknown> {
  const { store, viewer } = ctx;
  const head = store.head(file);
  const blob = !isGoogleType(file.mimeType);
  const owner = store.person(file.ownerId);
  const lastModifier = store.person(file.lastModifyingUserId);
  const permissions = filePermissions(file, ctx) as { id: string }[];
  const ext = blob ? extension(file.name) : undefined;
  const json: Record<string, unknown> = {
    kind: "drive#file",
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    ...(file.description !== undefined ? { description: file.description } : {}),
    starred: file.starred,
    trashed: file.trashed,
    explicitlyTrashed: file.explicitlyTrashed,
    ...(file.trashedTime ? { trashedTime: file.trashedTime } : {}),
    ...(file.trashingUserId
      ? { trashingUser: userJson(store.person(file.trashingUserId), viewer, file.trashingUserId) }
      : {}),
    parents: [...file.parents],
    ...(file.properties ? { properties: { ...file.properties } } : {}),
    ...(file.appProperties ? { appProperties: { ...file.appProperties } } : {}),
    spaces: ["drive"],
    version: String(file.version),
    webViewLink: webViewLink(file),
    iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${file.mimeType}`,
    hasThumbnail: false,
    thumbnailVersion: "0",
    viewedByMe: true,
    createdTime: file.createdTime,
    modifiedTime: file.modifiedTime,
    modifiedByMe: file.lastModifyingUserId === viewer.id,
    ...(file.lastModifyingUserId === viewer.id ? { modifiedByMeTime: file.modifiedTime } : {}),
    ...(file.driveId
      ? { driveId: file.driveId, teamDriveId: file.driveId }
      : { owners: [userJson(owner, viewer, file.ownerId)], ownedByMe: file.ownerId === viewer.id }),
    ...(!file.driveId && file.ownerId !== viewer.id && access.via.has("user")
      ? { sharedWithMeTime: file.createdTime, sharingUser: userJson(owner, viewer, file.ownerId) }
      : {}),
    lastModifyingUser: userJson(lastModifier, viewer, file.lastModifyingUserId),
    shared: file.permissions.length > 0,
    capabilities: capabilities(file, access),
    viewersCanCopyContent: !file.copyRequiresWriterPermission,
    copyRequiresWriterPermission: file.copyRequiresWriterPermission ?? false,
    downloadRestrictions: downloadRestrictionsJson(file),
    ...(file.shortcutDetails ? { shortcutDetails: { ...file.shortcutDetails } } : {}),
    writersCanShare: true,
    ...(file.driveId ? {} : { permissions }),
    permissionIds: permissions.map((permission) => permission.id),
    isAppAuthorized: false,
    quotaBytesUsed: String(quotaBytesUsed(file, head)),
  };
  if (blob && head) {
    Object.assign(json, {
      originalFilename: file.name,
      ...(ext ? { fullFileExtension: ext, fileExtension: ext } : {}),
      md5Checksum: head.md5,
      sha256Checksum: head.sha256,
      size: String(head.size),
      headRevisionId: head.id,
      webContentLink: `https://drive.google.com/uc?id=${file.id}&export=download`,
    });
  }
  const exportLinks = exportLinksFor(ctx.baseUrl, file);
  if (exportLinks) json.exportLinks = exportLinks;
  return json;
}

/** `downloadRestrictions`: the file's own restriction and the one in effect (copy restriction included). */
function downloadRestrictionsJson(file: StoredFile): unknown {
  const item = {
    restrictedForReaders: file.downloadRestriction?.restrictedForReaders ?? false,
    restrictedForWriters: file.downloadRestriction?.restrictedForWriters ?? false,
  };
  return {
    itemDownloadRestriction: item,
    effectiveDownloadRestrictionWithContext: {
      restrictedForReaders:
        item.restrictedForReaders || item.restrictedForWriters || !!file.copyRequiresWriterPermission,
      restrictedForWriters: item.restrictedForWriters,
    },
  };
}

/** The caller's My Drive root folder (files.get("root")). */
export function rootFolderJson(viewer: DrivePerson, createdTime: string): Record<string, unknown> {
  return {
    kind: "drive#file",
    id: rootIdFor(viewer.id),
    name: "My Drive",
    mimeType: GOOGLE_FOLDER,
    starred: false,
    trashed: false,
    explicitlyTrashed: false,
    spaces: ["drive"],
    version: "1",
    webViewLink: "https://drive.google.com/drive/my-drive",
    createdTime,
    modifiedTime: createdTime,
    owners: [userJson(viewer, viewer)],
    ownedByMe: true,
    shared: false,
    capabilities: {
      canAddChildren: true,
      canListChildren: true,
      canDownload: true,
      canEdit: true,
      canRename: false,
      canShare: false,
      canTrash: false,
      canDelete: false,
    },
  };
}

export function revisionJson(file: StoredFile, revision: StoredRevision, ctx: RenderContext): unknown {
  const google = hasGoogleContent(file.mimeType);
  const exportLinks = exportLinksFor(ctx.baseUrl, file);
  return {
    kind: "drive#revision",
    id: revision.id,
    mimeType: revision.mimeType,
    modifiedTime: revision.modifiedTime,
    lastModifyingUser: userJson(ctx.store.person(revision.userId), ctx.viewer, revision.userId),
    ...(google
      ? { published: false, ...(exportLinks ? { exportLinks } : {}) }
      : {
          keepForever: revision.keepForever,
          md5Checksum: revision.md5,
          size: String(revision.size),
          originalFilename: file.name,
        }),
  };
}

export function driveJson(drive: StoredDrive, role: Role | undefined): unknown {
  const rank = role ? ROLE_RANK[role] : 0;
  const organizer = rank >= ROLE_RANK.organizer;
  return {
    kind: "drive#drive",
    id: drive.id,
    name: drive.name,
    colorRgb: "#4285f4",
    themeId: "abacus",
    backgroundImageLink: "https://ssl.gstatic.com/team_drive_themes/abacus_background.jpg",
    createdTime: drive.createdTime,
    hidden: drive.hidden,
    capabilities: {
      canAddChildren: rank >= ROLE_RANK.writer,
      canComment: rank >= ROLE_RANK.commenter,
      canCopy: rank >= ROLE_RANK.reader,
      canDeleteDrive: organizer,
      canDownload: rank >= ROLE_RANK.reader,
      canEdit: rank >= ROLE_RANK.writer,
      canListChildren: rank >= ROLE_RANK.reader,
      canManageMembers: organizer,
      canReadRevisions: rank >= ROLE_RANK.reader,
      canRename: organizer,
      canRenameDrive: organizer,
      canShare: organizer,
      canTrashChildren: rank >= ROLE_RANK.fileOrganizer,
    },
    restrictions: {
      adminManagedRestrictions: false,
      copyRequiresWriterPermission: false,
      domainUsersOnly: false,
      driveMembersOnly: false,
      sharingFoldersRequiresOrganizerPermission: false,
    },
  };
}
