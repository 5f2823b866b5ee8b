/**
 * Drive v3: files, exports, changes, shared drives, permissions, revisions and uploads, served on Google's
 * paths for the official client, plus the emulator-only Drive state changes of the admin API.
 */
import { ADMIN_PREFIX, pathUser } from "../admin";
import { SCOPES, insufficientScopes } from "../auth";
import type { DirectoryUser } from "../directory/store";
import type { Principal, WorkspaceEmulator } from "../emulator";
import {
  GoogleApiError,
  RESPONDED,
  applyFields,
  badRequest,
  boolParam,
  intParam,
  type RequestContext,
} from "../http";
import { compileQuery, QueryError, type QuerySubject } from "./query";
import {
  EXPORT_FORMATS,
  GOOGLE_FOLDER,
  IMPORT_FORMATS,
  exportDocument,
  importDocument,
  isDocsEditorsType,
} from "./office";
import { unzip } from "./unzip";
import {
  DEFAULT_CHANGE_LIST_FIELDS,
  DEFAULT_FILE_FIELDS,
  DEFAULT_FILE_LIST_FIELDS,
  DEFAULT_PERMISSION_FIELDS,
  DEFAULT_REVISION_FIELDS,
  driveJson,
  fileJson,
  filePermissions,
  permissionJson,
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
  type PermissionInput,
  type Role,
  type StoredFile,
} from "./store";

const READ_SCOPES = [SCOPES.drive, SCOPES.driveReadonly, SCOPES.driveFile, SCOPES.driveMetadataReadonly];
const CONTENT_SCOPES = [SCOPES.drive, SCOPES.driveReadonly, SCOPES.driveFile];
const WRITE_SCOPES = [SCOPES.drive, SCOPES.driveFile];

/** Google's limit on files.export output. */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;
/** Uploads are capped here (Google allows 5 TB; the emulator keeps bytes in memory). */
export const MAX_UPLOAD_BYTES = 6 * 1024 * 1024 * 1024;

// ------------------------------------------------------------------------------------------- errors

function invalidValue(location: string, message = "Invalid Value"): GoogleApiError {
  return new GoogleApiError(400, message, "invalid", { extra: { location, locationType: "parameter" } });
}

function fileNotFound(fileId: string): GoogleApiError {
  return new GoogleApiError(404, `File not found: ${fileId}.`, "notFound", {
    extra: { location: "fileId", locationType: "parameter" },
  });
}

function driveNotFound(driveId: string): GoogleApiError {
  return new GoogleApiError(404, `Shared drive not found: ${driveId}`, "notFound", {
    extra: { location: "driveId", locationType: "parameter" },
  });
}

function insufficientFilePermissions(): GoogleApiError {
  return new GoogleApiError(
    403,
    "The user does not have sufficient permissions for this file.",
    "insufficientFilePermissions",
  );
}

function required(location: string): GoogleApiError {
  return new GoogleApiError(400, `Required parameter: ${location}`, "required", {
    extra: { location, locationType: "parameter" },
  });
}

// ------------------------------------------------------------------------------------------ helpers

function personOf(emulator: WorkspaceEmulator, user: DirectoryUser): DrivePerson {
  return {
    id: user.id,
    email: user.primaryEmail,
    displayName: `${user.givenName} ${user.familyName}`.trim(),
    domain: user.primaryEmail.split("@")[1] ?? "",
    customerId: user.customerId,
  };
}

/** The caller: the impersonated user, or the service account itself (it owns nothing). */
function viewerOf(emulator: WorkspaceEmulator, principal: Principal): DrivePerson {
  if (principal.user) return personOf(emulator, principal.user);
  const email = principal.token.clientEmail;
  return { id: email, email, displayName: email, domain: email.split("@")[1] ?? "", customerId: "" };
}

function allDrivesFlag(query: URLSearchParams): boolean {
  return boolParam(query, "supportsAllDrives") || boolParam(query, "supportsTeamDrives");
}

function hasContentScope(principal: Principal): boolean {
  return CONTENT_SCOPES.some((scope) => principal.token.scopes.includes(scope));
}

function csv(value: string | null): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

