/**
 * Drive v3: files, exports, changes, shared drives, revisions and uploads, served on Google's paths for the
 * official client. Permissions live in `permissions.ts`, the emulator-only admin API in `admin-routes.ts`.
 */
import { insufficientScopes } from "../auth";
import { readFile } from "node:fs/promises";
import type { Principal, WorkspaceEmulator } from "../emulator";
import { GoogleApiError, RESPONDED, badRequest, boolParam, intParam, type RequestContext } from "../http";
import type { UploadedMedia, SpooledMedia } from "../uploads";
import { registerDriveAdminApi } from "./admin-routes";
import {
  CONTENT_SCOPES,
  READ_SCOPES,
  WRITE_SCOPES,
  allDrivesFlag,
  callerOf,
  csv,
  decodeOffsetToken,
  defaultFields,
  domainAdminAccess,
  encodeOffsetToken,
  hasContentScope,
  optionalBool,
  optionalString,
  personOf,
  requireRole,
  stringMap,
  visibleFile,
  type DriveRoutes,
} from "./common";
import type { ContentSpool, Digests, DiskContent } from "./content";
import {
  cannotDownloadAbusiveFile,
  cannotDownloadFile,
  cannotExportFile,
  conversionNotSupported,
  downloadQuotaExceeded,
  driveNotFound,
  exportSizeLimitExceeded,
  fileNotDownloadable,
  fileNotExportable,
  fileNotFound,
  insufficientFilePermissions,
  invalidValue,
  required,
} from "./errors";
import {
  ALL_EXPORT_FORMATS,
  GOOGLE_SHORTCUT,
  exportGoogleFile,
  hasGoogleContent,
  isGoogleType,
} from "./google-types";
import { contentRestricted, sendBytes, sendMedia } from "./media";
import { GOOGLE_FOLDER, IMPORT_FORMATS, importDocument, isDocsEditorsType } from "./office";
import { registerPermissionRoutes } from "./permissions";
import { compileQuery, QueryError, type QuerySubject } from "./query";
import {
  DEFAULT_CHANGE_LIST_FIELDS,
  DEFAULT_FILE_FIELDS,
  DEFAULT_FILE_LIST_FIELDS,
  DEFAULT_REVISION_FIELDS,
  driveJson,
  fileJson,
  revisionJson,
  rootFolderJson,
  userJson,
  type RenderContext,
} from "./resources";
import {
  ROLE_RANK,
  rootIdFor,
  type Access,
  type DrivePerson,
  type Role,
  type StoredFile,
  type StoredRevision,
} from "./store";
import { unzip } from "./unzip";

/** Google's limit on files.export output. */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;
/** Google's upload limit (5 TB); large resumable uploads are spooled to disk, never held in memory. */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 4;
/** Resumable uploads larger than this continue on disk (the content folder) instead of in memory. */
export const SPOOL_THRESHOLD_BYTES = 16 * 1024 * 1024;

/** An upload's content: bytes in memory, or a large resumable upload kept on disk. */
type Incoming = UploadedMedia | SpooledMedia;
/** What a new revision holds: bytes, or content on disk with its checksums. */
type RevisionContent = Buffer | { stream: DiskContent; digests: Digests };

const ORDER_KEYS: Record<string, (a: StoredFile, b: StoredFile) => number> = {
  createdTime: (a, b) => a.createdTime.localeCompare(b.createdTime),
  modifiedTime: (a, b) => a.modifiedTime.localeCompare(b.modifiedTime),
  modifiedByMeTime: (a, b) => a.modifiedTime.localeCompare(b.modifiedTime),
  recency: (a, b) => a.modifiedTime.localeCompare(b.modifiedTime),
  viewedByMeTime: (a, b) => a.modifiedTime.localeCompare(b.modifiedTime),
  sharedWithMeTime: (a, b) => a.createdTime.localeCompare(b.createdTime),
  name: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  name_natural: (a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }),
  folder: (a, b) => Number(b.mimeType === GOOGLE_FOLDER) - Number(a.mimeType === GOOGLE_FOLDER),
  starred: (a, b) => Number(b.starred) - Number(a.starred),
  quotaBytesUsed: (a, b) => (a.revisions.at(-1)?.size ?? 0) - (b.revisions.at(-1)?.size ?? 0),
};

