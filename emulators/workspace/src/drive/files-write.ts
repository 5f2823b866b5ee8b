/**
 * Drive v3 writing files: `files.create` and `files.update` (metadata, simple, multipart and resumable
 * uploads, Docs Editors conversion, shortcuts, moves, trash) and `files.delete`.
 */
import { readFile } from "node:fs/promises";
import { GoogleApiError, badRequest, type RequestContext } from "../http";
import type { UploadedMedia, SpooledMedia } from "../uploads";
import { WRITE_SCOPES, csv, optionalBool, optionalString, requireRole, stringMap } from "./common";
import type { ContentSpool, Digests, DiskContent } from "./content";
import { conversionNotSupported, insufficientFilePermissions, invalidValue, required } from "./errors";
import { GOOGLE_SHORTCUT } from "./google-types";
import { GOOGLE_FOLDER, importDocument, isDocsEditorsType } from "./office";
import { ROLE_RANK, type DrivePerson, type StoredFile } from "./store-model";
import { unzip } from "./unzip";
import type { DriveFiles } from "./file-access";

/** Google's upload limit (5 TB); large resumable uploads are spooled to disk, never held in memory. */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 4;
/** Resumable uploads larger than this continue on disk (the content folder) instead of in memory. */
export const SPOOL_THRESHOLD_BYTES = 16 * 1024 * 1024;

/** An upload's content: bytes in memory, or a large resumable upload kept on disk. */
type Incoming = UploadedMedia | SpooledMedia;
/** What a new revision holds: bytes, or content on disk with its checksums. */
type RevisionContent = Buffer | { stream: DiskContent; digests: Digests };

/**
 * The content a file of `mimeType` keeps from an upload: Docs Editors files import office or text media
 * into their text (Drive's conversion), anything else keeps the bytes; a large upload that went to disk
 * stays there (the revision reads it from its file) unless it has to be converted.
 */
async function converted(files: DriveFiles, mimeType: string, media: Incoming): Promise<RevisionContent> {
  const { store } = files;
  const spooled = "spool" in media ? media : undefined;
  if (!isDocsEditorsType(mimeType) || isDocsEditorsType(media.contentType)) {
    if (!spooled) return (media as UploadedMedia).data;
    const { content, digests } = (spooled.spool as ContentSpool).result();
    return { stream: content, digests };
  }
  const data = spooled
    ? await readFile(`${store.contentDir()}/${(spooled.spool as ContentSpool).name}`)
    : (media as UploadedMedia).data;
  if (spooled) await spooled.spool.discard();
  const text = importDocument(mimeType, data, media.contentType, unzip);
  if (text === undefined) throw conversionNotSupported();
  return Buffer.from(text, "utf8");
}

/** A shortcut's target as `files.create` names it in `shortcutDetails.targetId`: a file the caller sees. */
function shortcutTarget(
  files: DriveFiles,
  context: RequestContext,
  viewer: DrivePerson,
  metadata: Record<string, unknown>,
): StoredFile {
  const { visible } = files;
  const details = metadata.shortcutDetails;
  if (details !== undefined && (typeof details !== "object" || details === null || Array.isArray(details)))
    throw invalidValue("shortcutDetails");
  const targetId = details ? optionalString(details as Record<string, unknown>, "targetId") : undefined;
  if (!targetId) throw required("shortcutDetails.targetId");
  return visible(targetId, viewer, context.query).file;
}

async function createFromMetadata(
  files: DriveFiles,
  context: RequestContext,
  viewer: DrivePerson,
  metadata: Record<string, unknown>,
  media: Incoming | undefined,
): Promise<unknown> {
  const { store, fileAnswer, resolveRoot, checkParent } = files;
  const parents = metadata.parents;
  if (parents !== undefined && (!Array.isArray(parents) || !parents.every((p) => typeof p === "string"))) {
    throw invalidValue("parents");
  }
  if (Array.isArray(parents) && parents.length > 1) {
    throw new GoogleApiError(403, "Increasing the number of parents is not allowed.", "cannotAddParent");
  }
  const parentId = (parents as string[] | undefined)?.[0];
  const driveId = parentId ? checkParent(parentId, viewer, context.query) : undefined;
  const mimeType = optionalString(metadata, "mimeType") ?? media?.contentType ?? "application/octet-stream";
  const target = mimeType === GOOGLE_SHORTCUT ? shortcutTarget(files, context, viewer, metadata) : undefined;
  if (target && media) {
    if ("spool" in media) await media.spool.discard();
    throw badRequest("Shortcuts have no content.");
  }
  // A shortcut takes its target's name unless it is given one.
  const name = optionalString(metadata, "name") ?? target?.name ?? "Untitled";
  const content = media ? await converted(files, mimeType, media) : undefined;
  const resolvedParent = parentId ? resolveRoot(parentId, viewer) : undefined;
  const { id } = store.createFile({
    userId: viewer.id,
    ...(driveId ? { driveId } : {}),
    ...(resolvedParent ? { parentId: resolvedParent } : {}),
    ...(target ? { shortcutTargetId: target.id } : {}),
    name,
    mimeType,
    content: mimeType === GOOGLE_FOLDER || target ? undefined : (content ?? Buffer.alloc(0)),
    createdTime: optionalString(metadata, "createdTime"),
    modifiedTime: optionalString(metadata, "modifiedTime"),
    description: optionalString(metadata, "description"),
    starred: optionalBool(metadata, "starred"),
    properties: stringMap(metadata.properties, "properties") as Record<string, string> | undefined,
    appProperties: stringMap(metadata.appProperties, "appProperties") as Record<string, string> | undefined,
  });
  return fileAnswer(context, store.file(id) as StoredFile, viewer);
}

