/**
 * Restoring Drive files (docs/requirements.md#screens-and-navigation recovery): uploads of the backed-up content, the folder tree rebuilt.
 * - "Separate folder": a folder named after the recovery's folder at the top of the target (My Drive or
 *   the shared drive), and under it the file's folder path as it was backed up (without its root).
 * - "Overwrite": a file that still exists where it was gets the backed-up content as a new revision, and
 *   its backed-up name; otherwise it is created in its former folder when that still exists, else at the
 *   top.
 * - Google Docs/Sheets/Slides are uploaded as their office export with conversion to the Google type; a
 *   Google file Drive cannot recreate from its export (a Drawing, an Apps Script project) is restored as
 *   its export (PDF, JSON); a shortcut is recreated pointing at its target; a file backed up without its
 *   content (not exportable) is not restored.
 * - A file owned outside the organisation (`externalOwner`, backed up from Shared with me) is restored as a
 *   new file owned by the target user, in the recovery's folder or at the top of the target: never over its
 *   owner's file nor into its owner's folders, whatever the method (Drive cannot give a file to an owner
 *   outside the organisation, and the copy must not be in the hands of the one who could delete it).
 * - Sharing, when asked: the version's direct permissions (not inherited ones, not the owner) re-applied
 *   without notification emails; a permission Google refuses is reported on the file. An external owner's "owner"
 *   permission is not one of them: the copy is shared with the others the file was shared with.
 * Every call goes through the quota-aware caller; uploads (POST) are retried only when Google did not
 * execute them. `find` looks a file up by name in a folder, for a recovery resumed after a crash.
 */
import type { RefusedShare } from "@alpvault/contracts/recovery";
import { Readable } from "node:stream";
import type { drive_v3 } from "@googleapis/drive";
import type { GoogleCaller } from "../google/caller";
import { answerOf, classifyGoogleError, GoogleCallError } from "../google/errors";
import { googleStatus } from "../sources/google-errors";
import type { DrivePermission, ItemMetadata } from "../sources/source";
import { SharedByKey } from "../../lib/parallel";

const FOLDER = "application/vnd.google-apps.folder";
const SHORTCUT = "application/vnd.google-apps.shortcut";

/** The Google types Drive recreates from an upload of their export (its `about.importFormats`). */
const IMPORTS: Readonly<Record<string, readonly string[]>> = {
  "application/vnd.google-apps.document": [
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ],
  "application/vnd.google-apps.spreadsheet": [
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ],
  "application/vnd.google-apps.presentation": [
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ],
};

/**
 * The file extension of an export restored as a file of its own (a Drawing as PDF, a script as JSON, a
 * Vid as MP4: Drive cannot recreate a Vid from an upload).
 */
const EXPORT_EXTENSIONS: Readonly<Record<string, string>> = {
  "application/pdf": ".pdf",
  "video/mp4": ".mp4",
  "application/mp4": ".mp4",
  "application/vnd.google-apps.script+json": ".json",
  "image/svg+xml": ".svg",
  "image/png": ".png",
};

/** The native info when Drive can convert the export back to its Google type, else undefined. */
function convertible(native: ItemMetadata["native"]): ItemMetadata["native"] {
  return native && IMPORTS[native.mimeType]?.includes(native.exportMimeType) ? native : undefined;
}

/** The type the content is uploaded as: the export's for a Google file, else the file's own. */
function uploadType(metadata: ItemMetadata): string {
  return metadata.native?.exportMimeType ?? metadata.mimeType ?? "application/octet-stream";
}

/** The restored file's name: a Google file that cannot be recreated as one is restored as its export. */
export function restoredName(metadata: ItemMetadata): string {
  const name = metadata.name ?? "Recovered file";
  const native = metadata.native;
  if (!native || convertible(native)) return name;
  const extension = EXPORT_EXTENSIONS[native.exportMimeType] ?? "";
  return extension && !name.toLowerCase().endsWith(extension) ? `${name}${extension}` : name;
}

