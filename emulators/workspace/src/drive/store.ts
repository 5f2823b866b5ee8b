/**
 * Drive: files (blobs and Google Docs), folders, revisions, permissions, shared drives and the change log.
 *
 * The methods below are the contract the generator and the admin API rely on; the Drive routes build on
 * the same store. Users are referred to by their Directory id; emails, names and domains come from the
 * directory through `attachPeople` (the Drive routes attach it).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { ContentSpool, contentStream, digestsOf, type Digests, type StreamedContent } from "./content";
import { GOOGLE_SHORTCUT, hasGoogleContent } from "./google-types";
import { GOOGLE_FOLDER } from "./office";
import {
  type CreateFileInput,
  type FileRestrictions,
  type Role,
  type PermissionInput,
  type DrivePerson,
  type DrivePeople,
  type StoredPermission,
  type StoredRevision,
  type StoredFile,
  type StoredDrive,
  type ChangeRecord,
  type Access,
  type SerializedFile,
  type DriveSnapshot,
  ROLE_RANK,
  hash,
  digits,
  permissionIdFor,
  rootIdFor,
  digest,
} from "./store-model";

export class DriveStore {
  private files = new Map<string, StoredFile>();
  private tombstones = new Map<string, StoredFile>();
  private drives = new Map<string, StoredDrive>();
  private changes: ChangeRecord[] = [];
  private counter = 0;
  private people: DrivePeople = { byId: () => undefined, byEmail: () => undefined };
  private externalPeople = new Map<string, DrivePerson>();
  private appsDisabled = new Set<string>();
  /** Checksums of streamed content still being computed. */
  private readonly pending = new Set<Promise<void>>();
  private contentDirectory?: { path: string; temporary: boolean };

  /** Lets the store resolve users (emails, names, domains); the routes attach the directory. */
  attachPeople(people: DrivePeople): void {
    this.people = people;
  }

  person(userId: string): DrivePerson | undefined {
    return this.people.byId(userId) ?? this.externalPeople.get(userId);
  }

  personByEmail(email: string): DrivePerson | undefined {
    const lower = email.toLowerCase();
    return (
      this.people.byEmail(email) ?? [...this.externalPeople.values()].find((person) => person.email === lower)
    );
  }

  /** A person outside every customer (a Gmail account, a partner) who can own and share files. */
  addExternalPerson(input: { email: string; displayName?: string }): DrivePerson {
    const email = input.email.toLowerCase();
    const existing = [...this.externalPeople.values()].find((person) => person.email === email);
    if (existing) return existing;
    if (this.people.byEmail(email)) throw new Error(`${email} is a user of a customer, not an outsider`);
    const person: DrivePerson = {
      id: digits(`external:${email}`, 21).replace(/^0/, "1"),
      email,
      displayName: input.displayName ?? email.split("@")[0] ?? email,
      domain: email.split("@")[1] ?? "",
      customerId: "",
    };
    this.externalPeople.set(person.id, person);
    return person;
  }

  /** Drive apps turned off for a domain by its administrators (Google answers 403 `domainPolicy`). */
  setDriveAppsDisabled(domain: string, disabled: boolean): void {
    if (disabled) this.appsDisabled.add(domain.toLowerCase());
    else this.appsDisabled.delete(domain.toLowerCase());
  }

  driveAppsDisabled(domain: string): boolean {
    return this.appsDisabled.has(domain.toLowerCase());
  }

  // ------------------------------------------------------------------------------- streamed content

  /** Where large uploads are kept (`<data>/workspace/drive-content` on a server with a data folder). */
  useContentDir(path: string): void {
    mkdirSync(path, { recursive: true });
    this.contentDirectory = { path, temporary: false };
  }

  /** The content folder; a temporary one until `useContentDir` names another. */
  contentDir(): string {
    this.contentDirectory ??= {
      path: mkdtempSync(join(tmpdir(), "alpvault-drive-content-")),
      temporary: true,
    };
    return this.contentDirectory.path;
  }

  /** Removes a temporary content folder (the emulator stops). */
  dispose(): void {
    if (this.contentDirectory?.temporary)
      rmSync(this.contentDirectory.path, { recursive: true, force: true });
    this.contentDirectory = undefined;
  }

  /** A new spool for a large upload, in the content folder. */
  newSpool(): ContentSpool {
    return new ContentSpool(this.contentDir(), `upload-${randomBytes(12).toString("hex")}`);
  }

  /** Resolves when every checksum of streamed content is known. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private computeDigests(revision: StoredRevision): void {
    if (!revision.stream) return;
    const job = digestsOf(revision.stream, this.contentDir()).then((sums) => {
      revision.md5 = sums.md5;
      revision.sha256 = sums.sha256;
    });
    const tracked = job.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Bytes [start, end] of a revision as a stream (memory, generated or disk content alike). */
  read(revision: StoredRevision, start = 0, end = revision.size - 1): Readable {
    if (revision.stream) return contentStream(revision.stream, this.contentDir(), start, end);
    return Readable.from(end < start ? [] : [revision.content.subarray(start, end + 1)], {
      objectMode: false,
    });
  }

  private nextId(kind: string): string {
    this.counter += 1;
    return hash(`${kind}:${this.counter}`).toString("base64url").slice(0, 32);
  }

  private now(): string {
    return new Date().toISOString();
  }

  private record(type: "file" | "drive", id: string, removed: boolean, time?: string): void {
    const seq = this.changes.length + 1;
    this.changes.push({ seq, time: time ?? this.now(), type, id, removed });
  }

  // ------------------------------------------------------------------------------------ shared drives

  createSharedDrive(input: { name: string; creatorUserId: string; createdTime?: string; id?: string }): {
    id: string;
  } {
    const id = input.id ?? `0A${this.nextId("drive").replace(/[-_]/g, "x").slice(0, 11)}Uk9PVA`;
    const creator = this.people.byId(input.creatorUserId);
    const drive: StoredDrive = {
      id,
      name: input.name,
      createdTime: input.createdTime ?? this.now(),
      creatorId: input.creatorUserId,
      customerId: creator?.customerId,
      hidden: false,
      members: [],
    };
    if (creator) {
      drive.members.push({
        id: permissionIdFor({ type: "user", role: "organizer", emailAddress: creator.email }),
        type: "user",
        role: "organizer",
        emailAddress: creator.email,
      });
    }
    this.drives.set(id, drive);
    this.record("drive", id, false, drive.createdTime);
    return { id };
  }

  /** Adds a member to a shared drive (a permission on the drive). */
  addDriveMember(driveId: string, permission: PermissionInput): void {
    const drive = this.drives.get(driveId);
    if (!drive) throw new Error(`No shared drive ${driveId}`);
    const stored = this.toPermission(permission);
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
    let best: Role | undefined;
    for (const member of drive.members) {
      if (!this.permissionMatches(member, viewer)) continue;
      if (!best || ROLE_RANK[member.role] > ROLE_RANK[best]) best = member.role;
    }
    return best;
  }

  // ------------------------------------------------------------------------------------------- files

  private toPermission(permission: PermissionInput): StoredPermission {
    const email = permission.emailAddress?.toLowerCase();
    if ((permission.type === "user" || permission.type === "group") && !email) {
      throw new Error("emailAddress is required for user and group permissions");
    }
    if (permission.type === "domain" && !permission.domain) throw new Error("domain is required");
    return {
      id: permissionIdFor({ ...permission, emailAddress: email }),
      type: permission.type,
      role: permission.role,
      ...(email && (permission.type === "user" || permission.type === "group")
        ? { emailAddress: email }
        : {}),
      ...(permission.type === "domain" ? { domain: permission.domain?.toLowerCase() } : {}),
    };
  }

  /**
   * A new revision of `content`: bytes in memory, or streamed content whose checksums are given (a finished
   * upload spool) or computed in the background (`settled()` waits for them).
   */
  private newRevision(
    file: StoredFile,
    content: Buffer | { stream: StreamedContent; digests?: Digests },
    userId: string,
    modifiedTime: string,
  ): StoredRevision {
    file.revisionCounter += 1;
    const id = hasGoogleContent(file.mimeType)
      ? String(file.revisionCounter)
      : `0B${hash(`revision:${file.id}:${file.revisionCounter}`).toString("base64url").slice(0, 40)}`;
    const base = { id, mimeType: file.mimeType, modifiedTime, userId, keepForever: false };
    if (Buffer.isBuffer(content)) {
      const sums = digest(content);
      return { ...base, content, size: content.length, md5: sums.md5, sha256: sums.sha256 };
    }
    const revision: StoredRevision = {
      ...base,
      content: Buffer.alloc(0),
      stream: { ...content.stream },
      size: content.stream.size,
      md5: content.digests?.md5 ?? "",
      sha256: content.digests?.sha256 ?? "",
    };
    if (!content.digests) this.computeDigests(revision);
    return revision;
  }

  /** Creates a file or folder, recording a change for everyone who can see it. */
  createFile(input: CreateFileInput): { id: string } {
    if (input.driveId && !this.drives.has(input.driveId)) throw new Error(`No shared drive ${input.driveId}`);
    const parent = input.parentId ?? input.driveId ?? rootIdFor(input.userId);
    const parentFile = this.files.get(parent);
    const target = input.shortcutTargetId !== undefined ? this.files.get(input.shortcutTargetId) : undefined;
    if ((input.mimeType === GOOGLE_SHORTCUT) !== (input.shortcutTargetId !== undefined))
      throw new Error("A shortcut, and only a shortcut, has a target");
    if (input.shortcutTargetId !== undefined && !target)
      throw new Error("The shortcut's target does not exist");
    if (parentFile && parentFile.mimeType !== GOOGLE_FOLDER) throw new Error("The parent is not a folder");
    const driveId = input.driveId ?? parentFile?.driveId;
    const createdTime = input.createdTime ?? this.now();
    const modifiedTime = input.modifiedTime ?? createdTime;
    const id = `1${this.nextId("file")}`.slice(0, 33);
    const file: StoredFile = {
      id,
      name: input.name,
      mimeType: input.mimeType,
      parents: [parent],
      ...(driveId ? { driveId } : {}),
      ownerId: input.userId,
      createdTime,
      modifiedTime,
      trashed: false,
      explicitlyTrashed: false,
      version: 1,
      starred: input.starred ?? false,
      ...(input.description !== undefined ? { description: input.description } : {}),
      abusive: input.abusive ?? false,
      ...(input.properties ? { properties: { ...input.properties } } : {}),
      ...(input.appProperties ? { appProperties: { ...input.appProperties } } : {}),
      lastModifyingUserId: input.userId,
      revisions: [],
      permissions: [],
      revisionCounter: 0,
      ...(target ? { shortcutDetails: { targetId: target.id, targetMimeType: target.mimeType } } : {}),
    };
    if (input.restrictions) this.applyRestrictions(file, input.restrictions);
    if (input.mimeType !== GOOGLE_FOLDER && input.mimeType !== GOOGLE_SHORTCUT) {
      const content = input.generated
        ? { stream: { ...input.generated, kind: "generated" as const } }
        : (input.content ?? Buffer.alloc(0));
      file.revisions.push(this.newRevision(file, content, input.userId, modifiedTime));
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
    file.revisions.push(this.newRevision(file, content, options.userId, modifiedTime));
    file.modifiedTime = modifiedTime;
    file.lastModifyingUserId = options.userId;
    file.version += 1;
    this.record("file", fileId, false, modifiedTime);
  }

  head(file: StoredFile): StoredRevision | undefined {
    return file.revisions[file.revisions.length - 1];
  }

  private applyRestrictions(file: StoredFile, restrictions: FileRestrictions): void {
    if (restrictions.copyRequiresWriterPermission !== undefined)
      file.copyRequiresWriterPermission = restrictions.copyRequiresWriterPermission;
    if (restrictions.downloadRestriction !== undefined)
      file.downloadRestriction = { ...restrictions.downloadRestriction };
    if (restrictions.downloadsLeft !== undefined) {
      if (!Number.isInteger(restrictions.downloadsLeft) || restrictions.downloadsLeft < 0)
        throw new Error("downloadsLeft must be a whole number, 0 or more");
      file.downloadsLeft = restrictions.downloadsLeft;
    }
  }

  /** Changes a file's download and copy restrictions (a metadata change, recorded as one). */
  setRestrictions(fileId: string, restrictions: FileRestrictions & { unlimitedDownloads?: boolean }): void {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    this.applyRestrictions(file, restrictions);
    if (restrictions.unlimitedDownloads) delete file.downloadsLeft;
    file.version += 1;
    this.record("file", fileId, false);
  }

  /** Counts one download against the file's download quota; false when the quota is already used up. */
  takeDownload(file: StoredFile): boolean {
    if (file.downloadsLeft === undefined) return true;
    if (file.downloadsLeft <= 0) return false;
    file.downloadsLeft -= 1;
    return true;
  }

  addPermission(fileId: string, permission: PermissionInput): { id: string } {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    const stored = this.toPermission(permission);
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
    const newOwner = this.people.byId(newOwnerId);
    const former = file ? this.people.byId(file.ownerId) : undefined;
    if (!file || !newOwner) throw new Error("Unknown file or user");
    if (former)
      file.permissions.push(this.toPermission({ type: "user", role: "writer", emailAddress: former.email }));
    const newOwnerPermission = permissionIdFor({ type: "user", role: "owner", emailAddress: newOwner.email });
    file.permissions = file.permissions.filter((permission) => permission.id !== newOwnerPermission);
    file.ownerId = newOwnerId;
    file.version += 1;
    this.record("file", fileId, false);
  }

  /** Metadata changes (name, description, starred, parents, properties, modifiedTime). */
  updateFile(
    fileId: string,
    change: {
      name?: string;
      description?: string;
      starred?: boolean;
      mimeType?: string;
      addParents?: string[];
      removeParents?: string[];
      properties?: Record<string, string | null>;
      appProperties?: Record<string, string | null>;
      modifiedTime?: string;
      userId: string;
    },
  ): StoredFile {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    if (change.name !== undefined) file.name = change.name;
    if (change.description !== undefined) file.description = change.description;
    if (change.starred !== undefined) file.starred = change.starred;
    if (change.mimeType !== undefined) file.mimeType = change.mimeType;
    if (change.removeParents)
      file.parents = file.parents.filter((parent) => !change.removeParents?.includes(parent));
    for (const parent of change.addParents ?? [])
      if (!file.parents.includes(parent)) file.parents.push(parent);
    const mergeProps = (
      current: Record<string, string> | undefined,
      patch: Record<string, string | null> | undefined,
    ): Record<string, string> | undefined => {
      if (!patch) return current;
      const next = { ...(current ?? {}) };
      for (const [key, value] of Object.entries(patch)) {
        if (value === null) delete next[key];
        else next[key] = value;
      }
      return next;
    };
    const properties = mergeProps(file.properties, change.properties);
    if (properties) file.properties = properties;
    const appProperties = mergeProps(file.appProperties, change.appProperties);
    if (appProperties) file.appProperties = appProperties;
    file.modifiedTime = change.modifiedTime ?? this.now();
    file.lastModifyingUserId = change.userId;
    file.version += 1;
    this.record("file", fileId, false, file.modifiedTime);
    return file;
  }

  private descendants(folderId: string): StoredFile[] {
    const out: StoredFile[] = [];
    const seen = new Set<string>([folderId]);
    const queue = [folderId];
    while (queue.length > 0) {
      const current = queue.shift() as string;
      for (const child of this.files.values()) {
        if (!seen.has(child.id) && child.parents.includes(current)) {
          seen.add(child.id);
          out.push(child);
          queue.push(child.id);
        }
      }
    }
    return out;
  }

  /** Trashes or restores a file; a folder's contents follow it (implicitly trashed). */
  setTrashed(fileId: string, trashed: boolean, userId: string): void {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`No file ${fileId}`);
    const now = this.now();
    const apply = (target: StoredFile, explicit: boolean): void => {
      if (trashed) {
        if (target.trashed) return;
        target.trashed = true;
        target.explicitlyTrashed = explicit;
        target.trashedTime = now;
        target.trashingUserId = userId;
      } else {
        if (!target.trashed || (!explicit && target.explicitlyTrashed)) return;
        target.trashed = false;
        target.explicitlyTrashed = false;
        delete target.trashedTime;
        delete target.trashingUserId;
      }
      target.version += 1;
      this.record("file", target.id, false, now);
    };
    apply(file, true);
    if (file.mimeType === GOOGLE_FOLDER) for (const child of this.descendants(fileId)) apply(child, false);
  }

  /** Deletes a file for good (a folder with its contents), recording removals. */
  deleteFile(fileId: string): void {
    const file = this.files.get(fileId);
    if (!file) return;
    const doomed = file.mimeType === GOOGLE_FOLDER ? [file, ...this.descendants(fileId)] : [file];
    for (const target of doomed) {
      this.files.delete(target.id);
      this.tombstones.set(target.id, { ...target, revisions: [] });
      this.record("file", target.id, true);
      for (const revision of target.revisions) {
        if (revision.stream?.kind === "disk")
          void rm(join(this.contentDir(), revision.stream.name), { force: true });
      }
    }
  }

  // ------------------------------------------------------------------------------------------ access

  private permissionMatches(permission: StoredPermission, viewer: DrivePerson): boolean {
    if (permission.type === "anyone") return true;
    if (permission.type === "domain") return permission.domain === viewer.domain;
    if (!permission.emailAddress) return false;
    if (permission.emailAddress === viewer.email) return true;
    return this.people.byEmail(permission.emailAddress)?.id === viewer.id;
  }

  /** The caller's role on a file (direct, inherited from folders, or as a shared drive member). */
  access(file: StoredFile, viewer: DrivePerson, depth = 0): Access | undefined {
    let role: Role | undefined;
    const via: Access["via"] = new Set();
    const grant = (candidate: Role, how: "owner" | "user" | "domain" | "anyone" | "member"): void => {
      via.add(how);
      if (!role || ROLE_RANK[candidate] > ROLE_RANK[role]) role = candidate;
    };
    if (!file.driveId && file.ownerId === viewer.id) grant("owner", "owner");
    for (const permission of file.permissions) {
      if (!this.permissionMatches(permission, viewer)) continue;
      grant(permission.role, permission.type === "group" ? "user" : permission.type);
    }
    if (file.driveId) {
      const drive = this.drives.get(file.driveId);
      const member = drive ? this.driveRole(drive, viewer) : undefined;
      if (member) grant(member, "member");
    }
    if (depth < 64) {
      for (const parentId of file.parents) {
        const parent = this.fileOrTombstone(parentId);
        if (!parent) continue;
        const inherited = this.access(parent, viewer, depth + 1);
        if (!inherited) continue;
        for (const how of inherited.via) grant(inherited.role, how === "owner" ? "user" : how);
      }
    }
    return role ? { role, via } : undefined;
  }

  // ----------------------------------------------------------------------------------------- changes

  /** The token of the next change (changes.getStartPageToken). */
  nextChangeToken(): number {
    return this.changes.length + 1;
  }

  changesFrom(seq: number): ChangeRecord[] {
    return this.changes.slice(Math.max(0, seq - 1));
  }

  // ---------------------------------------------------------------------------------------- snapshot

  snapshot(): DriveSnapshot {
    const serialize = (file: StoredFile): SerializedFile => ({
      ...file,
      revisions: file.revisions.map((revision) => ({
        ...revision,
        content: revision.content.toString("base64"),
        ...(revision.stream ? { stream: { ...revision.stream } } : {}),
      })),
    });
    return {
      format: 1,
      counter: this.counter,
      files: [...this.files.values()].map(serialize),
      tombstones: [...this.tombstones.values()].map(serialize),
      drives: [...this.drives.values()].map((drive) => ({
        ...drive,
        members: drive.members.map((m) => ({ ...m })),
      })),
      changes: this.changes.map((change) => ({ ...change })),
      ...(this.externalPeople.size > 0
        ? { externalPeople: [...this.externalPeople.values()].map((person) => ({ ...person })) }
        : {}),
      ...(this.appsDisabled.size > 0 ? { driveAppsDisabled: [...this.appsDisabled] } : {}),
    };
  }

  restore(snapshot: DriveSnapshot): void {
    const deserialize = (file: SerializedFile): StoredFile => ({
      ...file,
      parents: [...file.parents],
      permissions: file.permissions.map((permission) => ({ ...permission })),
      revisions: file.revisions.map((revision) => ({
        ...revision,
        content: Buffer.from(revision.content, "base64"),
        ...(revision.stream ? { stream: { ...revision.stream } } : {}),
      })),
    });
    this.counter = snapshot.counter ?? 0;
    this.files = new Map((snapshot.files ?? []).map((file) => [file.id, deserialize(file)]));
    this.tombstones = new Map((snapshot.tombstones ?? []).map((file) => [file.id, deserialize(file)]));
    this.drives = new Map(
      (snapshot.drives ?? []).map((drive) => [
        drive.id,
        { ...drive, members: drive.members.map((m) => ({ ...m })) },
      ]),
    );
    this.changes = (snapshot.changes ?? []).map((change) => ({ ...change }));
    this.externalPeople = new Map(
      (snapshot.externalPeople ?? []).map((person) => [person.id, { ...person }]),
    );
    this.appsDisabled = new Set(snapshot.driveAppsDisabled ?? []);
    for (const file of this.files.values())
      for (const revision of file.revisions)
        if (revision.stream && !revision.md5) this.computeDigests(revision);
  }

  /** Forgets a deleted user's My Drive. */
  dropUser(userId: string): void {
    for (const file of [...this.files.values()]) {
      if (!file.driveId && file.ownerId === userId && this.files.has(file.id)) this.deleteFile(file.id);
    }
  }
}
