/**
 * Drive as a backup source: one user's My Drive (files the user owns, and files shared with the user whose
 * owner is outside the organisation) or one shared drive.
 *
 * - Full listing: `changes.getStartPageToken` first, then `files.list` page by page (trashed files
 *   included: they still exist and can come back); every file but folders is an upsert. The last batch's
 *   cursor is that start token, so the next incremental run sees what changed during the listing.
 * - Incremental: `changes.list` from the saved page token (all drives supported; `driveId` for a shared
 *   drive), one batch per page, one change per file. A removed file is a delete; in a My Drive, a file
 *   the user does not own (any more) or that lives in a shared drive is a delete too (the engine ignores
 *   deletes of items it does not have). A page token Drive no longer accepts starts a full listing marked
 *   `resynced`.
 * - Fetch: metadata (from the listing when it has it), permissions (`permissions.list`), the folder path
 *   (folders cached for the run), and the content, lazily: nothing is downloaded until the engine
 *   iterates `content`, so an engine that already has the `contentKey` downloads nothing. Blob files
 *   stream from `files.get alt=media`, checked against the listed md5 and size (`ContentMismatchError`
 *   when the file changed after it was listed: fetch it again without the hint); Google Docs/Sheets/Slides/Drawings stream from their
 *   `exportLinks` (docx/xlsx/pptx/pdf: no 10 MB `files.export` limit), an authorised GET with the user's
 *   token; the version keeps the native metadata needed to recreate the Google file on restore. Google files
 *   Google offers no export of (Forms, Sites, My Maps, Jamboards) keep their metadata only, marked
 *   `contentSkipped: "not-exportable"`; a shortcut keeps its target (`shortcut`), it has no content.
 * - Keys: `versionKey` is Drive's `version` (it grows with every change, permissions included);
 *   `contentKey` is `headRevisionId` for blob files and `version:modifiedTime` for Google files.
 *
 * - Files owned outside the organisation: a file shared with the user (Shared with me) whose owner's address
 *   is not of the organisation's domains is an item of the user's Drive, because its owner (a partner, a
 *   former contractor) can delete it or take the user's access away at any time. Its version is marked
 *   `externalOwner` (the owner's address) and its path is "Shared with me", followed by the folders above
 *   it the user can see. A file shared by a colleague stays an item of its owner's Drive only (no
 *   duplicates); the full listing asks for `'me' in owners or sharedWithMe = true` and keeps these two
 *   kinds.
 *
 * Method ids given to the caller are Google's, except that a `files.get alt=media` is named
 * `drive.files.download` and an export-link GET `drive.files.exportLink` (they cost a download, see
 * `../google/costs.ts`).
 *
 * Cursors: a Drive page token for incremental runs; during a full listing a JSON object
 * `{"drive":"full","startPageToken":…,"pageToken":…}` that resumes it.
 */
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { drive_v3 } from "@googleapis/drive";
import type { GoogleCaller } from "../google/caller";
import { googleReason, googleStatus } from "../sources/google-errors";
import { listChanges, type ServiceListing } from "../sources/listing";
import { bounded, displayText, keywordsOf } from "../sources/search-text";
import {
  ItemGoneError,
  type Change,
  type ChangeBatch,
  type DriveNativeInfo,
  type DrivePermission,
  type DriveSearchFields,
  type FetchedItem,
  type ItemMetadata,
  type ItemRef,
  type Source,
} from "../sources/source";

/**
 * A backed-up Drive: a user's My Drive, or a shared drive read as one of its own members (`actAs`: a super
 * admin sees a shared drive's members only, not its files, unless they are a member: see
 * `findDriveMember`).
 */
export type DriveResource =
  | {
      kind: "user";
      email: string;
      /**
       * The organisation's domains: files shared with the user by an owner of another domain are backed
       * up (the user's own domain is always one of them).
       */
      domains?: string[];
    }
  | { kind: "shared-drive"; driveId: string; actAs: string };

/** The path root of files shared with the user (Drive's own name for them). */
export const SHARED_WITH_ME = "Shared with me";

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

export interface DriveSourceOptions {
  /** The client, delegated to the user (My Drive) or to the shared drive's admin. */
  drive: drive_v3.Drive;
  resource: DriveResource;
  caller: GoogleCaller;
  /** The same user's access token, for the authorised GET on export links. */
  accessToken: () => Promise<string>;
  /** Aborts the run's calls (the worker nears its deadline): passed to the caller with every request. */
  signal?: AbortSignal;
  /** Page size of files.list and changes.list (1000 unless a test asks for less). */
  pageSize?: number;
}