/** What re-applying a file's sharing did: the permissions Google took, and each it refused with why. */
export interface SharingOutcome {
  applied: number;
  /** `to`: the address, the domain, or "anyone". */
  refused: RefusedShare[];
}

/** Where files go: a user's My Drive, or a shared drive as one of its members who may add files. */
export type DriveTarget =
  { kind: "user"; email: string } | { kind: "shared-drive"; driveId: string; actAs: string };

const quoted = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** Files above this size are uploaded resumably, piece by piece. */
export const RESUMABLE_UPLOAD_BYTES = 8 * 1024 * 1024;
/** One resumable piece (a multiple of 256 KiB, as Drive requires). */
export const UPLOAD_PIECE_BYTES = 8 * 1024 * 1024;

/** How the restorer reaches Drive's upload endpoint itself (resumable uploads). */
export interface UploadAccess {
  /** `https://www.googleapis.com/`, or the emulator's root. */
  rootUrl: string;
  accessToken(): Promise<string>;
}

/** A failed upload call, shaped like the clients' errors (status and Google's error body). */
async function uploadError(response: Response): Promise<Error> {
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    data = undefined;
  }
  return Object.assign(new Error(`Drive upload answered ${response.status}`), {
    response: { status: response.status, data },
  });
}

export class DriveRestorer {
  /** Folders found or created, by parent and name: items restored at once share one creation. */
  private readonly folders = new SharedByKey<string>();
  private readonly user: string;

  constructor(
    private readonly drive: drive_v3.Drive,
    private readonly target: DriveTarget,
    private readonly caller: GoogleCaller,
    private readonly upload?: UploadAccess,
  ) {
    this.user = target.kind === "user" ? target.email : target.actAs;
  }

  private call<T>(method: string, idempotent: boolean, send: () => Promise<T>): Promise<T> {
    return this.caller.call({ api: "drive", user: this.user, method, idempotent }, send);
  }

  private get root(): string {
    return this.target.kind === "user" ? "root" : this.target.driveId;
  }

  private get shared() {
    return this.target.kind === "shared-drive"
      ? {
          supportsAllDrives: true,
          includeItemsFromAllDrives: true,
          corpora: "drive",
          driveId: this.target.driveId,
        }
      : {};
  }

  /** A file or folder by name in a folder (not trashed). */
  async find(name: string, parent: string, folder = false): Promise<string | undefined> {
    const { data } = await this.call("drive.files.list", true, () =>
      this.drive.files.list({
        q: `name = ${quoted(name)} and ${quoted(parent)} in parents and trashed = false${folder ? ` and mimeType = '${FOLDER}'` : ""}`,
        fields: "files(id)",
        pageSize: 1,
        ...this.shared,
      }),
    );
    return data.files?.[0]?.id ?? undefined;
  }

  private folder(name: string, parent: string): Promise<string> {
    return this.folders.get(`${parent}/${name}`, () => this.findOrCreateFolder(name, parent));
  }

  private async findOrCreateFolder(name: string, parent: string): Promise<string> {
    const id =
      (await this.find(name, parent, true)) ??
      (
        await this.call("drive.files.create", false, () =>
          this.drive.files.create({
            requestBody: { name, mimeType: FOLDER, parents: [parent] },
            fields: "id",
            ...(this.target.kind === "shared-drive" ? { supportsAllDrives: true } : {}),
          }),
        )
      ).data.id;
    if (!id) throw new Error("Drive created a folder without an id");
    return id;
  }

  /** The folder a file goes to: `<recovery folder>/<its path without the root>`, made as needed. */
  async folderFor(recoveryFolder: string, path: string | undefined): Promise<string> {
    let parent = await this.folder(recoveryFolder, this.root);
    const segments = (path ?? "").split("/").filter(Boolean).slice(1);
    for (const segment of segments) parent = await this.folder(segment, parent);
    return parent;
  }