function encodeOffsetToken(offset: number, key: string): string {
  return Buffer.from(JSON.stringify({ o: offset, k: key })).toString("base64url");
}

function decodeOffsetToken(token: string | null, key: string): number {
  if (!token) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as {
      o?: unknown;
      k?: unknown;
    };
    if (typeof parsed.o === "number" && Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.k === key)
      return parsed.o;
  } catch {
    // falls through to the error
  }
  throw invalidValue("pageToken");
}

function defaultFields(context: RequestContext, value: unknown, fields: string): unknown {
  return context.query.get("fields") ? value : applyFields(value, fields);
}

/** Sends bytes, honouring a `Range` header (206, or 416 when it cannot be satisfied). */
function sendMedia(context: RequestContext, data: Buffer, contentType: string): typeof RESPONDED {
  const { response } = context;
  const range = context.request.headers.range;
  const headers: Record<string, string> = { "content-type": contentType, "accept-ranges": "bytes" };
  if (range) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    let start = NaN;
    let end = NaN;
    if (match && (match[1] !== "" || match[2] !== "")) {
      if (match[1] === "") {
        const suffix = Number(match[2]);
        start = Math.max(0, data.length - suffix);
        end = data.length - 1;
        if (suffix === 0) start = NaN;
      } else {
        start = Number(match[1]);
        end = match[2] === "" ? data.length - 1 : Math.min(Number(match[2]), data.length - 1);
      }
    }
    if (!match || Number.isNaN(start) || start >= data.length || end < start) {
      throw new GoogleApiError(416, "Request range not satisfiable", "requestedRangeNotSatisfiable", {
        headers: { "content-range": `bytes */${data.length}` },
      });
    }
    const part = data.subarray(start, end + 1);
    response.writeHead(206, {
      ...headers,
      "content-length": String(part.length),
      "content-range": `bytes ${start}-${end}/${data.length}`,
    });
    response.end(part);
    return RESPONDED;
  }
  response.writeHead(200, { ...headers, "content-length": String(data.length) });
  response.end(data);
  return RESPONDED;
}

function stringMap(value: unknown, name: string): Record<string, string | null> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidValue(name);
  const out: Record<string, string | null> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item !== null && typeof item !== "string") throw invalidValue(name);
    out[key] = item as string | null;
  }
  return out;
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidValue(key);
  return value;
}

