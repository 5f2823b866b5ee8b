/**
 * The emulator-only Drive admin API (`/emulator/v1`, no token) for tests and seeding: add, change or delete
 * files (generated content of any size, shortcuts, download restrictions, a download quota), files owned
 * by people outside every customer, shared drives and their members, permissions, and a domain whose
 * administrators turned Drive apps off.
 */
import { ADMIN_PREFIX, pathUser } from "../admin";
import { GoogleApiError, badRequest, type RequestContext } from "../http";
import type { DriveRoutes } from "./common";
import { driveJson, fileJson } from "./resources";
import {
  type DrivePerson,
  type FileRestrictions,
  type PermissionInput,
  type Role,
  type StoredFile,
} from "./store-model";

function contentOf(body: Record<string, unknown>): Buffer | undefined {
  if (typeof body.content === "string") return Buffer.from(body.content, "base64");
  if (typeof body.text === "string") return Buffer.from(body.text, "utf8");
  if (body.content !== undefined || body.text !== undefined)
    throw badRequest("content (base64) or text must be a string");
  return undefined;
}

/** `generated: {seed, size}`: bytes made from a seed, never stored (files of many GiB). */
function generatedOf(body: Record<string, unknown>): { seed: string; size: number } | undefined {
  const generated = body.generated;
  if (generated === undefined) return undefined;
  const { seed, size } = (generated ?? {}) as Record<string, unknown>;
  if (typeof seed !== "string" || typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)
    throw badRequest("generated must be {seed: string, size: whole number of bytes}");
  return { seed, size };
}

/** `copyRequiresWriterPermission`, `downloadRestrictions: {restrictedForReaders, restrictedForWriters}`, `downloadsLeft`. */
function restrictionsOf(body: Record<string, unknown>): FileRestrictions & { unlimitedDownloads?: boolean } {
  const out: FileRestrictions & { unlimitedDownloads?: boolean } = {};
  if (body.copyRequiresWriterPermission !== undefined) {
    if (typeof body.copyRequiresWriterPermission !== "boolean")
      throw badRequest("copyRequiresWriterPermission must be a boolean");
    out.copyRequiresWriterPermission = body.copyRequiresWriterPermission;
  }
  if (body.downloadRestrictions !== undefined) {
    const { restrictedForReaders = false, restrictedForWriters = false } = (body.downloadRestrictions ??
      {}) as Record<string, unknown>;
    if (typeof restrictedForReaders !== "boolean" || typeof restrictedForWriters !== "boolean")
      throw badRequest("downloadRestrictions holds restrictedForReaders and restrictedForWriters booleans");
    out.downloadRestriction = { restrictedForReaders, restrictedForWriters };
  }
  if (body.downloadsLeft === null) out.unlimitedDownloads = true;
  else if (body.downloadsLeft !== undefined) {
    if (typeof body.downloadsLeft !== "number") throw badRequest("downloadsLeft must be a number or null");
    out.downloadsLeft = body.downloadsLeft;
  }
  return out;
}

/** What the Drive admin routes share: registration (answers wait for checksums) and file helpers. */
interface DriveAdmin {
  store: DriveRoutes["store"];
  emulator: DriveRoutes["emulator"];
  add(method: string, path: string, handler: (context: RequestContext) => unknown): void;
  adminView(file: StoredFile): () => unknown;
  wrap<T>(action: () => T): T;
  existing(context: RequestContext): StoredFile;
  createFile(body: Record<string, unknown>, ownerId: string): () => unknown;
}

