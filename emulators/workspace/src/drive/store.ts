/**
 * Drive: files (blobs and Google Docs), folders, revisions, permissions, shared drives and the change log.
 *
 * The methods below are the contract the generator and the admin API rely on; the Drive routes build on
 * the same store.
 */
export type DriveSnapshot = Record<string, unknown>;

export interface CreateFileInput {
  /** Owner (My Drive files); for shared-drive files, the creator. */
  userId: string;
  /** Set for files in a shared drive. */
  driveId?: string;
  /** Parent folder id; default: the owner's My Drive root or the shared drive's root. */
  parentId?: string;
  name: string;
  /** e.g. `application/pdf`, `application/vnd.google-apps.folder`, `application/vnd.google-apps.document`. */
  mimeType: string;
  /** Blob bytes; for Google Docs/Sheets/Slides, the document's plain text (exports are generated from it). */
  content?: Buffer;
  createdTime?: string;
  modifiedTime?: string;
}

export interface PermissionInput {
  type: "user" | "group" | "domain" | "anyone";
  role: "owner" | "organizer" | "fileOrganizer" | "writer" | "commenter" | "reader";
  emailAddress?: string;
  domain?: string;
}

export class DriveStore {
  createSharedDrive(_input: { name: string; creatorUserId: string; createdTime?: string }): { id: string } {
    throw new Error("not implemented");
  }

  /** Adds a member to a shared drive (a permission on the drive). */
  addDriveMember(_driveId: string, _permission: PermissionInput): void {
    throw new Error("not implemented");
  }

  /** Creates a file or folder, recording a change for everyone who can see it. */
  createFile(_input: CreateFileInput): { id: string } {
    throw new Error("not implemented");
  }

  /** New content for a file: a new head revision (the previous one stays in revisions.list). */
  addRevision(_fileId: string, _content: Buffer, _options: { userId: string; modifiedTime?: string }): void {
    throw new Error("not implemented");
  }

  addPermission(_fileId: string, _permission: PermissionInput): { id: string } {
    throw new Error("not implemented");
  }

  snapshot(): DriveSnapshot {
    return {};
  }

  restore(_snapshot: DriveSnapshot): void {}

  /** Forgets a deleted user's My Drive. */
  dropUser(_userId: string): void {}
}