export const GOOGLE_FOLDER = "application/vnd.google-apps.folder";
export const GOOGLE_SHORTCUT = "application/vnd.google-apps.shortcut";
const GOOGLE_PREFIX = "application/vnd.google-apps.";

/** The office format each Google type is exported to. */
export const EXPORT_TYPES: Record<string, string> = {
  "application/vnd.google-apps.document":
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.google-apps.spreadsheet":
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.google-apps.presentation":
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.google-apps.drawing": "application/pdf",
  "application/vnd.google-apps.script": "application/vnd.google-apps.script+json",
};

const FILE_FIELDS = [
  "id",
  "name",
  "mimeType",
  "parents",
  "driveId",
  "trashed",
  "version",
  "headRevisionId",
  "modifiedTime",
  "createdTime",
  "size",
  "md5Checksum",
  "description",
  "properties",
  "appProperties",
  "ownedByMe",
  "owners(emailAddress)",
  "exportLinks",
  "shortcutDetails",
].join(",");
const PERMISSION_FIELDS =
  "nextPageToken,permissions(id,type,role,emailAddress,domain,displayName,allowFileDiscovery,permissionDetails)";

/** Drive's answer to a page token it does not accept: 404 "not valid", or 400 naming `pageToken`. */
function invalidPageToken(error: unknown): boolean {
  const status = googleStatus(error);
  if (status === 404) return true;
  if (status !== 400) return false;
  const reason = googleReason(error);
  const message = JSON.stringify((error as { response?: { data?: unknown } }).response?.data ?? "");
  return reason === "invalid" || /pageToken/i.test(message);
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

function isGoogleType(mimeType: string): boolean {
  return mimeType.startsWith(GOOGLE_PREFIX);
}

function isFile(value: unknown): value is drive_v3.Schema$File {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
}

function keysOf(file: drive_v3.Schema$File): { versionKey: string; contentKey: string } {
  const version = file.version ?? "";
  const mimeType = file.mimeType ?? "";
  return {
    versionKey: version,
    contentKey: isGoogleType(mimeType)
      ? `${version}:${file.modifiedTime ?? ""}`
      : (file.headRevisionId ?? ""),
  };
}

/** Error for a failed export-link GET, shaped like a googleapis error (`response.status`, `data`). */
class ExportLinkError extends Error {
  constructor(
    readonly status: number,
    readonly response: { status: number; data: unknown; headers: Record<string, string> },
  ) {
    super(`Export link answered ${status}`);
    this.name = "ExportLinkError";
  }
}

async function* buffers(stream: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
  }
}

interface FolderInfo {
  name: string;
  parents: string[];
}

export class DriveSource implements Source {
  readonly kind = "drive" as const;
  private readonly drive: drive_v3.Drive;
  private readonly resource: DriveResource;
  private readonly caller: GoogleCaller;
  private readonly accessToken: () => Promise<string>;
  private readonly pageSize: number;
  private readonly signal?: AbortSignal;
  private readonly user: string;
  /** Folders seen this run (id → name and parents), for paths. */
  private readonly folders = new Map<string, FolderInfo>();
  /** The root's id and display name ("My Drive", or the shared drive's name). */
  private root?: { id: string; name: string };
  /** The organisation's domains, lower case (a user's Drive only). */
  private readonly domains: Set<string>;

  constructor(options: DriveSourceOptions) {
    this.drive = options.drive;
    this.resource = options.resource;
    this.caller = options.caller;
    this.accessToken = options.accessToken;
    this.signal = options.signal;
    this.pageSize = options.pageSize ?? 1000;
    this.user = options.resource.kind === "user" ? options.resource.email : options.resource.actAs;
    this.domains = new Set(
      options.resource.kind === "user"
        ? [...(options.resource.domains ?? []), domainOf(options.resource.email)].map((domain) =>
            domain.toLowerCase(),
          )
        : [],
    );
  }

  /**
   * The owner's address of a file shared with the user by someone outside the organisation; undefined for
   * the user's own files, shared drives' files and files owned by a colleague.
   */
  private externalOwnerOf(file: drive_v3.Schema$File): string | undefined {
    if (this.resource.kind !== "user" || file.driveId || file.ownedByMe !== false) return undefined;
    const owner = file.owners?.[0]?.emailAddress?.toLowerCase();
    return owner && !this.domains.has(domainOf(owner)) ? owner : undefined;
  }

