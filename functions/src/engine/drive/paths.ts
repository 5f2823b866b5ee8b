/**
 * A Drive file's folder path, root first ("My Drive/Projects/2026"), from the folders seen this run (the
 * listing's and the changes' folders, then `files.get` for the others).
 */
import type { drive_v3 } from "@googleapis/drive";
import { googleStatus } from "../sources/google-errors";
import { SHARED_WITH_ME, type DriveCall, type DriveResource } from "./drive-files";

interface FolderInfo {
  name: string;
  parents: string[];
}

export class DrivePaths {
  /** Folders seen this run (id → name and parents), for paths. */
  private readonly folders = new Map<string, FolderInfo>();
  /** The root's id and display name ("My Drive", or the shared drive's name). */
  private root?: { id: string; name: string };

  constructor(
    private readonly drive: drive_v3.Drive,
    private readonly resource: DriveResource,
    private readonly call: DriveCall,
  ) {}

  /** A folder the listing or the changes saw. */
  remember(folderId: string, folder: drive_v3.Schema$File): void {
    this.folders.set(folderId, { name: folder.name ?? "", parents: folder.parents ?? [] });
  }

  /** A file or folder that is gone. */
  forget(fileId: string): void {
    this.folders.delete(fileId);
  }

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
}