function comparator(orderBy: string | null): ((a: StoredFile, b: StoredFile) => number) | undefined {
  if (!orderBy) return undefined;
  const keys = csv(orderBy).map((item) => {
    const [key, direction, ...rest] = item.split(/\s+/);
    const compare = ORDER_KEYS[key ?? ""];
    if (!compare || rest.length > 0 || (direction !== undefined && !/^(asc|desc)$/i.test(direction))) {
      throw invalidValue("orderBy", `Invalid field selection ${item}`);
    }
    const sign = direction?.toLowerCase() === "desc" ? -1 : 1;
    return (a: StoredFile, b: StoredFile): number => sign * compare(a, b);
  });
  return (a, b) => {
    for (const compare of keys) {
      const result = compare(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };
}

// ------------------------------------------------------------------------------------------- routes

export function registerDriveApi(emulator: WorkspaceEmulator): void {
  const { drive: store, directory } = emulator;
  store.attachPeople({
    byId: (id) => {
      const user = directory.user(id);
      return user && user.id === id ? personOf(user) : undefined;
    },
    byEmail: (email) => {
      const user = directory.user(email.toLowerCase());
      return user ? personOf(user) : undefined;
    },
  });

  const render = (viewer: DrivePerson): RenderContext => ({ store, baseUrl: emulator.baseUrl, viewer });
  const routes: DriveRoutes = {
    emulator,
    store,
    render,
    caller: (principal) => callerOf(store, principal),
    // Checksums of generated content are computed in the background; answers wait until they are known.
    add: (spec) =>
      emulator.router.add({
        ...spec,
        handler: async (context, principal) => {
          await store.settled();
          return spec.handler(context, principal);
        },
      }),
  };
  const caller = routes.caller;
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

  // --------------------------------------------------------------------------------------- files.list

  routes.add({
    method: "GET",
    path: "/drive/v3/files",
    id: "drive.files.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const { query } = context;
      const viewer = caller(principal);
      const corpora = query.get("corpora") ?? "user";
      const driveId = query.get("driveId") ?? query.get("teamDriveId") ?? undefined;
      const supportsAll = allDrivesFlag(query);
      const includeAll =
        boolParam(query, "includeItemsFromAllDrives") || boolParam(query, "includeTeamDriveItems");
      if (!["user", "drive", "allDrives", "domain"].includes(corpora)) {
        throw invalidValue(
          "corpora",
          `Invalid string value: '${corpora}'. Allowed values: [allDrives, domain, drive, user]`,
        );
      }
      if ((corpora === "drive") !== (driveId !== undefined)) {
        throw new GoogleApiError(
          400,
          "The driveId parameter must be specified if and only if corpora is set to drive.",
          "teamDriveIdRequiresTeamDriveCorpora",
        );
      }
      if ((corpora === "drive" || corpora === "allDrives") && !includeAll) {
        throw new GoogleApiError(
          403,
          "The includeItemsFromAllDrives parameter must be set to true when driveId is specified or corpora contains drive or allDrives.",
          "teamDriveItemsOnlyQueriesRequireIncludeItemsFromAllDrives",
        );
      }
      if (driveId) {
        const sharedDrive = store.drive(driveId);
        if (!sharedDrive || !store.driveRole(sharedDrive, viewer)) throw driveNotFound(driveId);
      }
      const pageSize = intParam(query, "pageSize", { default: 100, min: 1, max: 1000 });
      let predicate: ReturnType<typeof compileQuery>;
      try {
        predicate = compileQuery(query.get("q") ?? "");
      } catch (error) {
        if (error instanceof QueryError) throw invalidValue("q");
        throw error;
      }
      const order = comparator(query.get("orderBy"));
      const spaces = csv(query.get("spaces"));
      const sharedItems = includeAll && supportsAll;
      const scope = { me: viewer.email, root: rootIdFor(viewer.id) };
      const matches: StoredFile[] = [];
      if (spaces.length === 0 || spaces.includes("drive")) {
        for (const file of store.allFiles()) {
          if (driveId !== undefined && file.driveId !== driveId) continue;
          if (file.driveId && !sharedItems) continue;
          const access = store.access(file, viewer);
          if (!access) continue;
          if (!file.driveId && corpora !== "domain" && !access.via.has("owner") && !access.via.has("user"))
            continue;
          if (!file.driveId && corpora === "domain" && access.via.size === 1 && access.via.has("anyone"))
            continue;
          const subject = querySubject(file, access, viewer);
          if (!predicate(subject, scope)) continue;
          matches.push(file);
        }
      }
      if (order) matches.sort(order);
      const key = [query.get("q"), corpora, driveId, query.get("orderBy"), String(sharedItems)].join("|");
      const start = decodeOffsetToken(query.get("pageToken"), key);
      const page = matches.slice(start, start + pageSize);
      const next = start + pageSize < matches.length ? encodeOffsetToken(start + pageSize, key) : undefined;
      const ctx = render(viewer);
      const result = {
        kind: "drive#fileList",
        ...(next ? { nextPageToken: next } : {}),
        incompleteSearch: false,
        files: page.map((file) => fileJson(file, store.access(file, viewer) as Access, ctx)),
      };
      return defaultFields(context, result, DEFAULT_FILE_LIST_FIELDS);
    },
  });

  function querySubject(file: StoredFile, access: Access, viewer: DrivePerson): QuerySubject {
    const owner = file.driveId ? undefined : store.person(file.ownerId);
    const emails = (roles: Role[]): string[] =>
      file.permissions
        .filter((permission) => roles.includes(permission.role) && permission.emailAddress)
        .map((permission) => permission.emailAddress as string)
        .concat(owner ? [owner.email] : []);
    return {
      name: file.name,
      mimeType: file.mimeType,
      trashed: file.trashed,
      starred: file.starred,
      sharedWithMe: !file.driveId && file.ownerId !== viewer.id && access.via.has("user"),
      parents: file.parents,
      owners: owner ? [owner.email] : [],
      writers: emails(["writer", "fileOrganizer", "organizer", "owner"]),
      readers: emails(["reader", "commenter", "writer", "fileOrganizer", "organizer", "owner"]),
      createdTime: file.createdTime,
      modifiedTime: file.modifiedTime,
      fullText: () => {
        const head = store.head(file);
        const text =
          head && (isDocsEditorsType(file.mimeType) || file.mimeType.startsWith("text/"))
            ? head.content.toString("utf8")
            : "";
        return `${file.name}\n${file.description ?? ""}\n${text}`;
      },
    };
  }

  // ---------------------------------------------------------------------------------------- files.get

  routes.add({
    method: "GET",
    path: "/drive/v3/files/:fileId",
    id: "drive.files.get",
    scopes: READ_SCOPES,
    quotaId: (context) => (context.query.get("alt") === "media" ? "drive.files.download" : "drive.files.get"),
    handler: (context, principal) => {
      const viewer = caller(principal);
      const fileId = context.params.fileId ?? "";
      const media = context.query.get("alt") === "media";
      if (resolveRoot(fileId, viewer) === rootIdFor(viewer.id)) {
        if (media) throw fileNotDownloadable();
        const created = principal.user?.creationTime ?? "2020-01-01T00:00:00.000Z";
        return defaultFields(context, rootFolderJson(viewer, created), DEFAULT_FILE_FIELDS);
      }
      const { file, access } = visible(fileId, viewer, context.query);
      if (!media) return defaultFields(context, fileJson(file, access, render(viewer)), DEFAULT_FILE_FIELDS);
      return download(context, principal, file, access, store.head(file));
    },
  });

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

  // ------------------------------------------------------------------------------------------ exports

  /**
   * A Google-type file exported to `mimeType`. Blobs, folders and shortcuts are not exportable; Forms,
   * Sites, My Maps and Jamboards are Google types without any export format, so every format is a
   * conversion Google does not support; a role restricted from downloading may not export either.
   */
  const exportBytes = (
    file: StoredFile,
    access: Access,
    mimeType: string | null,
    limit: number | undefined,
  ): Buffer => {
    if (!mimeType) throw required("mimeType");
    if (!hasGoogleContent(file.mimeType)) throw fileNotExportable();
    if (!(ALL_EXPORT_FORMATS[file.mimeType] ?? []).includes(mimeType)) throw conversionNotSupported();
    if (contentRestricted(file, access)) throw cannotExportFile();
    const text = store.head(file)?.content ?? Buffer.alloc(0);
    if (limit !== undefined && text.length > limit) throw exportSizeLimitExceeded();
    const bytes = exportGoogleFile(file.id, file.mimeType, text.toString("utf8"), mimeType);
    if (!bytes) throw conversionNotSupported();
    if (limit !== undefined && bytes.length > limit) throw exportSizeLimitExceeded();
    return bytes;
  };

  // `files.export` has Google's 10 MB limit; `exportLinks` point at our own download path, which has none
  // and is authorised with the bearer token like Google's links.
  const exportRoutes = [
    { path: "/drive/v3/files/:fileId/export", id: "drive.files.export", limit: EXPORT_LIMIT_BYTES },
    { path: "/drive/v3/files/:fileId/exportLinks", id: "drive.files.exportLink", limit: undefined },
  ];
  for (const { path, id, limit } of exportRoutes) {
    routes.add({
      method: "GET",
      path,
      id,
      scopes: CONTENT_SCOPES,
      handler: (context, principal) => {
        const viewer = caller(principal);
        const { file, access } = visible(
          context.params.fileId ?? "",
          viewer,
          new URLSearchParams({ supportsAllDrives: "true" }),
        );
        const mimeType = context.query.get("mimeType");
        return sendBytes(context, exportBytes(file, access, mimeType, limit), mimeType as string);
      },
    });
  }

  // --------------------------------------------------------------------------------- create / update

  /**
   * The content a file of `mimeType` keeps from an upload: Docs Editors files import office or text media
   * into their text (Drive's conversion), anything else keeps the bytes; a large upload that went to disk
   * stays there (the revision reads it from its file) unless it has to be converted.
   */
  const converted = async (mimeType: string, media: Incoming): Promise<RevisionContent> => {
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
  };

  const uploadOptions = {
    maxBytes: MAX_UPLOAD_BYTES,
    spool: { thresholdBytes: SPOOL_THRESHOLD_BYTES, open: () => store.newSpool() },
  };

  /** A shortcut's target as `files.create` names it in `shortcutDetails.targetId`: a file the caller sees. */
  const shortcutTarget = (
    context: RequestContext,
    viewer: DrivePerson,
    metadata: Record<string, unknown>,
  ): StoredFile => {
    const details = metadata.shortcutDetails;
    if (details !== undefined && (typeof details !== "object" || details === null || Array.isArray(details)))
      throw invalidValue("shortcutDetails");
    const targetId = details ? optionalString(details as Record<string, unknown>, "targetId") : undefined;
    if (!targetId) throw required("shortcutDetails.targetId");
    return visible(targetId, viewer, context.query).file;
  };

  const createFromMetadata = async (
    context: RequestContext,
    viewer: DrivePerson,
    metadata: Record<string, unknown>,
    media: Incoming | undefined,
  ): Promise<unknown> => {
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
    const target = mimeType === GOOGLE_SHORTCUT ? shortcutTarget(context, viewer, metadata) : undefined;
    if (target && media) {
      if ("spool" in media) await media.spool.discard();
      throw badRequest("Shortcuts have no content.");
    }
    // A shortcut takes its target's name unless it is given one.
    const name = optionalString(metadata, "name") ?? target?.name ?? "Untitled";
    const content = media ? await converted(mimeType, media) : undefined;
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
  };

  routes.add({
    method: "POST",
    path: "/drive/v3/files",
    id: "drive.files.create",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) =>
      createFromMetadata(context, caller(principal), await context.json(), undefined),
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
        (upload) => createFromMetadata(context, viewer, upload.metadata, upload.media ?? upload.spooled),
        uploadOptions,
      );
    },
  });

  const updateFile = async (
    context: RequestContext,
    viewer: DrivePerson,
    fileId: string,
    metadata: Record<string, unknown>,
    media: Incoming | undefined,
  ): Promise<unknown> => {
    const { file, access } = visible(fileId, viewer, context.query);
    requireRole(access, "writer");
    const trashed = optionalBool(metadata, "trashed");
    const canTrash = file.driveId
      ? ROLE_RANK[access.role] >= ROLE_RANK.fileOrganizer
      : access.role === "owner";
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
      file.parents.length -
        removeParents.filter((id) => file.parents.includes(id)).length +
        addParents.length >
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
      store.addRevision(file.id, await converted(file.mimeType, media), {
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
  };

  routes.add({
    method: "PATCH",
    path: "/drive/v3/files/:fileId",
    id: "drive.files.update",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) =>
      updateFile(context, caller(principal), context.params.fileId ?? "", await context.json(), undefined),
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
        (upload) => updateFile(context, viewer, fileId, upload.metadata, upload.media ?? upload.spooled),
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

  // ------------------------------------------------------------------------------------------ changes

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

  // ------------------------------------------------------------------------------------ shared drives

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

  registerPermissionRoutes(routes);

  // ---------------------------------------------------------------------------------------- revisions

  const revisionsOf = (
    context: RequestContext,
    principal: Principal,
  ): { file: StoredFile; viewer: DrivePerson; access: Access } => {
    const viewer = caller(principal);
    const { file, access } = visible(context.params.fileId ?? "", viewer, context.query);
    if (file.mimeType === GOOGLE_FOLDER || file.mimeType === GOOGLE_SHORTCUT) {
      throw new GoogleApiError(403, "The file does not support revisions.", "revisionsNotSupported");
    }
    requireRole(access, "writer");
    return { file, viewer, access };
  };

  const revisionNotFound = (revisionId: string): GoogleApiError =>
    new GoogleApiError(404, `Revision not found: ${revisionId}.`, "notFound", {
      extra: { location: "revisionId", locationType: "parameter" },
    });

  routes.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/revisions",
    id: "drive.revisions.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const { file, viewer } = revisionsOf(context, principal);
      const pageSize = intParam(context.query, "pageSize", { default: 200, min: 1, max: 1000 });
      const key = `revisions|${file.id}`;
      const start = decodeOffsetToken(context.query.get("pageToken"), key);
      const next =
        start + pageSize < file.revisions.length ? encodeOffsetToken(start + pageSize, key) : undefined;
      const ctx = render(viewer);
      const result = {
        kind: "drive#revisionList",
        ...(next ? { nextPageToken: next } : {}),
        revisions: file.revisions
          .slice(start, start + pageSize)
          .map((revision) => revisionJson(file, revision, ctx)),
      };
      return defaultFields(context, result, `kind,nextPageToken,revisions(${DEFAULT_REVISION_FIELDS})`);
    },
  });

  routes.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/revisions/:revisionId",
    id: "drive.revisions.get",
    scopes: READ_SCOPES,
    quotaId: (context) =>
      context.query.get("alt") === "media" ? "drive.revisions.download" : "drive.revisions.get",
    handler: (context, principal) => {
      const { file, viewer, access } = revisionsOf(context, principal);
      const revisionId = context.params.revisionId ?? "";
      const revision =
        revisionId === "head" ? store.head(file) : file.revisions.find((item) => item.id === revisionId);
      if (!revision) throw revisionNotFound(revisionId);
      if (context.query.get("alt") !== "media") {
        return defaultFields(context, revisionJson(file, revision, render(viewer)), DEFAULT_REVISION_FIELDS);
      }
      return download(context, principal, file, access, revision);
    },
  });

  routes.add({
    method: "PATCH",
    path: "/drive/v3/files/:fileId/revisions/:revisionId",
    id: "drive.revisions.update",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) => {
      const { file, viewer } = revisionsOf(context, principal);
      const revisionId = context.params.revisionId ?? "";
      const revision = file.revisions.find((item) => item.id === revisionId);
      if (!revision) throw revisionNotFound(revisionId);
      const keepForever = optionalBool(await context.json(), "keepForever");
      if (keepForever !== undefined) revision.keepForever = keepForever;
      return defaultFields(context, revisionJson(file, revision, render(viewer)), DEFAULT_REVISION_FIELDS);
    },
  });

  // -------------------------------------------------------------------------------------------- about

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

  registerDriveAdminApi(routes);
}
