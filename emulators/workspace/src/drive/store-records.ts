/**
 * The Drive store's records as they are made and changed: a new file or shared drive, restrictions,
 * metadata changes, trashing, and a folder's descendants. The store records each change in its change log.
 */
import {
  type CreateFileInput,
  type DrivePerson,
  type FileRestrictions,
  type StoredDrive,
  type StoredFile,
  permissionIdFor,
  rootIdFor,
} from "./store-model";
import { GOOGLE_SHORTCUT } from "./google-types";
import { GOOGLE_FOLDER } from "./office";

/** A metadata change (name, description, starred, parents, properties, modifiedTime). */
export interface FileChange {
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
}

/** A new shared drive; its creator (a customer's user) is its first organizer. */
export function newSharedDrive(
  id: string,
  input: { name: string; creatorUserId: string },
  createdTime: string,
  creator: DrivePerson | undefined,
): StoredDrive {
  const drive: StoredDrive = {
    id,
    name: input.name,
    createdTime,
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
  return drive;
}

/**
 * Where a new file goes: its parent (default: the owner's My Drive root or the shared drive's root), its shared
 * drive and a shortcut's target; throws when the drive, the parent or the target does not fit.
 */
export function placeOf(
  input: CreateFileInput,
  files: Map<string, StoredFile>,
  drives: Map<string, StoredDrive>,
): { parent: string; driveId: string | undefined; target: StoredFile | undefined } {
  if (input.driveId && !drives.has(input.driveId)) throw new Error(`No shared drive ${input.driveId}`);
  const parent = input.parentId ?? input.driveId ?? rootIdFor(input.userId);
  const parentFile = files.get(parent);
  const target = input.shortcutTargetId !== undefined ? files.get(input.shortcutTargetId) : undefined;
  if ((input.mimeType === GOOGLE_SHORTCUT) !== (input.shortcutTargetId !== undefined))
    throw new Error("A shortcut, and only a shortcut, has a target");
  if (input.shortcutTargetId !== undefined && !target)
    throw new Error("The shortcut's target does not exist");
  if (parentFile && parentFile.mimeType !== GOOGLE_FOLDER) throw new Error("The parent is not a folder");
  const driveId = input.driveId ?? parentFile?.driveId;
  return { parent, driveId, target };
}

/** A new file or folder, without revisions. */
export function newStoredFile(
  id: string,
  input: CreateFileInput,
  place: {
    parent: string;
    driveId: string | undefined;
    target: StoredFile | undefined;
    createdTime: string;
    modifiedTime: string;
  },
): StoredFile {
  const { parent, driveId, target, createdTime, modifiedTime } = place;
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
  if (input.restrictions) applyRestrictions(file, input.restrictions);
  return file;
}

export function applyRestrictions(file: StoredFile, restrictions: FileRestrictions): void {
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

/** Merges a properties patch into a file's properties (null removes a key); undefined when neither exists. */
function mergeProps(
  current: Record<string, string> | undefined,
  patch: Record<string, string | null> | undefined,
): Record<string, string> | undefined {
  if (!patch) return current;
  const next = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** Applies a metadata change: a new version, modified now unless the change says when. */
export function applyChange(file: StoredFile, change: FileChange, now: () => string): void {
  if (change.name !== undefined) file.name = change.name;
  if (change.description !== undefined) file.description = change.description;
  if (change.starred !== undefined) file.starred = change.starred;
  if (change.mimeType !== undefined) file.mimeType = change.mimeType;
  if (change.removeParents)
    file.parents = file.parents.filter((parent) => !change.removeParents?.includes(parent));
  for (const parent of change.addParents ?? []) if (!file.parents.includes(parent)) file.parents.push(parent);
  const properties = mergeProps(file.properties, change.properties);
  if (properties) file.properties = properties;
  const appProperties = mergeProps(file.appProperties, change.appProperties);
  if (appProperties) file.appProperties = appProperties;
  file.modifiedTime = change.modifiedTime ?? now();
  file.lastModifyingUserId = change.userId;
  file.version += 1;
}

/**
 * Trashes or restores one file (`explicit`: the file itself, not a folder's content); false when nothing
 * changes (already trashed, or restoring content its folder did not trash).
 */
export function applyTrashed(
  target: StoredFile,
  trashed: boolean,
  explicit: boolean,
  by: { userId: string; now: string },
): boolean {
  if (trashed) {
    if (target.trashed) return false;
    target.trashed = true;
    target.explicitlyTrashed = explicit;
    target.trashedTime = by.now;
    target.trashingUserId = by.userId;
  } else {
    if (!target.trashed || (!explicit && target.explicitlyTrashed)) return false;
    target.trashed = false;
    target.explicitlyTrashed = false;
    delete target.trashedTime;
    delete target.trashingUserId;
  }
  target.version += 1;
  return true;
}

/** Everything inside a folder, nearest first. */
export function descendantsOf(files: Map<string, StoredFile>, folderId: string): StoredFile[] {
  const out: StoredFile[] = [];
  const seen = new Set<string>([folderId]);
  const queue = [folderId];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    for (const child of files.values()) {
      if (!seen.has(child.id) && child.parents.includes(current)) {
        seen.add(child.id);
        out.push(child);
        queue.push(child.id);
      }
    }
  }
  return out;
}

/** Counts one download against the file's download quota; false when the quota is already used up. */
export function takeDownload(file: StoredFile): boolean {
  if (file.downloadsLeft === undefined) return true;
  if (file.downloadsLeft <= 0) return false;
  file.downloadsLeft -= 1;
  return true;
}