function driveAdmin(routes: DriveRoutes): DriveAdmin {
  const { emulator, store } = routes;
  /**
   * A handler may answer a function: it is called once the checksums of generated content are known, so a
   * file's answer carries its real md5 and sha256, as the Drive API's answers do.
   */
  const add = (method: string, path: string, handler: (context: RequestContext) => unknown): void =>
    emulator.router.add({
      method,
      path: `${ADMIN_PREFIX}${path}`,
      id: `emulator${path}`,
      handler: async (context) => {
        const result = await handler(context);
        await store.settled();
        return typeof result === "function" ? (result as () => unknown)() : result;
      },
    });
  /** A file as its owner (or its creator) sees it, rendered when answered. */
  const adminView = (file: StoredFile): (() => unknown) => {
    const viewer: DrivePerson = store.person(file.ownerId) ?? {
      id: file.ownerId,
      email: "",
      displayName: "",
      domain: "",
      customerId: "",
    };
    return () =>
      fileJson(
        file,
        store.access(file, viewer) ?? { role: "owner", via: new Set(["owner"]) },
        routes.render(viewer),
      );
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
  const createFile = (body: Record<string, unknown>, ownerId: string): (() => unknown) => {
    if (typeof body.name !== "string" || !body.name) throw badRequest("name is required");
    const generated = generatedOf(body);
    const { id } = wrap(() =>
      store.createFile({
        userId: ownerId,
        name: body.name as string,
        mimeType: typeof body.mimeType === "string" ? body.mimeType : "application/octet-stream",
        content: contentOf(body),
        ...(generated ? { generated: { kind: "generated", ...generated } } : {}),
        ...(typeof body.shortcutTargetId === "string" ? { shortcutTargetId: body.shortcutTargetId } : {}),
        ...(typeof body.parentId === "string" ? { parentId: body.parentId } : {}),
        ...(typeof body.driveId === "string" ? { driveId: body.driveId } : {}),
        ...(typeof body.createdTime === "string" ? { createdTime: body.createdTime } : {}),
        ...(typeof body.modifiedTime === "string" ? { modifiedTime: body.modifiedTime } : {}),
        ...(body.abusive === true ? { abusive: true } : {}),
        restrictions: restrictionsOf(body),
      }),
    );
    return adminView(store.file(id) as StoredFile);
  };
  return { store, emulator, add, adminView, wrap, existing, createFile };
}

/** Files: added for a user or an outside owner, changed, given content, deleted, shared. */
function registerDriveAdminFiles(routes: DriveRoutes): void {
  const { add, adminView, wrap, existing, createFile, store, emulator } = driveAdmin(routes);

  add("POST", "/users/:user/drive/files", async (context) =>
    createFile(await context.json(), pathUser(emulator, context).id),
  );

  /** A My Drive file owned by someone outside every customer (registered on first use). */
  add("POST", "/drive/external-users/:email/files", async (context) => {
    const email = context.params.email ?? "";
    if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(email)) throw badRequest("an email address is required");
    const body = await context.json();
    const person = wrap(() =>
      store.addExternalPerson({
        email,
        ...(typeof body.ownerName === "string" ? { displayName: body.ownerName } : {}),
      }),
    );
    return createFile(body, person.id);
  });

  add("PATCH", "/drive/files/:fileId", async (context) => {
    const file = existing(context);
    const restrictions = restrictionsOf(await context.json());
    wrap(() => store.setRestrictions(file.id, restrictions));
    return adminView(file);
  });

  add("POST", "/drive/files/:fileId/content", async (context) => {
    const file = existing(context);
    const body = await context.json();
    const content = contentOf(body);
    const generated = generatedOf(body);
    if (!content && !generated) throw badRequest("content (base64), text or generated is required");
    const user = typeof body.user === "string" ? emulator.directory.user(body.user) : undefined;
    wrap(() =>
      store.addRevision(
        file.id,
        generated ? { stream: { kind: "generated", ...generated } } : (content as Buffer),
        {
          userId: user?.id ?? file.ownerId,
        },
      ),
    );
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
}

/** Shared drives and their members, and a domain whose administrators turned Drive apps off. */
function registerDriveAdminDrives(routes: DriveRoutes): void {
  const { add, wrap, store, emulator } = driveAdmin(routes);

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

  /** `{driveAppsDisabled: true}`: the domain's administrators turned Drive apps off (403 `domainPolicy`). */
  add("PATCH", "/drive/domains/:domain", async (context) => {
    const body = await context.json();
    if (typeof body.driveAppsDisabled !== "boolean") throw badRequest("driveAppsDisabled must be a boolean");
    const domain = context.params.domain ?? "";
    store.setDriveAppsDisabled(domain, body.driveAppsDisabled);
    return { domain, driveAppsDisabled: store.driveAppsDisabled(domain) };
  });
}

export function registerDriveAdminApi(routes: DriveRoutes): void {
  registerDriveAdminFiles(routes);
  registerDriveAdminDrives(routes);
}
