/**
 * What the Drive store keeps (files, revisions, permissions, shared drives, the change log, snapshots),
 * the roles' ranks, and the stable ids and digests it derives from content and names.
 */
import { createHash } from "node:crypto";
import { type Digests, type GeneratedContent, type StreamedContent } from "./content";

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
  /**
   * Blob bytes; for Google Docs/Sheets/Slides, the document's plain text (exports are generated from it).
   * Content kept on disk (a large upload) comes with its checksums.
   */
  content?: Buffer | { stream: StreamedContent; digests?: Digests };
  /** Instead of `content`: blob bytes generated from a seed (files of many GiB that are never stored). */
  generated?: GeneratedContent;
  /** A shortcut's target (the file must be a shortcut, `application/vnd.google-apps.shortcut`). */
  shortcutTargetId?: string;
  restrictions?: FileRestrictions;
  createdTime?: string;
  modifiedTime?: string;
  description?: string;
  starred?: boolean;
  /** Flagged as malware or spam: downloads need `acknowledgeAbuse=true`. */
  abusive?: boolean;
  properties?: Record<string, string>;
  appProperties?: Record<string, string>;
}

/** Per-file limits on reading the content, as Drive keeps them on the file. */
export interface FileRestrictions {
  /** Readers and commenters may not download, print or copy the file. */
  copyRequiresWriterPermission?: boolean;
  /** `downloadRestrictions.itemDownloadRestriction`, set by the owner or an organizer. */
  downloadRestriction?: { restrictedForReaders: boolean; restrictedForWriters: boolean };
  /**
   * Downloads (`alt=media`) the file still serves before its download quota is exceeded; absent: no limit.
   * Google answers `downloadQuotaExceeded` for files downloaded too often.
   */
  downloadsLeft?: number;
}

export type Role = "owner" | "organizer" | "fileOrganizer" | "writer" | "commenter" | "reader";

export interface PermissionInput {
  type: "user" | "group" | "domain" | "anyone";
  role: Role;
  emailAddress?: string;
  domain?: string;
}

/** A user as Drive shows them, resolved from the directory. */
export interface DrivePerson {
  id: string;
  email: string;
  displayName: string;
  domain: string;
  customerId: string;
}

export interface DrivePeople {
  byId(id: string): DrivePerson | undefined;
  /** By email or a former address. */
  byEmail(email: string): DrivePerson | undefined;
}

export interface StoredPermission {
  id: string;
  type: PermissionInput["type"];
  role: Role;
  emailAddress?: string;
  domain?: string;
}

export interface StoredRevision {
  id: string;
  mimeType: string;
  /** The bytes when held in memory; empty when `stream` describes them. */
  content: Buffer;
  /** Bytes not held in memory (generated from a seed, or a file on disk); read with `DriveStore.read`. */
  stream?: StreamedContent;
  size: number;
  md5: string;
  sha256: string;
  modifiedTime: string;
  userId: string;
  keepForever: boolean;
}

export interface StoredFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  driveId?: string;
  /** Owner of a My Drive file; the creator of a shared-drive file. */
  ownerId: string;
  createdTime: string;
  modifiedTime: string;
  trashed: boolean;
  explicitlyTrashed: boolean;
  trashedTime?: string;
  trashingUserId?: string;
  version: number;
  starred: boolean;
  description?: string;
  abusive: boolean;
  properties?: Record<string, string>;
  appProperties?: Record<string, string>;
  lastModifyingUserId: string;
  revisions: StoredRevision[];
  permissions: StoredPermission[];
  /** Counter for Docs Editors revision ids ("1", "2", ...). */
  revisionCounter: number;
  /** Set on shortcuts: the target, and its MIME type when the shortcut was made (it may go stale). */
  shortcutDetails?: { targetId: string; targetMimeType: string; targetResourceKey?: string };
  copyRequiresWriterPermission?: boolean;
  downloadRestriction?: FileRestrictions["downloadRestriction"];
  downloadsLeft?: number;
}

export interface StoredDrive {
  id: string;
  name: string;
  createdTime: string;
  creatorId: string;
  customerId?: string;
  hidden: boolean;
  members: StoredPermission[];
}

export interface ChangeRecord {
  seq: number;
  time: string;
  type: "file" | "drive";
  /** File or shared drive id. */
  id: string;
  removed: boolean;
}

export interface Access {
  role: Role;
  /** How the caller reaches the file: owner, a user/group permission, domain, anyone, drive member. */
  via: Set<"owner" | "user" | "domain" | "anyone" | "member">;
}

/** Streamed content is saved as its description (a seed, a file name), never as its bytes. */
export interface SerializedRevision extends Omit<StoredRevision, "content"> {
  content: string;
}
export interface SerializedFile extends Omit<StoredFile, "revisions"> {
  revisions: SerializedRevision[];
}

export interface DriveSnapshot {
  format?: 1;
  counter?: number;
  files?: SerializedFile[];
  tombstones?: SerializedFile[];
  drives?: StoredDrive[];
  changes?: ChangeRecord[];
  /** People outside every customer who own files here (Gmail users, partners). */
  externalPeople?: DrivePerson[];
  /** Domains whose administrators turned Drive apps off (every Drive call answers `domainPolicy`). */
  driveAppsDisabled?: string[];
}

export const ROLE_RANK: Record<Role, number> = {
  reader: 1,
  commenter: 2,
  writer: 3,
  fileOrganizer: 4,
  organizer: 5,
  owner: 6,
};

export function hash(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

export function digits(seed: string, count: number): string {
  const bytes = hash(seed);
  let out = "0";
  for (let index = 0; out.length < count; index += 1) out += String((bytes[index % 32] as number) % 10);
  return out;
}

/** Google's permission id for a user or group: stable per address. */
export function permissionIdFor(permission: PermissionInput): string {
  if (permission.type === "anyone") return "anyoneWithLink";
  if (permission.type === "domain") return `${digits(`domain:${permission.domain ?? ""}`, 20)}k`;
  return digits(`perm:${(permission.emailAddress ?? "").toLowerCase()}`, 20);
}

/** Each user's My Drive root folder id (stable per user). */
export function rootIdFor(userId: string): string {
  return `0A${hash(`root:${userId}`).toString("base64url").replace(/[-_]/g, "x").slice(0, 11)}Uk9PVA`;
}

export function digest(content: Buffer): Digests {
  return {
    md5: createHash("md5").update(content).digest("hex"),
    sha256: createHash("sha256").update(content).digest("hex"),
  };
}