  private call<T>(method: string, send: () => Promise<T>): Promise<T> {
    return this.caller.call(
      {
        api: "drive",
        user: this.user,
        method,
        idempotent: true,
        ...(this.signal ? { signal: this.signal } : {}),
      },
      send,
    );
  }

  private get driveId(): string | undefined {
    return this.resource.kind === "shared-drive" ? this.resource.driveId : undefined;
  }

  // ------------------------------------------------------------------------------------------ listing

  /** What the shared cursor and resync loop needs from Drive (see `../listing.ts`). */
  private readonly listing: ServiceListing = {
    service: "drive",
    tokenField: "startPageToken",
    // Any other cursor is a page token: Drive answers whether it is valid.
    parseIncremental: (cursor) => ({ mode: "incremental", token: cursor }),
    startToken: () => this.startPageToken(),
    listPage: (pageToken) => this.listPage(pageToken),
    incremental: (pageToken) => this.changes(pageToken),
  };

  listChanges(cursor: string | null): AsyncIterable<ChangeBatch> {
    return listChanges(this.listing, cursor);
  }

  /** changes.list pages; returns true when Drive no longer accepts the page token. */
  private async *changes(startToken: string): AsyncGenerator<ChangeBatch, boolean> {
    let pageToken = startToken;
    for (;;) {
      let page: drive_v3.Schema$ChangeList;
      try {
        page = (
          await this.call("drive.changes.list", () =>
            this.drive.changes.list({
              pageToken,
              supportsAllDrives: true,
              // A My Drive's changes leave shared drives out: each shared drive is its own resource.
              includeItemsFromAllDrives: this.resource.kind === "shared-drive",
              includeRemoved: true,
              pageSize: this.pageSize,
              ...(this.driveId ? { driveId: this.driveId } : {}),
              fields: `nextPageToken,newStartPageToken,changes(changeType,removed,fileId,file(${FILE_FIELDS}))`,
            }),
          )
        ).data;
      } catch (error) {
        if (invalidPageToken(error)) return true;
        throw error;
      }
      const byFile = new Map<string, Change>();
      for (const change of page.changes ?? []) {
        if (change.changeType && change.changeType !== "file") continue;
        const fileId = change.fileId ?? change.file?.id;
        if (!fileId) continue;
        const item = this.changeOf(fileId, change.removed ? undefined : (change.file ?? undefined));
        byFile.delete(fileId);
        if (item) byFile.set(fileId, item);
      }
      const next = page.nextPageToken ?? page.newStartPageToken;
      if (!next) throw new Error("Drive changes page without a next or new start page token");
      yield {
        changes: [...byFile.values()],
        nextCursor: next,
        ...(page.nextPageToken ? {} : { done: true }),
      };
      if (!page.nextPageToken) return false;
      pageToken = page.nextPageToken;
    }
  }

  /** What a changed file means for this resource (folders only update the path cache). */
  private changeOf(fileId: string, file: drive_v3.Schema$File | undefined): Change | undefined {
    if (!file) {
      this.folders.delete(fileId);
      return { type: "delete", itemKey: fileId };
    }
    const mine =
      this.resource.kind === "user"
        ? (!file.driveId && file.ownedByMe !== false) || this.externalOwnerOf(file) !== undefined
        : file.driveId === this.driveId;
    if (file.mimeType === GOOGLE_FOLDER) {
      this.folders.set(fileId, { name: file.name ?? "", parents: file.parents ?? [] });
      return undefined;
    }
    if (!mine) return { type: "delete", itemKey: fileId };
    return { type: "upsert", item: this.refOf(file) };
  }

  private refOf(file: drive_v3.Schema$File): ItemRef {
    return { itemKey: file.id as string, ...keysOf(file), hint: file };
  }

