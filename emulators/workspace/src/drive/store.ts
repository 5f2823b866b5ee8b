/**
 * Drive: files (blobs and Google Docs), folders, revisions, permissions, shared drives and the change log.
 *
 * The methods below are the contract the generator and the admin API rely on; the Drive routes build on
 * the same store. Users are referred to by their Directory id; emails, names and domains come from the
 * directory through `attachPeople` (the Drive routes attach it).
 */
import { type Readable } from "node:stream";
import { type ContentSpool, type Digests, type StreamedContent } from "./content";
import { GOOGLE_SHORTCUT } from "./google-types";
import { GOOGLE_FOLDER } from "./office";
import { accessOf, driveRoleOf, toPermission, transferTo } from "./store-access";
import { DriveChangeLog } from "./store-changes";
import { DriveContentStore } from "./store-content";
import {
  type CreateFileInput,
  type FileRestrictions,
  type Role,
  type PermissionInput,
  type DrivePerson,
  type DrivePeople,
  type StoredRevision,
  type StoredFile,
  type StoredDrive,
  type ChangeRecord,
  type Access,
  type DriveSnapshot,
  hash,
} from "./store-model";
import { DrivePeopleBook } from "./store-people";
import {
  type FileChange,
  applyChange,
  applyRestrictions,
  applyTrashed,
  descendantsOf,
  newSharedDrive,
  newStoredFile,
  placeOf,
  takeDownload,
} from "./store-records";
import { copyDrive, deserializeFile, serializeFile } from "./store-snapshot";

export class DriveStore {
  private files = new Map<string, StoredFile>();
  private tombstones = new Map<string, StoredFile>();
  private drives = new Map<string, StoredDrive>();
  private readonly changeLog = new DriveChangeLog();
  private counter = 0;
  private readonly people = new DrivePeopleBook();
  private readonly content = new DriveContentStore();

  /** Lets the store resolve users (emails, names, domains); the routes attach the directory. */
  attachPeople(people: DrivePeople): void {
    this.people.attach(people);
  }

  person(userId: string): DrivePerson | undefined {
    return this.people.person(userId);
  }

  personByEmail(email: string): DrivePerson | undefined {
    return this.people.personByEmail(email);
  }

  /** A person outside every customer (a Gmail account, a partner) who can own and share files. */
  addExternalPerson(input: { email: string; displayName?: string }): DrivePerson {
    return this.people.addExternalPerson(input);
  }

  /** Drive apps turned off for a domain by its administrators (Google answers 403 `domainPolicy`). */
  setDriveAppsDisabled(domain: string, disabled: boolean): void {
    this.people.setDriveAppsDisabled(domain, disabled);
  }

  driveAppsDisabled(domain: string): boolean {
    return this.people.driveAppsDisabled(domain);
  }

  // ------------------------------------------------------------------------------- streamed content

  /** Where large uploads are kept (`<data>/workspace/drive-content` on a server with a data folder). */
  useContentDir(path: string): void {
    this.content.useContentDir(path);
  }

  /** The content folder; a temporary one until `useContentDir` names another. */
  contentDir(): string {
    return this.content.contentDir();
  }

  /** Removes a temporary content folder (the emulator stops). */
  dispose(): void {
    this.content.dispose();
  }

  /** A new spool for a large upload, in the content folder. */
  newSpool(): ContentSpool {
    return this.content.newSpool();
  }

  /** Resolves when every checksum of streamed content is known. */
  async settled(): Promise<void> {
    await this.content.settled();
  }

  /** Bytes [start, end] of a revision as a stream (memory, generated or disk content alike). */
  read(revision: StoredRevision, start = 0, end = revision.size - 1): Readable {
    return this.content.read(revision, start, end);
  }

  private nextId(kind: string): string {
    this.counter += 1;
    return hash(`${kind}:${this.counter}`).toString("base64url").slice(0, 32);
  }

  private now(): string {
    return new Date().toISOString();
  }

  private record(type: "file" | "drive", id: string, removed: boolean, time?: string): void {
    this.changeLog.record(type, id, removed, time ?? this.now());
  }

  // ------------------------------------------------------------------------------------ shared drives

  createSharedDrive(input: { name: string; creatorUserId: string; createdTime?: string; id?: string }): {
    id: string;
  } {
    const id = input.id ?? `0A${this.nextId("drive").replace(/[-_]/g, "x").slice(0, 11)}Uk9PVA`;
    const drive = newSharedDrive(
      id,
      input,
      input.createdTime ?? this.now(),
      this.people.user(input.creatorUserId),
    );
    this.drives.set(id, drive);
    this.record("drive", id, false, drive.createdTime);
    return { id };
  }

