/**
 * Drive as a backup source: one user's My Drive (files the user owns, and files shared with the user whose
 * owner is outside the organisation) or one shared drive.
 *
 * - Full listing: `changes.getStartPageToken` first, then `files.list` page by page (trashed files
 *   included: they still exist and can come back); every file but folders is an upsert. The last batch's
 *   cursor is that start token, so the next incremental run sees what changed during the listing. A
 *   user's listing also reads `about.get` once (`usageInDrive`: the run's expected bytes).
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
 *   token; Google Vids as MP4 through `files.download`, a long-running operation polled with
 *   `operations.get` on the source's clock (`clock`, the system's by default), then its `downloadUri`
 *   with the same token; the version keeps the native metadata needed to recreate the Google file on
 *   restore (a Vid cannot be: it is restored as an `.mp4` file). Google files
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
 * `drive.files.download`, an export-link GET `drive.files.exportLink` and the GET of a download
 * operation's URI `drive.files.downloadUri` (they cost a download, see `../google/costs.ts`).
 *
 * Its parts: `drive-files.ts` (fields, keys, Google types), `paths.ts` (folder paths), `metadata.ts`
 * (permissions, version metadata, search fields), `content.ts` (download and export links),
 * `shared-drive-member.ts` (whom a shared drive is read as).
 *
 * Cursors: a Drive page token for incremental runs; during a full listing a JSON object
 * `{"drive":"full","startPageToken":…,"pageToken":…}` that resumes it.
 */
import type { drive_v3 } from "@googleapis/drive";
import type { GoogleCaller } from "../google/caller";
import { SYSTEM_CLOCK, type Clock } from "../google/token-bucket";
import { googleStatus } from "../sources/google-errors";
import { listChanges, type ServiceListing } from "../sources/listing";
import {
  ItemGoneError,
  type Change,
  type ChangeBatch,
  type FetchedItem,
  type ItemRef,
  type Source,
} from "../sources/source";
import { download, exportLink, operationDownload } from "./content";
import {
  FILE_FIELDS,
  GOOGLE_FOLDER,
  GOOGLE_VID,
  domainOf,
  invalidPageToken,
  isFile,
  isGoogleType,
  keysOf,
  type DriveCall,
  type DriveResource,
} from "./drive-files";
import { exportMimeTypeOf, fileMetadataOf, fileSearchOf, permissionsOf } from "./metadata";
import { DrivePaths } from "./paths";

export {
  EXPORT_TYPES,
  GOOGLE_FOLDER,
  GOOGLE_SHORTCUT,
  SHARED_WITH_ME,
  type DriveResource,
} from "./drive-files";
export { DRIVE_ROLES, findDriveMember, type DriveRole } from "./shared-drive-member";

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
  /** What waits between polls of a download operation run on (the system's clock unless a test's). */
  clock?: Clock;
}

/** What a page of changes holds: its changed files and the bytes Drive lists for them (Google files: none). */
function listedWork(changes: Change[]): { items: number; bytes: number; whole: false } {
  let items = 0;
  let bytes = 0;
  for (const change of changes) {
    if (change.type !== "upsert") continue;
    items += 1;
    const size = Number((change.item.hint as drive_v3.Schema$File | undefined)?.size);
    if (Number.isFinite(size)) bytes += size;
  }
  return { items, bytes, whole: false };
}

/** Files per `files.list` and `changes.list` page: Drive's maximum. */
export const DRIVE_LIST_PAGE_SIZE = 1000;

export class DriveSource implements Source {
  readonly kind = "drive" as const;
  private readonly drive: drive_v3.Drive;
  private readonly resource: DriveResource;
  private readonly caller: GoogleCaller;
  private readonly accessToken: () => Promise<string>;
  private readonly pageSize: number;
  private readonly clock: Clock;
  private readonly signal?: AbortSignal;
  private readonly user: string;
  /** Folder paths, from the folders seen this run. */
  private readonly paths: DrivePaths;
  /** The organisation's domains, lower case (a user's Drive only). */
  private readonly domains: Set<string>;
  /** One Drive call as the source's user. */
  private readonly call: DriveCall;

  constructor(options: DriveSourceOptions) {
    this.drive = options.drive;
    this.resource = options.resource;
    this.caller = options.caller;
    this.accessToken = options.accessToken;
    this.signal = options.signal;
    this.pageSize = options.pageSize ?? DRIVE_LIST_PAGE_SIZE;
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.user = options.resource.kind === "user" ? options.resource.email : options.resource.actAs;
    this.domains = new Set(
      options.resource.kind === "user"
        ? [...(options.resource.domains ?? []), domainOf(options.resource.email)].map((domain) =>
            domain.toLowerCase(),
          )
        : [],
    );
    this.call = (method, send) =>
      this.caller.call(
        {
          api: "drive",
          user: this.user,
          method,
          idempotent: true,
          ...(this.signal ? { signal: this.signal } : {}),
        },
        send,
      );
    this.paths = new DrivePaths(this.drive, this.resource, this.call);
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
    startExpectation: () => this.driveUsage(),
  };