async function updateFile(
  files: DriveFiles,
  context: RequestContext,
  viewer: DrivePerson,
  fileId: string,
  metadata: Record<string, unknown>,
  media: Incoming | undefined,
): Promise<unknown> {
  const { store, fileAnswer, visible, resolveRoot, checkParent } = files;
  const { file, access } = visible(fileId, viewer, context.query);
  requireRole(access, "writer");
  const trashed = optionalBool(metadata, "trashed");
  const canTrash = file.driveId ? ROLE_RANK[access.role] >= ROLE_RANK.fileOrganizer : access.role === "owner";
  if (trashed !== undefined && trashed !== file.trashed && !canTrash) throw insufficientFilePermissions();
  const addParents = csv(context.query.get("addParents")).map((id) => resolveRoot(id, viewer));
  const removeParents = csv(context.query.get("removeParents")).map((id) => resolveRoot(id, viewer));
  // In a shared drive, organising items is for content managers and managers.
  if (file.driveId && addParents.length + removeParents.length > 0) requireRole(access, "fileOrganizer");
  for (const parent of addParents) {
    const parentDrive = checkParent(parent, viewer, context.query);
    if (parentDrive !== file.driveId) {
      throw new GoogleApiError(
        403,
        "Moving items between My Drive and shared drives is not supported here.",
        "cannotMoveItem",
      );
    }
  }
  if (
    file.parents.length - removeParents.filter((id) => file.parents.includes(id)).length + addParents.length >
    1
  ) {
    throw new GoogleApiError(403, "Increasing the number of parents is not allowed.", "cannotAddParent");
  }
  if (media) {
    if (file.mimeType === GOOGLE_FOLDER || file.mimeType === GOOGLE_SHORTCUT) {
      if ("spool" in media) await media.spool.discard();
      throw badRequest(
        file.mimeType === GOOGLE_FOLDER ? "Folders have no content." : "Shortcuts have no content.",
      );
    }
    store.addRevision(file.id, await converted(files, file.mimeType, media), {
      userId: viewer.id,
      modifiedTime: optionalString(metadata, "modifiedTime"),
    });
  }
  const name = optionalString(metadata, "name");
  const description = optionalString(metadata, "description");
  const starred = optionalBool(metadata, "starred");
  const properties = stringMap(metadata.properties, "properties");
  const appProperties = stringMap(metadata.appProperties, "appProperties");
  const metadataChange =
    name !== undefined ||
    description !== undefined ||
    starred !== undefined ||
    properties !== undefined ||
    appProperties !== undefined ||
    addParents.length > 0 ||
    removeParents.length > 0;
  if (metadataChange) {
    store.updateFile(file.id, {
      name,
      description,
      starred,
      properties,
      appProperties,
      addParents,
      removeParents,
      modifiedTime: optionalString(metadata, "modifiedTime"),
      userId: viewer.id,
    });
  }
  if (trashed !== undefined && trashed !== file.trashed) store.setTrashed(file.id, trashed, viewer.id);
  return fileAnswer(context, store.file(file.id) as StoredFile, viewer);
}

export function registerFileWriteRoutes(routes: DriveFiles): void {
  const { store, caller, emulator, visible } = routes;

  const uploadOptions = {
    maxBytes: MAX_UPLOAD_BYTES,
    spool: { thresholdBytes: SPOOL_THRESHOLD_BYTES, open: () => store.newSpool() },
  };

  routes.add({
    method: "POST",
    path: "/drive/v3/files",
    id: "drive.files.create",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) =>
      createFromMetadata(routes, context, caller(principal), await context.json(), undefined),
  });

  routes.add({
    method: "POST",
    path: "/upload/drive/v3/files",
    id: "drive.files.create",
    scopes: WRITE_SCOPES,
    handler: (context, principal) => {
      const viewer = caller(principal);
      return emulator.uploads.receive(
        context,
        (upload) =>
          createFromMetadata(routes, context, viewer, upload.metadata, upload.media ?? upload.spooled),
        uploadOptions,
      );
    },
  });

  routes.add({
    method: "PATCH",
    path: "/drive/v3/files/:fileId",
    id: "drive.files.update",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) =>
      updateFile(
        routes,
        context,
        caller(principal),
        context.params.fileId ?? "",
        await context.json(),
        undefined,
      ),
  });

  routes.add({
    method: "PATCH",
    path: "/upload/drive/v3/files/:fileId",
    id: "drive.files.update",
    scopes: WRITE_SCOPES,
    handler: (context, principal) => {
      const viewer = caller(principal);
      const fileId = context.params.fileId ?? "";
      // Checked before a resumable session starts, as Google does.
      visible(fileId, viewer, context.query);
      return emulator.uploads.receive(
        context,
        (upload) =>
          updateFile(routes, context, viewer, fileId, upload.metadata, upload.media ?? upload.spooled),
        uploadOptions,
      );
    },
  });

  routes.add({
    method: "DELETE",
    path: "/drive/v3/files/:fileId",
    id: "drive.files.delete",
    scopes: WRITE_SCOPES,
    handler: (context, principal) => {
      const viewer = caller(principal);
      const { file, access } = visible(context.params.fileId ?? "", viewer, context.query);
      const canDelete = file.driveId
        ? ROLE_RANK[access.role] >= ROLE_RANK.organizer
        : access.role === "owner";
      if (!canDelete) throw insufficientFilePermissions();
      store.deleteFile(file.id);
      return undefined;
    },
  });
}