  /** Whether a file exists (not trashed), to overwrite it. */
  async exists(fileId: string): Promise<boolean> {
    try {
      const { data } = await this.call("drive.files.get", true, () =>
        this.drive.files.get({ fileId, fields: "id,trashed", supportsAllDrives: true }),
      );
      return data.trashed !== true;
    } catch (error) {
      if ((error as { response?: { status?: number } }).response?.status === 404) return false;
      throw error;
    }
  }

  /** The first of `parents` that still exists, else the top of the target. */
  async parentFor(parents: readonly string[] | undefined): Promise<string> {
    for (const parent of parents ?? []) if (await this.exists(parent)) return parent;
    return this.root;
  }

  /**
   * Recreates a shortcut in `parent`, pointing at the same target (the target is not copied: a shortcut
   * restored next to its target's restored copy still points at the original, as Drive's own copy does).
   */
  async createShortcut(metadata: ItemMetadata, parent: string): Promise<string> {
    const shortcut = metadata.shortcut;
    if (!shortcut) throw new Error("Not a shortcut");
    const { data } = await this.call("drive.files.create", false, () =>
      this.drive.files.create({
        requestBody: {
          name: metadata.name ?? "Shortcut",
          mimeType: SHORTCUT,
          parents: [parent],
          shortcutDetails: { targetId: shortcut.targetId },
        },
        fields: "id",
        ...(this.target.kind === "shared-drive" ? { supportsAllDrives: true } : {}),
      }),
    );
    if (!data.id) throw new Error("Drive created a shortcut without an id");
    return data.id;
  }

  /** Creates the file with the content in `parent`; Google files converted back to their type. */
  async create(metadata: ItemMetadata, content: Buffer, parent: string): Promise<string> {
    const native = convertible(metadata.native);
    const { data } = await this.call("drive.files.create", false, () =>
      this.drive.files.create({
        requestBody: {
          name: restoredName(metadata),
          mimeType: native?.mimeType ?? uploadType(metadata),
          parents: [parent],
          ...(metadata.description ? { description: metadata.description } : {}),
          ...(metadata.properties ? { properties: metadata.properties } : {}),
        },
        media: { mimeType: uploadType(metadata), body: Readable.from([content]) },
        fields: "id",
        ...(this.target.kind === "shared-drive" ? { supportsAllDrives: true } : {}),
      }),
    );
    if (!data.id) throw new Error("Drive created a file without an id");
    return data.id;
  }

  /** A new revision of an existing file with the content. */
  async overwrite(fileId: string, metadata: ItemMetadata, content: Buffer): Promise<void> {
    await this.call("drive.files.update", false, () =>
      this.drive.files.update({
        fileId,
        ...(metadata.name ? { requestBody: { name: metadata.name } } : {}),
        media: {
          mimeType: metadata.native?.exportMimeType ?? metadata.mimeType,
          body: Readable.from([content]),
        },
        fields: "id",
        supportsAllDrives: true,
      }),
    );
  }