  /** Adds a member to a shared drive (a permission on the drive). */
  addDriveMember(driveId: string, permission: PermissionInput): void {
    const drive = this.drives.get(driveId);
    if (!drive) throw new Error(`No shared drive ${driveId}`);
    const stored = toPermission(permission);
    drive.members = drive.members.filter((member) => member.id !== stored.id);
    drive.members.push(stored);
    this.record("drive", driveId, false);
  }

  /** A member's new role; false when the drive has no such member. */
  updateDriveMember(driveId: string, permissionId: string, role: Role): boolean {
    const member = this.drives.get(driveId)?.members.find((item) => item.id === permissionId);
    if (!member) return false;
    member.role = role;
    this.record("drive", driveId, false);
    return true;
  }

  removeDriveMember(driveId: string, permissionId: string): boolean {
    const drive = this.drives.get(driveId);
    if (!drive || !drive.members.some((member) => member.id === permissionId)) return false;
    drive.members = drive.members.filter((member) => member.id !== permissionId);
    this.record("drive", driveId, false);
    return true;
  }

  drive(driveId: string): StoredDrive | undefined {
    return this.drives.get(driveId);
  }

  allDrives(): StoredDrive[] {
    return [...this.drives.values()];
  }

  /** The caller's role in a shared drive, or undefined when not a member. */
  driveRole(drive: StoredDrive, viewer: DrivePerson): Role | undefined {
    return driveRoleOf(this.people, drive, viewer);
  }

  // ------------------------------------------------------------------------------------------- files

  /** Creates a file or folder, recording a change for everyone who can see it. */
  createFile(input: CreateFileInput): { id: string } {
    const { parent, driveId, target } = placeOf(input, this.files, this.drives);
    const createdTime = input.createdTime ?? this.now();
    const modifiedTime = input.modifiedTime ?? createdTime;
    const id = `1${this.nextId("file")}`.slice(0, 33);
    const file = newStoredFile(id, input, { parent, driveId, target, createdTime, modifiedTime });
    if (input.mimeType !== GOOGLE_FOLDER && input.mimeType !== GOOGLE_SHORTCUT) {
      const content = input.generated
        ? { stream: { ...input.generated, kind: "generated" as const } }
        : (input.content ?? Buffer.alloc(0));
      file.revisions.push(this.content.newRevision(file, content, input.userId, modifiedTime));
    }
    this.files.set(id, file);
    this.record("file", id, false, modifiedTime);
    return { id };
  }

  file(fileId: string): StoredFile | undefined {
    return this.files.get(fileId);
  }

  /** A live or deleted file (deleted ones keep their metadata for the change log). */
  fileOrTombstone(fileId: string): StoredFile | undefined {
    return this.files.get(fileId) ?? this.tombstones.get(fileId);
  }

  allFiles(): IterableIterator<StoredFile> {
    return this.files.values();
  }

  children(folderId: string): StoredFile[] {
    return [...this.files.values()].filter((file) => file.parents.includes(folderId));
  }

  /**
   * New content for a file: a new head revision (the previous one stays in revisions.list). Content is bytes,
   * or streamed content (a generated description, or a finished upload spool with its checksums).
   */
  addRevision(
    fileId: string,
    content: Buffer | { stream: StreamedContent; digests?: Digests },
    options: { userId: string; modifiedTime?: string },
  ): void {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    if (file.mimeType === GOOGLE_FOLDER || file.mimeType === GOOGLE_SHORTCUT)
      throw new Error("Folders and shortcuts have no content");
    const modifiedTime = options.modifiedTime ?? this.now();
    file.revisions.push(this.content.newRevision(file, content, options.userId, modifiedTime));
    file.modifiedTime = modifiedTime;
    file.lastModifyingUserId = options.userId;
    file.version += 1;
    this.record("file", fileId, false, modifiedTime);
  }

  head(file: StoredFile): StoredRevision | undefined {
    return file.revisions[file.revisions.length - 1];
  }

  /** Changes a file's download and copy restrictions (a metadata change, recorded as one). */
  setRestrictions(fileId: string, restrictions: FileRestrictions & { unlimitedDownloads?: boolean }): void {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    applyRestrictions(file, restrictions);
    if (restrictions.unlimitedDownloads) delete file.downloadsLeft;
    file.version += 1;
    this.record("file", fileId, false);
  }

  /** Counts one download against the file's download quota; false when the quota is already used up. */
  takeDownload(file: StoredFile): boolean {
    return takeDownload(file);
  }

  addPermission(fileId: string, permission: PermissionInput): { id: string } {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    const stored = toPermission(permission);
    file.permissions = file.permissions.filter((existing) => existing.id !== stored.id);
    file.permissions.push(stored);
    file.version += 1;
    this.record("file", fileId, false);
    return { id: stored.id };
  }