function optionalBool(body: Record<string, unknown>, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw invalidValue(key);
  return value;
}

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
  const { router, drive: store, directory } = emulator;
  store.attachPeople({
    byId: (id) => {
      const user = directory.user(id);
      return user && user.id === id ? personOf(emulator, user) : undefined;
    },
    byEmail: (email) => {
      const user = directory.user(email.toLowerCase());
      return user ? personOf(emulator, user) : undefined;
    },
  });

  const render = (viewer: DrivePerson): RenderContext => ({ store, baseUrl: emulator.baseUrl, viewer });
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
  ): { file: StoredFile; access: Access } => {
    const file = store.file(fileId);
    const access = file ? store.access(file, viewer) : undefined;
    if (!file || !access || (file.driveId && !allDrivesFlag(query))) throw fileNotFound(fileId);
    return { file, access };
  };

  const requireRole = (access: Access, role: Role): void => {
    if (ROLE_RANK[access.role] < ROLE_RANK[role]) throw insufficientFilePermissions();
  };

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

  router.add({
    method: "GET",
    path: "/drive/v3/files",
    id: "drive.files.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const { query } = context;
      const viewer = viewerOf(emulator, principal);
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

  router.add({
    method: "GET",
    path: "/drive/v3/files/:fileId",
    id: "drive.files.get",
    scopes: READ_SCOPES,
    quotaId: (context) => (context.query.get("alt") === "media" ? "drive.files.download" : "drive.files.get"),
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      const fileId = context.params.fileId ?? "";
      const media = context.query.get("alt") === "media";
      if (resolveRoot(fileId, viewer) === rootIdFor(viewer.id)) {
        if (media) throw fileNotDownloadable();
        const created = principal.user?.creationTime ?? "2020-01-01T00:00:00.000Z";
        return defaultFields(context, rootFolderJson(viewer, created), DEFAULT_FILE_FIELDS);
      }
      const { file, access } = visible(fileId, viewer, context.query);
      if (!media) return defaultFields(context, fileJson(file, access, render(viewer)), DEFAULT_FILE_FIELDS);
      if (!hasContentScope(principal)) throw insufficientScopes();
      const head = store.head(file);
      if (
        !head ||
        isDocsEditorsType(file.mimeType) ||
        file.mimeType.startsWith("application/vnd.google-apps.")
      ) {
        throw fileNotDownloadable();
      }
      if (file.abusive && !boolParam(context.query, "acknowledgeAbuse")) {
        throw new GoogleApiError(
          403,
          "This file has been identified as malware or spam and cannot be downloaded.",
          "cannotDownloadAbusiveFile",
        );
      }
      return sendMedia(context, head.content, head.mimeType);
    },
  });

  function fileNotDownloadable(): GoogleApiError {
    return new GoogleApiError(
      403,
      "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
      "fileNotDownloadable",
      { extra: { location: "alt", locationType: "parameter" } },
    );
  }

  // ------------------------------------------------------------------------------------------ exports

  const exportBytes = (file: StoredFile, mimeType: string | null, limit: number | undefined): Buffer => {
    if (!mimeType) throw required("mimeType");
    if (!isDocsEditorsType(file.mimeType)) {
      throw new GoogleApiError(403, "Export only supports Docs Editors files.", "fileNotExportable");
    }
    const text = store.head(file)?.content ?? Buffer.alloc(0);
    const tooLarge = (): GoogleApiError =>
      new GoogleApiError(403, "This file is too large to be exported.", "exportSizeLimitExceeded");
    if (limit !== undefined && text.length > limit) throw tooLarge();
    const bytes = exportDocument(file.mimeType, text.toString("utf8"), mimeType);
    if (!bytes) throw badRequest("The requested conversion is not supported.");
    if (limit !== undefined && bytes.length > limit) throw tooLarge();
    return bytes;
  };

  // `files.export` has Google's 10 MB limit; `exportLinks` point at our own download path, which has none
  // and is authorised with the bearer token like Google's links.
  const exportRoutes = [
    { path: "/drive/v3/files/:fileId/export", id: "drive.files.export", limit: EXPORT_LIMIT_BYTES },
    { path: "/drive/v3/files/:fileId/exportLinks", id: "drive.files.exportLink", limit: undefined },
  ];
  for (const { path, id, limit } of exportRoutes) {
    router.add({
      method: "GET",
      path,
      id,
      scopes: CONTENT_SCOPES,
      handler: (context, principal) => {
        const viewer = viewerOf(emulator, principal);
        const { file } = visible(
          context.params.fileId ?? "",
          viewer,
          new URLSearchParams({ supportsAllDrives: "true" }),
        );
        const mimeType = context.query.get("mimeType");
        return sendMedia(context, exportBytes(file, mimeType, limit), mimeType as string);
      },
    });
  }

  // --------------------------------------------------------------------------------- create / update

  /**
   * The content a file of `mimeType` keeps from an upload: Docs Editors files import office or text media
   * into their text (Drive's conversion), anything else keeps the bytes.
   */
  const converted = (mimeType: string, media: { contentType: string; data: Buffer }): Buffer => {
    if (!isDocsEditorsType(mimeType) || isDocsEditorsType(media.contentType)) return media.data;
    const text = importDocument(mimeType, media.data, media.contentType, unzip);
    if (text === undefined) throw badRequest("The requested conversion is not supported.");
    return Buffer.from(text, "utf8");
  };

  const createFromMetadata = (
    context: RequestContext,
    viewer: DrivePerson,
    metadata: Record<string, unknown>,
    media: { contentType: string; data: Buffer } | undefined,
  ): unknown => {
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
    const name = optionalString(metadata, "name") ?? "Untitled";
    const content = media ? converted(mimeType, media) : undefined;
    const resolvedParent = parentId ? resolveRoot(parentId, viewer) : undefined;
    const { id } = store.createFile({
      userId: viewer.id,
      ...(driveId ? { driveId } : {}),
      ...(resolvedParent ? { parentId: resolvedParent } : {}),
      name,
      mimeType: mimeType === "application/vnd.google-apps.folder" ? GOOGLE_FOLDER : mimeType,
      content: mimeType === GOOGLE_FOLDER ? undefined : (content ?? Buffer.alloc(0)),
      createdTime: optionalString(metadata, "createdTime"),
      modifiedTime: optionalString(metadata, "modifiedTime"),
      description: optionalString(metadata, "description"),
      starred: optionalBool(metadata, "starred"),
      properties: stringMap(metadata.properties, "properties") as Record<string, string> | undefined,
      appProperties: stringMap(metadata.appProperties, "appProperties") as Record<string, string> | undefined,
    });
    return fileAnswer(context, store.file(id) as StoredFile, viewer);
  };

  router.add({
    method: "POST",
    path: "/drive/v3/files",
    id: "drive.files.create",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) =>
      createFromMetadata(context, viewerOf(emulator, principal), await context.json(), undefined),
  });

  router.add({
    method: "POST",
    path: "/upload/drive/v3/files",
    id: "drive.files.create",
    scopes: WRITE_SCOPES,
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      return emulator.uploads.receive(
        context,
        (upload) => createFromMetadata(context, viewer, upload.metadata, upload.media),
        { maxBytes: MAX_UPLOAD_BYTES },
      );
    },
  });

  const updateFile = (
    context: RequestContext,
    viewer: DrivePerson,
    fileId: string,
    metadata: Record<string, unknown>,
    media: { contentType: string; data: Buffer } | undefined,
  ): unknown => {
    const { file, access } = visible(fileId, viewer, context.query);
    requireRole(access, "writer");
    const trashed = optionalBool(metadata, "trashed");
    const canTrash = file.driveId
      ? ROLE_RANK[access.role] >= ROLE_RANK.fileOrganizer
      : access.role === "owner";
    if (trashed !== undefined && trashed !== file.trashed && !canTrash) throw insufficientFilePermissions();
    const addParents = csv(context.query.get("addParents")).map((id) => resolveRoot(id, viewer));
    const removeParents = csv(context.query.get("removeParents")).map((id) => resolveRoot(id, viewer));
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
      if (file.mimeType === GOOGLE_FOLDER) throw badRequest("Folders have no content.");
      store.addRevision(file.id, converted(file.mimeType, media), {
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

  router.add({
    method: "PATCH",
    path: "/drive/v3/files/:fileId",
    id: "drive.files.update",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) =>
      updateFile(
        context,
        viewerOf(emulator, principal),
        context.params.fileId ?? "",
        await context.json(),
        undefined,
      ),
  });

  router.add({
    method: "PATCH",
    path: "/upload/drive/v3/files/:fileId",
    id: "drive.files.update",
    scopes: WRITE_SCOPES,
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      const fileId = context.params.fileId ?? "";
      // Checked before a resumable session starts, as Google does.
      visible(fileId, viewer, context.query);
      return emulator.uploads.receive(
        context,
        (upload) => updateFile(context, viewer, fileId, upload.metadata, upload.media),
        { maxBytes: MAX_UPLOAD_BYTES },
      );
    },
  });

  router.add({
    method: "DELETE",
    path: "/drive/v3/files/:fileId",
    id: "drive.files.delete",
    scopes: WRITE_SCOPES,
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
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

  router.add({
    method: "GET",
    path: "/drive/v3/changes/startPageToken",
    id: "drive.changes.getStartPageToken",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      checkDriveParam(context.query, viewerOf(emulator, principal));
      return { kind: "drive#startPageToken", startPageToken: String(store.nextChangeToken()) };
    },
  });

  router.add({
    method: "GET",
    path: "/drive/v3/changes",
    id: "drive.changes.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const { query } = context;
      const viewer = viewerOf(emulator, principal);
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

  const domainAdmin = (query: URLSearchParams, principal: Principal): boolean => {
    if (!boolParam(query, "useDomainAdminAccess")) return false;
    if (!principal.user?.isAdmin) {
      throw new GoogleApiError(
        403,
        "The user does not have sufficient permissions for this file.",
        "insufficientAdministratorPrivileges",
      );
    }
    return true;
  };

  router.add({
    method: "GET",
    path: "/drive/v3/drives",
    id: "drive.drives.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      const asAdmin = domainAdmin(context.query, principal);
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

  router.add({
    method: "GET",
    path: "/drive/v3/drives/:driveId",
    id: "drive.drives.get",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      const asAdmin = domainAdmin(context.query, principal);
      const driveId = context.params.driveId ?? "";
      const sharedDrive = store.drive(driveId);
      const role = sharedDrive ? store.driveRole(sharedDrive, viewer) : undefined;
      if (!sharedDrive || (!role && !(asAdmin && sharedDrive.customerId === viewer.customerId))) {
        throw driveNotFound(driveId);
      }
      return driveJson(sharedDrive, role);
    },
  });

  router.add({
    method: "POST",
    path: "/drive/v3/drives",
    id: "drive.drives.create",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      if (!context.query.get("requestId")) throw required("requestId");
      const name = optionalString(await context.json(), "name");
      if (!name) throw required("name");
      const { id } = store.createSharedDrive({ name, creatorUserId: viewer.id });
      const sharedDrive = store.drive(id);
      return driveJson(sharedDrive as NonNullable<typeof sharedDrive>, "organizer");
    },
  });

  // -------------------------------------------------------------------------------------- permissions

  router.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/permissions",
    id: "drive.permissions.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      const { file } = visible(context.params.fileId ?? "", viewer, context.query);
      const pageSize = intParam(context.query, "pageSize", { default: 100, min: 1, max: 100 });
      const all = filePermissions(file, render(viewer));
      const key = `permissions|${file.id}`;
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

  router.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/permissions/:permissionId",
    id: "drive.permissions.get",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      const { file } = visible(context.params.fileId ?? "", viewer, context.query);
      const permissionId = context.params.permissionId ?? "";
      const found = (filePermissions(file, render(viewer)) as { id: string }[]).find(
        (p) => p.id === permissionId,
      );
      if (!found) {
        throw new GoogleApiError(404, `Permission not found: ${permissionId}.`, "notFound", {
          extra: { location: "permissionId", locationType: "parameter" },
        });
      }
      return defaultFields(context, found, DEFAULT_PERMISSION_FIELDS);
    },
  });

  router.add({
    method: "POST",
    path: "/drive/v3/files/:fileId/permissions",
    id: "drive.permissions.create",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      const { file, access } = visible(context.params.fileId ?? "", viewer, context.query);
      requireRole(access, "writer");
      const body = await context.json();
      const type = optionalString(body, "type");
      const role = optionalString(body, "role");
      if (!type) throw required("permission.type");
      if (!role) throw required("permission.role");
      if (!["user", "group", "domain", "anyone"].includes(type)) throw invalidValue("permission.type");
      if (!(role in ROLE_RANK)) throw invalidValue("permission.role");
      const emailAddress = optionalString(body, "emailAddress");
      const domain = optionalString(body, "domain");
      if ((type === "user" || type === "group") && !emailAddress) throw required("permission.emailAddress");
      if (type === "domain" && !domain) throw required("permission.domain");
      const transfer = boolParam(context.query, "transferOwnership");
      if (role === "owner") {
        if (file.driveId) {
          throw new GoogleApiError(
            403,
            "Shared drive files cannot have the owner role.",
            "teamDrivesOwnerRoleNotSupported",
          );
        }
        if (!transfer) {
          throw new GoogleApiError(
            403,
            "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
            "forbidden",
            { extra: { location: "transferOwnership", locationType: "parameter" } },
          );
        }
        if (access.role !== "owner") throw insufficientFilePermissions();
        const newOwner = type === "user" && emailAddress ? store.personByEmail(emailAddress) : undefined;
        if (!newOwner || newOwner.customerId !== viewer.customerId) {
          throw new GoogleApiError(
            400,
            'Bad Request. User message: "You can\'t change the owner of this item."',
            "invalidSharingRequest",
          );
        }
        store.transferOwnership(file.id, newOwner.id);
        const ownerPermission = (
          filePermissions(store.file(file.id) as StoredFile, render(viewer)) as { role: string }[]
        )[0];
        return defaultFields(context, ownerPermission, DEFAULT_PERMISSION_FIELDS);
      }
      if ((role === "organizer" || role === "fileOrganizer") && !file.driveId)
        throw invalidValue("permission.role");
      const input: PermissionInput = {
        type: type as PermissionInput["type"],
        role: role as Role,
        ...(emailAddress ? { emailAddress } : {}),
        ...(domain ? { domain } : {}),
      };
      const { id } = store.addPermission(file.id, input);
      const stored = (store.file(file.id) as StoredFile).permissions.find(
        (permission) => permission.id === id,
      );
      const details = file.driveId
        ? { permissionDetails: [{ permissionType: "file", role, inherited: false }] }
        : {};
      return defaultFields(
        context,
        permissionJson(stored as NonNullable<typeof stored>, render(viewer), details),
        DEFAULT_PERMISSION_FIELDS,
      );
    },
  });

  router.add({
    method: "DELETE",
    path: "/drive/v3/files/:fileId/permissions/:permissionId",
    id: "drive.permissions.delete",
    scopes: WRITE_SCOPES,
    handler: (context, principal) => {
      const viewer = viewerOf(emulator, principal);
      const { file, access } = visible(context.params.fileId ?? "", viewer, context.query);
      requireRole(access, "writer");
      const permissionId = context.params.permissionId ?? "";
      if (!store.removePermission(file.id, permissionId)) {
        throw new GoogleApiError(404, `Permission not found: ${permissionId}.`, "notFound", {
          extra: { location: "permissionId", locationType: "parameter" },
        });
      }
      return undefined;
    },
  });

  // ---------------------------------------------------------------------------------------- revisions

  const revisionsOf = (
    context: RequestContext,
    principal: Principal,
  ): { file: StoredFile; viewer: DrivePerson } => {
    const viewer = viewerOf(emulator, principal);
    const { file, access } = visible(context.params.fileId ?? "", viewer, context.query);
    if (file.mimeType === GOOGLE_FOLDER) {
      throw new GoogleApiError(403, "The file does not support revisions.", "revisionsNotSupported");
    }
    requireRole(access, "writer");
    return { file, viewer };
  };

  const revisionNotFound = (revisionId: string): GoogleApiError =>
    new GoogleApiError(404, `Revision not found: ${revisionId}.`, "notFound", {
      extra: { location: "revisionId", locationType: "parameter" },
    });

  router.add({
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

  router.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/revisions/:revisionId",
    id: "drive.revisions.get",
    scopes: READ_SCOPES,
    quotaId: (context) =>
      context.query.get("alt") === "media" ? "drive.revisions.download" : "drive.revisions.get",
    handler: (context, principal) => {
      const { file, viewer } = revisionsOf(context, principal);
      const revisionId = context.params.revisionId ?? "";
      const revision =
        revisionId === "head" ? store.head(file) : file.revisions.find((item) => item.id === revisionId);
      if (!revision) throw revisionNotFound(revisionId);
      if (context.query.get("alt") !== "media") {
        return defaultFields(context, revisionJson(file, revision, render(viewer)), DEFAULT_REVISION_FIELDS);
      }
      if (!hasContentScope(principal)) throw insufficientScopes();
      if (isDocsEditorsType(file.mimeType)) throw fileNotDownloadable();
      if (file.abusive && !boolParam(context.query, "acknowledgeAbuse")) {
        throw new GoogleApiError(
          403,
          "This file has been identified as malware or spam and cannot be downloaded.",
          "cannotDownloadAbusiveFile",
        );
      }
      return sendMedia(context, revision.content, revision.mimeType);
    },
  });

  router.add({
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

  router.add({
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
      const viewer = viewerOf(emulator, principal);
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
        exportFormats: Object.fromEntries(Object.entries(EXPORT_FORMATS)),
        importFormats: Object.fromEntries(Object.entries(IMPORT_FORMATS)),
        folderColorPalette: ["#8f8f8f"],
      };
    },
  });

  registerDriveAdminApi(emulator);
}