  /**
   * A resumable upload (Drive's protocol): a session for the metadata, then the content in pieces of 8 MiB
   * with `Content-Range`, each answered 308 until the last. Creates a file, or a new revision of `fileId`.
   * Returns the file's id.
   */
  async uploadResumable(
    metadata: ItemMetadata,
    content: AsyncIterable<Buffer>,
    size: number,
    target: { parent: string } | { fileId: string },
  ): Promise<string> {
    if (!this.upload) throw new Error("Resumable uploads need upload access");
    const access = this.upload;
    const native = convertible(metadata.native);
    const contentType = uploadType(metadata);
    const isNew = "parent" in target;
    const url = `${access.rootUrl}upload/drive/v3/files${isNew ? "" : `/${encodeURIComponent(target.fileId)}`}?uploadType=resumable&supportsAllDrives=true&fields=id`;
    const token = await access.accessToken();
    const session = await this.call(isNew ? "drive.files.create" : "drive.files.update", false, async () => {
      const response = await fetch(url, {
        method: isNew ? "POST" : "PATCH",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json; charset=UTF-8",
          "x-upload-content-type": contentType,
          "x-upload-content-length": String(size),
        },
        body: JSON.stringify(
          isNew
            ? {
                name: restoredName(metadata),
                mimeType: native?.mimeType ?? contentType,
                parents: [target.parent],
                ...(metadata.description ? { description: metadata.description } : {}),
              }
            : { ...(metadata.name ? { name: metadata.name } : {}) },
        ),
      });
      if (!response.ok) throw await uploadError(response);
      const location = response.headers.get("location");
      if (!location) throw new Error("Drive opened an upload session without its location");
      return location;
    });
    let offset = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let fileId: string | undefined;
    const sendPiece = async (last: boolean): Promise<void> => {
      // The piece holds the chunks' bytes now: the chunks go, and what is left over is copied out, so
      // that only the piece in flight stays in memory while Drive takes it.
      const piece = Buffer.concat(pending, pendingBytes);
      pending = [];
      const sendBytes = last ? piece.length : piece.length - (piece.length % UPLOAD_PIECE_BYTES);
      const body = piece.subarray(0, sendBytes);
      const rest = Buffer.from(piece.subarray(sendBytes));
      const range =
        body.length > 0 ? `bytes ${offset}-${offset + body.length - 1}/${size}` : `bytes */${size}`;
      const answer = await this.call(isNew ? "drive.files.create" : "drive.files.update", false, async () => {
        const response = await fetch(session, {
          method: "PUT",
          headers: { authorization: `Bearer ${token}`, "content-range": range },
          body,
        });
        if (response.status === 308) return undefined;
        if (!response.ok) throw await uploadError(response);
        return ((await response.json()) as { id?: string }).id;
      });
      offset += body.length;
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
      if (answer) fileId = answer;
    };
    for await (const chunk of content) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= UPLOAD_PIECE_BYTES && offset + pendingBytes < size) await sendPiece(false);
    }
    await sendPiece(true);
    if (offset !== size) throw new Error("The content did not have the size the catalog gives");
    if (!fileId) throw new Error("Drive ended the upload without the file");
    return fileId;
  }

  /**
   * Re-applies the direct permissions (no notification emails): how many Google took, and each it refused
   * with Google's reason (a sharing limit reached, an outside domain the organisation's policy refuses, a
   * user who left). A refusal is not the file's loss: the file stays restored and the refusal is reported
   * on it. Anything but Google's answer (the recovery stopped) is thrown.
   */
  async share(fileId: string, permissions: readonly DrivePermission[] | undefined): Promise<SharingOutcome> {
    const outcome: SharingOutcome = { applied: 0, refused: [] };
    for (const permission of permissions ?? []) {
      if (permission.inherited || permission.role === "owner") continue;
      try {
        await this.call("drive.permissions.create", false, () =>
          this.drive.permissions.create({
            fileId,
            sendNotificationEmail: false,
            supportsAllDrives: true,
            requestBody: {
              type: permission.type,
              role: permission.role,
              ...(permission.emailAddress ? { emailAddress: permission.emailAddress } : {}),
              ...(permission.domain ? { domain: permission.domain } : {}),
              ...(permission.allowFileDiscovery !== undefined
                ? { allowFileDiscovery: permission.allowFileDiscovery }
                : {}),
            },
          }),
        );
        outcome.applied += 1;
      } catch (error) {
        if (!(error instanceof GoogleCallError) && googleStatus(error) === undefined) throw error;
        outcome.refused.push({
          to: permission.emailAddress ?? permission.domain ?? permission.type,
          role: permission.role,
          reason: answerOf(classifyGoogleError(error)) ?? "no answer",
        });
      }
    }
    return outcome;
  }
}
