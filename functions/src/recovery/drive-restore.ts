/**
 * Restoring Drive files (spec §2 recovery): uploads of the backed-up content, the folder tree rebuilt.
 * - "Separate folder": a folder named after the recovery's folder at the top of the target (My Drive or
 *   the shared drive), and under it the file's folder path as it was backed up (without its root).
 * - "Overwrite": a file that still exists where it was gets the backed-up content as a new revision;
 *   otherwise it is created in its former folder when that still exists, else at the top.
 * - Google Docs/Sheets/Slides are uploaded as their office export with conversion to the Google type.
 * - Sharing, when asked: the version's direct permissions (not inherited ones, not the owner) re-applied
 *   without notification emails; a permission Google refuses is skipped.
 * Every call goes through the quota-aware caller; uploads (POST) are retried only when Google did not
 * execute them. `find` looks a file up by name in a folder, for a recovery resumed after a crash.
 */
import { Readable } from "node:stream";
import type { drive_v3 } from "@googleapis/drive";
import type { GoogleCaller } from "../backup/google/caller";
import type { DrivePermission, ItemMetadata } from "../backup/sources/source";

const FOLDER = "application/vnd.google-apps.folder";

export type DriveTarget =
  { kind: "user"; email: string } | { kind: "shared-drive"; driveId: string; adminEmail: string };

const quoted = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

export class DriveRestorer {
  /** Folders found or created, by parent and name: items restored at once share one creation. */
  private readonly folders = new Map<string, Promise<string>>();
  private readonly user: string;

  constructor(
    private readonly drive: drive_v3.Drive,
    private readonly target: DriveTarget,
    private readonly caller: GoogleCaller,
  ) {
    this.user = target.kind === "user" ? target.email : target.adminEmail;
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
    const key = `${parent}/${name}`;
    let id = this.folders.get(key);
    if (!id) {
      id = this.findOrCreateFolder(name, parent);
      id.catch(() => this.folders.delete(key));
      this.folders.set(key, id);
    }
    return id;
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

  /** Creates the file with the content in `parent`; Google files converted back to their type. */
  async create(metadata: ItemMetadata, content: Buffer, parent: string): Promise<string> {
    const native = metadata.native;
    const { data } = await this.call("drive.files.create", false, () =>
      this.drive.files.create({
        requestBody: {
          name: metadata.name ?? "Recovered file",
          mimeType: native?.mimeType ?? metadata.mimeType,
          parents: [parent],
          ...(metadata.description ? { description: metadata.description } : {}),
          ...(metadata.properties ? { properties: metadata.properties } : {}),
        },
        media: { mimeType: native?.exportMimeType ?? metadata.mimeType, body: Readable.from([content]) },
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
        media: {
          mimeType: metadata.native?.exportMimeType ?? metadata.mimeType,
          body: Readable.from([content]),
        },
        fields: "id",
        supportsAllDrives: true,
      }),
    );
  }

  /** Re-applies the direct permissions (no notification emails); returns how many Google took. */
  async share(fileId: string, permissions: readonly DrivePermission[] | undefined): Promise<number> {
    let applied = 0;
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
        applied += 1;
      } catch {
        // A permission Google no longer accepts (a user who left, a domain policy) is not the file's loss.
      }
    }
    return applied;
  }
}