// ------------------------------------------------------------------------------------ emulator admin

function contentOf(body: Record<string, unknown>): Buffer | undefined {
  if (typeof body.content === "string") return Buffer.from(body.content, "base64");
  if (typeof body.text === "string") return Buffer.from(body.text, "utf8");
  if (body.content !== undefined || body.text !== undefined)
    throw badRequest("content (base64) or text must be a string");
  return undefined;
}

/** Drive state changes for tests: add, change or delete files; add shared drives, members, permissions. */
function registerDriveAdminApi(emulator: WorkspaceEmulator): void {
  const { router, drive: store } = emulator;
  const add = (method: string, path: string, handler: (context: RequestContext) => unknown): void =>
    router.add({ method, path: `${ADMIN_PREFIX}${path}`, id: `emulator${path}`, handler });
  const adminView = (file: StoredFile): unknown => {
    const owner = store.person(file.ownerId);
    const viewer: DrivePerson = owner ?? {
      id: file.ownerId,
      email: "",
      displayName: "",
      domain: "",
      customerId: "",
    };
    return fileJson(file, store.access(file, viewer) ?? { role: "owner", via: new Set(["owner"]) }, {
      store,
      baseUrl: emulator.baseUrl,
      viewer,
    });
  };
  const wrap = <T>(action: () => T): T => {
    try {
      return action();
    } catch (error) {
      if (error instanceof GoogleApiError) throw error;
      throw badRequest(error instanceof Error ? error.message : String(error));
    }
  };
  const existing = (context: RequestContext): StoredFile => {
    const file = store.file(context.params.fileId ?? "");
    if (!file) throw new GoogleApiError(404, `File not found: ${context.params.fileId ?? ""}.`, "notFound");
    return file;
  };

  add("POST", "/users/:user/drive/files", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    if (typeof body.name !== "string" || !body.name) throw badRequest("name is required");
    const { id } = wrap(() =>
      store.createFile({
        userId: user.id,
        name: body.name as string,
        mimeType: typeof body.mimeType === "string" ? body.mimeType : "application/octet-stream",
        content: contentOf(body),
        ...(typeof body.parentId === "string" ? { parentId: body.parentId } : {}),
        ...(typeof body.driveId === "string" ? { driveId: body.driveId } : {}),
        ...(typeof body.createdTime === "string" ? { createdTime: body.createdTime } : {}),
        ...(typeof body.modifiedTime === "string" ? { modifiedTime: body.modifiedTime } : {}),
        ...(body.abusive === true ? { abusive: true } : {}),
      }),
    );
    return adminView(store.file(id) as StoredFile);
  });

  add("POST", "/drive/files/:fileId/content", async (context) => {
    const file = existing(context);
    const body = await context.json();
    const content = contentOf(body);
    if (!content) throw badRequest("content (base64) or text is required");
    const user = typeof body.user === "string" ? emulator.directory.user(body.user) : undefined;
    wrap(() => store.addRevision(file.id, content, { userId: user?.id ?? file.ownerId }));
    return adminView(file);
  });

  add("DELETE", "/drive/files/:fileId", (context) => {
    store.deleteFile(existing(context).id);
    return undefined;
  });

  add("POST", "/drive/files/:fileId/permissions", async (context) => {
    const file = existing(context);
    const body = await context.json();
    return wrap(() => store.addPermission(file.id, body as unknown as PermissionInput));
  });

  add("POST", "/users/:user/drive/drives", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    if (typeof body.name !== "string" || !body.name) throw badRequest("name is required");
    const { id } = store.createSharedDrive({ name: body.name, creatorUserId: user.id });
    return driveJson(store.drive(id) as NonNullable<ReturnType<typeof store.drive>>, "organizer");
  });

  add("POST", "/drive/drives/:driveId/members", async (context) => {
    const body = await context.json();
    const driveId = context.params.driveId ?? "";
    if (!store.drive(driveId))
      throw new GoogleApiError(404, `Shared drive not found: ${driveId}`, "notFound");
    wrap(() =>
      store.addDriveMember(driveId, {
        type: (typeof body.type === "string" ? body.type : "user") as PermissionInput["type"],
        role: (typeof body.role === "string" ? body.role : "reader") as Role,
        ...(typeof body.emailAddress === "string" ? { emailAddress: body.emailAddress } : {}),
        ...(typeof body.domain === "string" ? { domain: body.domain } : {}),
      }),
    );
    return store.drive(driveId);
  });
}
