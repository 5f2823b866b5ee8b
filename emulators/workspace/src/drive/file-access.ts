/**
 * What the Drive file routes share beyond `DriveRoutes`: a file as the viewer sees it, the files a caller
 * can reach, the parents they may add to, and `alt=media` downloads with Drive's refusals.
 */
import { insufficientScopes } from "../auth";
import type { Principal } from "../principal";
import { GoogleApiError, RESPONDED, boolParam, type RequestContext } from "../http";
import {
  allDrivesFlag,
  defaultFields,
  hasContentScope,
  requireRole,
  visibleFile,
  type DriveRoutes,
} from "./common";
import {
  cannotDownloadAbusiveFile,
  cannotDownloadFile,
  downloadQuotaExceeded,
  fileNotDownloadable,
  fileNotFound,
  insufficientFilePermissions,
} from "./errors";
import { isGoogleType } from "./google-types";
import { contentRestricted, sendMedia } from "./media";
import { GOOGLE_FOLDER } from "./office";
import { DEFAULT_FILE_FIELDS, fileJson } from "./resources";
import {
  ROLE_RANK,
  rootIdFor,
  type Access,
  type DrivePerson,
  type StoredFile,
  type StoredRevision,
} from "./store-model";

export interface DriveFiles extends DriveRoutes {
  /** A file as the viewer sees it, limited to `fields` (or to Drive's default fields). */
  fileAnswer(context: RequestContext, file: StoredFile, viewer: DrivePerson): unknown;
  /** A file the caller can see, or Google's 404 (shared-drive files need supportsAllDrives). */
  visible(fileId: string, viewer: DrivePerson, query: URLSearchParams): { file: StoredFile; access: Access };
  /** `root` as the viewer's root folder id. */
  resolveRoot(fileId: string, viewer: DrivePerson): string;
  /** A parent folder the caller may add to (their root, a shared drive root, or a folder). */
  checkParent(parentId: string, viewer: DrivePerson, query: URLSearchParams): string | undefined;
  /** `alt=media` of a revision. */
  download(
    context: RequestContext,
    principal: Principal,
    file: StoredFile,
    access: Access,
    revision: StoredRevision | undefined,
  ): typeof RESPONDED;
}

export function driveFiles(routes: DriveRoutes): DriveFiles {
  const { store, render } = routes;
  /** A file as the viewer sees it, limited to `fields` (or to Drive's default fields). */
  const fileAnswer = (context: RequestContext, file: StoredFile, viewer: DrivePerson): unknown =>
    defaultFields(
      context,
      fileJson(file, store.access(file, viewer) as Access, render(viewer)),
      DEFAULT_FILE_FIELDS,
    );

  /** A file the caller can see, or Google's 404 (shared-drive files need supportsAllDrives). */
  const visible = (
    fileId: string,
    viewer: DrivePerson,
    query: URLSearchParams,
  ): { file: StoredFile; access: Access } => visibleFile(store, fileId, viewer, query);

  const resolveRoot = (fileId: string, viewer: DrivePerson): string =>
    fileId === "root" ? rootIdFor(viewer.id) : fileId;

  /** A parent folder the caller may add to (their root, a shared drive root, or a folder). */
  const checkParent = (parentId: string, viewer: DrivePerson, query: URLSearchParams): string | undefined => {
    const id = resolveRoot(parentId, viewer);
    if (id === rootIdFor(viewer.id)) return undefined;
    const sharedDrive = store.drive(id);
    if (sharedDrive) {
      const role = store.driveRole(sharedDrive, viewer);
      if (!role || !allDrivesFlag(query)) throw fileNotFound(parentId);
      if (ROLE_RANK[role] < ROLE_RANK.writer) throw insufficientFilePermissions();
      return sharedDrive.id;
    }
    const { file, access } = visible(id, viewer, query);
    if (file.mimeType !== GOOGLE_FOLDER) {
      throw new GoogleApiError(400, "The specified parent is not a folder.", "invalidParent");
    }
    requireRole(access, "writer");
    return file.driveId;
  };

  /**
   * `alt=media` of a revision, with Drive's per-file refusals in Google's order: only blob files have bytes
   * (`fileNotDownloadable`), flagged files need `acknowledgeAbuse`, restricted roles may not download
   * (`cannotDownloadFile`), and a file past its download quota answers `downloadQuotaExceeded`.
   */
  const download = (
    context: RequestContext,
    principal: Principal,
    file: StoredFile,
    access: Access,
    revision: StoredRevision | undefined,
  ): typeof RESPONDED => {
    if (!hasContentScope(principal)) throw insufficientScopes();
    if (!revision || isGoogleType(file.mimeType)) throw fileNotDownloadable();
    if (file.abusive && !boolParam(context.query, "acknowledgeAbuse")) throw cannotDownloadAbusiveFile();
    if (contentRestricted(file, access)) throw cannotDownloadFile();
    if (file.downloadsLeft === 0) throw downloadQuotaExceeded();
    return sendMedia(context, revision.size, revision.mimeType, (start, end) => {
      store.takeDownload(file);
      return revision.stream ? store.read(revision, start, end) : revision.content.subarray(start, end + 1);
    });
  };

  return { ...routes, fileAnswer, visible, resolveRoot, checkParent, download };
}