  /** One page of `files.list`: in a full listing only the resource's own files are items; nothing is deleted. */
  private async listPage(
    pageToken: string | undefined,
  ): Promise<{ changes: Change[]; nextPageToken?: string }> {
    const page = (
      await this.call("drive.files.list", () =>
        this.drive.files.list({
          pageSize: this.pageSize,
          supportsAllDrives: true,
          fields: `nextPageToken,files(${FILE_FIELDS})`,
          ...(this.driveId
            ? { corpora: "drive", driveId: this.driveId, includeItemsFromAllDrives: true }
            : { corpora: "user", q: "'me' in owners or sharedWithMe = true" }),
          ...(pageToken ? { pageToken } : {}),
        }),
      )
    ).data;
    const changes: Change[] = [];
    for (const file of page.files ?? []) {
      if (!file.id) continue;
      const change = this.changeOf(file.id, file);
      if (change?.type === "upsert") changes.push(change);
    }
    return { changes, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  }

  private async startPageToken(): Promise<string> {
    const data = (
      await this.call("drive.changes.getStartPageToken", () =>
        this.drive.changes.getStartPageToken({
          supportsAllDrives: true,
          ...(this.driveId ? { driveId: this.driveId } : {}),
        }),
      )
    ).data;
    if (!data.startPageToken) throw new Error("Drive answered no start page token");
    return data.startPageToken;
  }

  // -------------------------------------------------------------------------------------------- paths

  private async rootInfo(): Promise<{ id: string; name: string }> {
    if (this.root) return this.root;
    if (this.resource.kind === "shared-drive") {
      const driveId = this.resource.driveId;
      const sharedDrive = (
        await this.call("drive.drives.get", () => this.drive.drives.get({ driveId, fields: "id,name" }))
      ).data;
      this.root = { id: driveId, name: sharedDrive.name ?? driveId };
    } else {
      const rootFolder = (
        await this.call("drive.files.get", () => this.drive.files.get({ fileId: "root", fields: "id" }))
      ).data;
      this.root = { id: rootFolder.id ?? "root", name: "My Drive" };
    }
    return this.root;
  }

  private async folder(folderId: string): Promise<FolderInfo | undefined> {
    const cached = this.folders.get(folderId);
    if (cached) return cached;
    try {
      const data = (
        await this.call("drive.files.get", () =>
          this.drive.files.get({ fileId: folderId, supportsAllDrives: true, fields: "id,name,parents" }),
        )
      ).data;
      const info = { name: data.name ?? "", parents: data.parents ?? [] };
      this.folders.set(folderId, info);
      return info;
    } catch (error) {
      if (googleStatus(error) === 404) return undefined;
      throw error;
    }
  }

  /**
   * The folder path of a file's parents, root first: "My Drive/Projects/2026". A file owned outside the
   * organisation (`shared`) sits in its owner's folders: its path is "Shared with me" and the folders above
   * it the user can see.
   */
  async pathOf(parents: string[], shared = false): Promise<string> {
    const root = await this.rootInfo();
    const names: string[] = [];
    const seen = new Set<string>();
    let parentId = parents[0];
    while (parentId && !seen.has(parentId) && names.length < 100) {
      if (parentId === root.id && !shared) {
        names.push(root.name);
        break;
      }
      seen.add(parentId);
      const info = await this.folder(parentId);
      if (!info) break;
      names.push(info.name);
      parentId = info.parents[0];
    }
    if (shared) names.push(SHARED_WITH_ME);
    return names.reverse().join("/");
  }

  // -------------------------------------------------------------------------------------------- fetch

  private async fileMetadata(item: ItemRef): Promise<drive_v3.Schema$File> {
    if (isFile(item.hint) && item.hint.id === item.itemKey) return item.hint;
    try {
      return (
        await this.call("drive.files.get", () =>
          this.drive.files.get({ fileId: item.itemKey, supportsAllDrives: true, fields: FILE_FIELDS }),
        )
      ).data;
    } catch (error) {
      if (googleStatus(error) === 404) throw new ItemGoneError(item.itemKey);
      throw error;
    }
  }

  private async permissions(fileId: string): Promise<DrivePermission[]> {
    const out: DrivePermission[] = [];
    let pageToken: string | undefined;
    do {
      let data: drive_v3.Schema$PermissionList;
      try {
        data = (
          await this.call("drive.permissions.list", () =>
            this.drive.permissions.list({
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
      for (const permission of data.permissions ?? []) {
        const details = permission.permissionDetails ?? [];
        out.push({
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
        });
      }
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    return out;
  }

  /**
   * Streams a blob file's bytes (`alt=media`), from `offset` on with a Range request; a file Drive flags as
   * abusive is read acknowledging it. The runner checks the bytes against the metadata's md5 and size
   * (`FetchedItem.expected`).
   */
  private async *download(fileId: string, offset = 0): AsyncGenerator<Buffer> {
    const get = (acknowledgeAbuse: boolean): Promise<{ data: unknown }> =>
      this.call("drive.files.download", () =>
        this.drive.files.get(
          {
            fileId,
            alt: "media",
            supportsAllDrives: true,
            ...(acknowledgeAbuse ? { acknowledgeAbuse } : {}),
          },
          { responseType: "stream", ...(offset > 0 ? { headers: { Range: `bytes=${offset}-` } } : {}) },
        ),
      );
    let response: { data: unknown };
    try {
      response = await get(false);
    } catch (error) {
      if (googleStatus(error) === 404) throw new ItemGoneError(fileId);
      if (googleReason(error) !== "cannotDownloadAbusiveFile") throw error;
      response = await get(true);
    }
    yield* buffers(response.data as Readable);
  }

  /** Streams an export link (an authorised GET with the user's token). */
  private async *exportLink(fileId: string, link: string): AsyncGenerator<Buffer> {
    const token = await this.accessToken();
    const response = await this.call("drive.files.exportLink", async () => {
      const answer = await fetch(link, { headers: { authorization: `Bearer ${token}` } });
      if (!answer.ok) {
        const text = await answer.text();
        let data: unknown = text;
        try {
          data = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, key) => {
          headers[key] = value;
        });
        throw new ExportLinkError(answer.status, { status: answer.status, data, headers });
      }
      return answer;
    }).catch((error: unknown) => {
      if (googleStatus(error) === 404) throw new ItemGoneError(fileId);
      throw error;
    });
    if (!response.body) return;
    yield* buffers(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>));
  }

  async fetch(item: ItemRef): Promise<FetchedItem> {
    const file = await this.fileMetadata(item);
    const fileId = item.itemKey;
    const mimeType = file.mimeType ?? "application/octet-stream";
    const parents = file.parents ?? [];
    const externalOwner = this.externalOwnerOf(file);
    const [permissions, path] = await Promise.all([
      this.permissions(fileId),
      this.pathOf(parents, externalOwner !== undefined),
    ]);
    const google = isGoogleType(mimeType);
    const links = file.exportLinks ?? {};
    const wanted = EXPORT_TYPES[mimeType];
    const exportMimeType =
      wanted && links[wanted] ? wanted : links["application/pdf"] ? "application/pdf" : Object.keys(links)[0];
    const name = file.name ?? "";
    const native: DriveNativeInfo | undefined =
      google && exportMimeType
        ? {
            mimeType,
            exportMimeType,
            name,
            ...(file.description ? { description: file.description } : {}),
            ...(file.properties ? { properties: file.properties } : {}),
            ...(file.appProperties ? { appProperties: file.appProperties } : {}),
            parents,
            path,
          }
        : undefined;
    const size = google ? undefined : Number(file.size ?? 0);
    const shortcut = mimeType === GOOGLE_SHORTCUT ? file.shortcutDetails : undefined;
    // A Google file Google offers no export of (Form, Site, My Map, Jamboard): its details, no content.
    const notExportable = google && !exportMimeType && mimeType !== GOOGLE_SHORTCUT;
    const metadata: ItemMetadata = {
      name,
      mimeType,
      path,
      parents,
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
      ...(shortcut?.targetId
        ? {
            shortcut: {
              targetId: shortcut.targetId,
              ...(shortcut.targetMimeType ? { targetMimeType: shortcut.targetMimeType } : {}),
              ...(shortcut.targetResourceKey ? { targetResourceKey: shortcut.targetResourceKey } : {}),
            },
          }
        : {}),
      ...(notExportable ? { contentSkipped: "not-exportable" as const } : {}),
      ...(externalOwner ? { externalOwner } : {}),
    };
    const search: DriveSearchFields = {
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
    const link = exportMimeType ? links[exportMimeType] : undefined;
    const content: AsyncIterable<Buffer> = !google
      ? { [Symbol.asyncIterator]: () => this.download(fileId) }
      : link
        ? { [Symbol.asyncIterator]: () => this.exportLink(fileId, link) }
        : { [Symbol.asyncIterator]: async function* () {} };
    return {
      itemKey: fileId,
      ...keysOf(file),
      content,
      ...(!google
        ? {
            contentFrom: (offset: number) => ({
              [Symbol.asyncIterator]: () => this.download(fileId, offset),
            }),
            expected: {
              ...(file.md5Checksum ? { md5: file.md5Checksum } : {}),
              ...(file.size ? { size: Number(file.size) } : {}),
            },
          }
        : {}),
      ...(size !== undefined ? { size } : {}),
      metadata,
      search,
    };
  }
}