  /** A new role for an existing permission; false when the file has no such permission. */
  updatePermission(fileId: string, permissionId: string, role: Role): boolean {
    const file = this.files.get(fileId);
    const permission = file?.permissions.find((item) => item.id === permissionId);
    if (!file || !permission) return false;
    permission.role = role;
    file.version += 1;
    this.record("file", fileId, false);
    return true;
  }

  removePermission(fileId: string, permissionId: string): boolean {
    const file = this.files.get(fileId);
    if (!file) return false;
    const before = file.permissions.length;
    file.permissions = file.permissions.filter((permission) => permission.id !== permissionId);
    if (file.permissions.length === before) return false;
    file.version += 1;
    this.record("file", fileId, false);
    return true;
  }

  /** Makes another user the owner of a My Drive file; the former owner keeps writer access. */
  transferOwnership(fileId: string, newOwnerId: string): void {
    const file = this.files.get(fileId);
    const newOwner = this.people.user(newOwnerId);
    const former = file ? this.people.user(file.ownerId) : undefined;
    if (!file || !newOwner) throw new Error("Unknown file or user");
    transferTo(file, former, newOwner);
    file.ownerId = newOwnerId;
    file.version += 1;
    this.record("file", fileId, false);
  }

  /** Metadata changes (name, description, starred, parents, properties, modifiedTime). */
  updateFile(fileId: string, change: FileChange): StoredFile {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    applyChange(file, change, () => this.now());
    this.record("file", fileId, false, file.modifiedTime);
    return file;
  }

  /** Trashes or restores a file; a folder's contents follow it (implicitly trashed). */
  setTrashed(fileId: string, trashed: boolean, userId: string): void {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    const now = this.now();
    const apply = (target: StoredFile, explicit: boolean): void => {
      if (applyTrashed(target, trashed, explicit, { userId, now }))
        this.record("file", target.id, false, now);
    };
    apply(file, true);
    if (file.mimeType === GOOGLE_FOLDER)
      for (const child of descendantsOf(this.files, fileId)) apply(child, false);
  }

  /** Deletes a file for good (a folder with its contents), recording removals. */
  deleteFile(fileId: string): void {
    const file = this.files.get(fileId);
    if (!file) return;
    const doomed = file.mimeType === GOOGLE_FOLDER ? [file, ...descendantsOf(this.files, fileId)] : [file];
    for (const target of doomed) {
      this.files.delete(target.id);
      this.tombstones.set(target.id, { ...target, revisions: [] });
      this.record("file", target.id, true);
      for (const revision of target.revisions) this.content.forget(revision);
    }
  }

  // ------------------------------------------------------------------------------------------ access

  /** The caller's role on a file (direct, inherited from folders, or as a shared drive member). */
  access(file: StoredFile, viewer: DrivePerson): Access | undefined {
    const lookup = {
      people: this.people,
      drive: (driveId: string) => this.drives.get(driveId),
      fileOrTombstone: (fileId: string) => this.fileOrTombstone(fileId),
    };
    return accessOf(lookup, file, viewer);
  }

  // ----------------------------------------------------------------------------------------- changes

  /** The token of the next change (changes.getStartPageToken). */
  nextChangeToken(): number {
    return this.changeLog.nextChangeToken();
  }

  changesFrom(seq: number): ChangeRecord[] {
    return this.changeLog.changesFrom(seq);
  }

  // ---------------------------------------------------------------------------------------- snapshot

  snapshot(): DriveSnapshot {
    return {
      format: 1,
      counter: this.counter,
      files: [...this.files.values()].map(serializeFile),
      tombstones: [...this.tombstones.values()].map(serializeFile),
      drives: [...this.drives.values()].map(copyDrive),
      changes: this.changeLog.snapshot(),
      ...this.people.snapshot(),
    };
  }

  restore(snapshot: DriveSnapshot): void {
    this.counter = snapshot.counter ?? 0;
    this.files = new Map((snapshot.files ?? []).map((file) => [file.id, deserializeFile(file)]));
    this.tombstones = new Map((snapshot.tombstones ?? []).map((file) => [file.id, deserializeFile(file)]));
    this.drives = new Map((snapshot.drives ?? []).map((drive) => [drive.id, copyDrive(drive)]));
    this.changeLog.restore(snapshot.changes);
    this.people.restore(snapshot);
    for (const file of this.files.values())
      for (const revision of file.revisions)
        if (revision.stream && !revision.md5) this.content.computeDigests(revision);
  }

  /** Forgets a deleted user's My Drive. */
  dropUser(userId: string): void {
    for (const file of [...this.files.values()]) {
      if (!file.driveId && file.ownerId === userId && this.files.has(file.id)) this.deleteFile(file.id);
    }
  }
}