  /**
   * A user's My Drive: the bytes its files use (`about.get` `storageQuota.usageInDrive`, 5 units, once per
   * full listing), the listing's expected bytes. Files shared with the user by an outside owner are not in
   * it, Google files use no quota: an estimate the run's progress may pass. A shared drive has no such figure.
   */
  private async driveUsage(): Promise<{ bytes: number } | undefined> {
    if (this.resource.kind !== "user") return undefined;
    const { data } = await this.call("drive.about.get", () =>
      this.drive.about.get({ fields: "storageQuota(usageInDrive)" }),
    );
    const bytes = Number(data.storageQuota?.usageInDrive);
    return Number.isFinite(bytes) && bytes >= 0 ? { bytes } : undefined;
  }

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
      const changes = [...byFile.values()];
      yield {
        changes,
        nextCursor: next,
        expected: listedWork(changes),
        ...(page.nextPageToken ? {} : { done: true }),
      };
      if (!page.nextPageToken) return false;
      pageToken = page.nextPageToken;
    }
  }

  /** What a changed file means for this resource (folders only update the path cache). */
  private changeOf(fileId: string, file: drive_v3.Schema$File | undefined): Change | undefined {
    if (!file) {
      this.paths.forget(fileId);
      return { type: "delete", itemKey: fileId };
    }
    const mine =
      this.resource.kind === "user"
        ? (!file.driveId && file.ownedByMe !== false) || this.externalOwnerOf(file) !== undefined
        : file.driveId === this.driveId;
    if (file.mimeType === GOOGLE_FOLDER) {
      this.paths.remember(fileId, file);
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

  /**
   * The folder path of a file's parents, root first: "My Drive/Projects/2026". A file owned outside the
   * organisation (`shared`) sits in its owner's folders: its path is "Shared with me" and the folders above
   * it the user can see.
   */
  pathOf(parents: string[], shared = false): Promise<string> {
    return this.paths.pathOf(parents, shared);
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

  /** The file's content, read lazily: downloaded, exported, or none (a Google file with no export). */
  private contentOf(
    fileId: string,
    file: drive_v3.Schema$File,
    exportMimeType: string | undefined,
  ): AsyncIterable<Buffer> {
    if (file.mimeType === GOOGLE_VID) {
      const { drive, call, accessToken, clock } = this;
      return { [Symbol.asyncIterator]: () => operationDownload(drive, call, accessToken, clock, fileId) };
    }
    const link = exportMimeType ? file.exportLinks?.[exportMimeType] : undefined;
    if (!isGoogleType(file.mimeType ?? "application/octet-stream")) {
      return { [Symbol.asyncIterator]: () => download(this.drive, this.call, fileId) };
    }
    return link
      ? { [Symbol.asyncIterator]: () => exportLink(this.call, this.accessToken, fileId, link) }
      : { [Symbol.asyncIterator]: async function* () {} };
  }

  async fetch(item: ItemRef): Promise<FetchedItem> {
    const file = await this.fileMetadata(item);
    const fileId = item.itemKey;
    const parents = file.parents ?? [];
    const externalOwner = this.externalOwnerOf(file);
    const [permissions, path] = await Promise.all([
      permissionsOf(this.drive, this.call, fileId),
      this.pathOf(parents, externalOwner !== undefined),
    ]);
    const google = isGoogleType(file.mimeType ?? "application/octet-stream");
    const exportMimeType = exportMimeTypeOf(file);
    const size = google ? undefined : Number(file.size ?? 0);
    return {
      itemKey: fileId,
      ...keysOf(file),
      content: this.contentOf(fileId, file, exportMimeType),
      ...(!google
        ? {
            contentFrom: (offset: number) => ({
              [Symbol.asyncIterator]: () => download(this.drive, this.call, fileId, offset),
            }),
            expected: {
              ...(file.md5Checksum ? { md5: file.md5Checksum } : {}),
              ...(file.size ? { size: Number(file.size) } : {}),
            },
          }
        : {}),
      ...(size !== undefined ? { size } : {}),
      metadata: fileMetadataOf(file, { path, permissions, exportMimeType, externalOwner }),
      search: fileSearchOf(file, fileId, path, size),
    };
  }
}
