/**
 * What a Drive version keeps of its file: the metadata (permissions, folder path, the native details a
 * Google file is recreated from, a shortcut's target, an owner outside the organisation) and the search
 * fields.
 */
import type { drive_v3 } from "@googleapis/drive";
import { googleStatus } from "../sources/google-errors";
import { bounded, displayText, keywordsOf } from "../sources/search-text";
import {
  ItemGoneError,
  type DriveNativeInfo,
  type DrivePermission,
  type DriveSearchFields,
  type ItemMetadata,
} from "../sources/source";
import { EXPORT_TYPES, GOOGLE_SHORTCUT, GOOGLE_VID, isGoogleType, type DriveCall } from "./drive-files";

const PERMISSION_FIELDS =
  "nextPageToken,permissions(id,type,role,emailAddress,domain,displayName,allowFileDiscovery,permissionDetails)";

function permissionOf(permission: drive_v3.Schema$Permission): DrivePermission {
  const details = permission.permissionDetails ?? [];
  return {
    id: permission.id ?? "",
    type: permission.type ?? "",
    role: permission.role ?? "",
    ...(permission.emailAddress ? { emailAddress: permission.emailAddress.toLowerCase() } : {}),
    ...(permission.domain ? { domain: permission.domain } : {}),
    ...(permission.displayName ? { displayName: permission.displayName } : {}),
    ...(typeof permission.allowFileDiscovery === "boolean"
      ? { allowFileDiscovery: permission.allowFileDiscovery }
      : {}),
    ...(details.length > 0 ? { inherited: details.every((detail) => detail.inherited === true) } : {}),
  };
}

/** A file's permissions (`permissions.list`, every page); a file that is gone is `ItemGoneError`. */
export async function permissionsOf(
  drive: drive_v3.Drive,
  call: DriveCall,
  fileId: string,
): Promise<DrivePermission[]> {
  const out: DrivePermission[] = [];
  let pageToken: string | undefined;
  do {
    let data: drive_v3.Schema$PermissionList;
    try {
      data = (
        await call("drive.permissions.list", () =>
          drive.permissions.list({
            fileId,
            supportsAllDrives: true,
            pageSize: 100,
            fields: PERMISSION_FIELDS,
            ...(pageToken ? { pageToken } : {}),
          }),
        )
      ).data;
    } catch (error) {
      if (googleStatus(error) === 404) throw new ItemGoneError(fileId);
      throw error;
    }
    for (const permission of data.permissions ?? []) out.push(permissionOf(permission));
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);
  return out;
}

/**
 * The format a Google file is exported to: its office format, else PDF, else the first Drive offers; a
 * Vid's MP4 (it has no export links: `files.download` serves it).
 */
export function exportMimeTypeOf(file: drive_v3.Schema$File): string | undefined {
  if (file.mimeType === GOOGLE_VID) return EXPORT_TYPES[GOOGLE_VID];
  const links = file.exportLinks ?? {};
  const wanted = EXPORT_TYPES[file.mimeType ?? "application/octet-stream"];
  return wanted && links[wanted]
    ? wanted
    : links["application/pdf"]
      ? "application/pdf"
      : Object.keys(links)[0];
}

/** What a file's version keeps besides its content. */
export interface FileDetails {
  path: string;
  permissions: DrivePermission[];
  exportMimeType: string | undefined;
  externalOwner: string | undefined;
}

/** The native details a Google file is recreated from on restore (undefined: not a Google file, or no export). */
function nativeOf(file: drive_v3.Schema$File, details: FileDetails): DriveNativeInfo | undefined {
  const mimeType = file.mimeType ?? "application/octet-stream";
  const { exportMimeType, path } = details;
  if (!isGoogleType(mimeType) || !exportMimeType) return undefined;
  return {
    mimeType,
    exportMimeType,
    name: file.name ?? "",
    ...(file.description ? { description: file.description } : {}),
    ...(file.properties ? { properties: file.properties } : {}),
    ...(file.appProperties ? { appProperties: file.appProperties } : {}),
    parents: file.parents ?? [],
    path,
  };
}

/** A shortcut's target (only for shortcuts). */
function shortcutOf(file: drive_v3.Schema$File, mimeType: string): Pick<ItemMetadata, "shortcut"> {
  const shortcut = mimeType === GOOGLE_SHORTCUT ? file.shortcutDetails : undefined;
  if (!shortcut?.targetId) return {};
  return {
    shortcut: {
      targetId: shortcut.targetId,
      ...(shortcut.targetMimeType ? { targetMimeType: shortcut.targetMimeType } : {}),
      ...(shortcut.targetResourceKey ? { targetResourceKey: shortcut.targetResourceKey } : {}),
    },
  };
}

/** A file's version metadata. */
export function fileMetadataOf(file: drive_v3.Schema$File, details: FileDetails): ItemMetadata {
  const mimeType = file.mimeType ?? "application/octet-stream";
  const { path, permissions, exportMimeType, externalOwner } = details;
  const native = nativeOf(file, details);
  // A Google file Google offers no export of (Form, Site, My Map, Jamboard): its details, no content. A
  // Vid is kept as its MP4, with the native info that tells restore it cannot be recreated as a Vid.
  const notExportable = isGoogleType(mimeType) && !exportMimeType && mimeType !== GOOGLE_SHORTCUT;
  return {
    name: file.name ?? "",
    mimeType,
    path,
    parents: file.parents ?? [],
    ...(file.driveId ? { driveId: file.driveId } : {}),
    ...(file.headRevisionId ? { headRevisionId: file.headRevisionId } : {}),
    ...(file.version ? { version: file.version } : {}),
    ...(file.modifiedTime ? { modifiedTime: file.modifiedTime } : {}),
    ...(file.createdTime ? { createdTime: file.createdTime } : {}),
    trashed: file.trashed === true,
    ...(file.md5Checksum ? { md5Checksum: file.md5Checksum } : {}),
    ...(file.description ? { description: file.description } : {}),
    ...(file.properties ? { properties: file.properties } : {}),
    ...(file.appProperties ? { appProperties: file.appProperties } : {}),
    permissions,
    ...(native ? { native } : {}),
    ...shortcutOf(file, mimeType),
    ...(notExportable ? { contentSkipped: "not-exportable" as const } : {}),
    ...(externalOwner ? { externalOwner } : {}),
  };
}

/** A file's search fields (`size`: its bytes, undefined for a Google file). */
export function fileSearchOf(
  file: drive_v3.Schema$File,
  fileId: string,
  path: string,
  size: number | undefined,
): DriveSearchFields {
  const name = file.name ?? "";
  const mimeType = file.mimeType ?? "application/octet-stream";
  return {
    kind: "drive",
    display: { name: displayText(name), path: displayText(path) },
    name: bounded(name),
    path: bounded(path),
    mimeType: bounded(mimeType),
    createdBy: bounded(file.owners?.[0]?.emailAddress ?? ""),
    modifiedTime: file.modifiedTime ?? "",
    size: size ?? 0,
    googleId: fileId,
    keywords: keywordsOf([name]),
  };
}
