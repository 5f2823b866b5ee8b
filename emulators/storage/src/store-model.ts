/**
 * What the store keeps (buckets, objects, staged uploads, snapshots) and the rules it applies: bucket and
 * object names, generation and metageneration preconditions, and listing page tokens.
 */
import { conditionNotMet, invalid } from "./http";

export interface StoredObject {
  bucket: string;
  name: string;
  generation: number;
  metageneration: number;
  contentType: string;
  metadata: Record<string, string>;
  /** Bytes in the object's blob file. */
  size: number;
  /** The blob file's name inside the blob directory (the generation). */
  blob: string;
  md5Hash: string;
  crc32c: string;
  timeCreated: string;
  updated: string;
  /** Under a customer-managed key: the blob file holds the bytes sealed with a data key wrapped by Cloud KMS. */
  encryption?: ObjectEncryption;
}

/** How an object's data key is kept: wrapped by a Cloud KMS key version (`customer-keys.ts`). */
export interface ObjectEncryption {
  /** The key version that wrapped it, `projects/…/cryptoKeys/{k}/cryptoKeyVersions/{n}` (the resource's `kmsKeyName`). */
  kmsKeyName: string;
  /** The data key as Cloud KMS's `:encrypt` answered it (base64). */
  wrappedKey: string;
}

/** Bytes written to a file under the blob directory's `uploads/`, with their checksums; no object's yet. */
export interface StagedBlob {
  file: string;
  size: number;
  md5Hash: string;
  crc32c: string;
}

export interface StoredBucket {
  name: string;
  location: string;
  timeCreated: string;
  metageneration: number;
  /** `encryption.defaultKmsKeyName`: the key of new objects that name none. */
  defaultKmsKeyName?: string;
  /** Created on first use (`autoCreateBuckets`), not by a `buckets.insert` that chose its location. */
  autoCreated?: boolean;
  objects: Map<string, StoredObject>;
  /** Object names in order, rebuilt on the first listing after a change. */
  sorted?: string[];
}

export interface Preconditions {
  ifGenerationMatch?: number;
  ifGenerationNotMatch?: number;
  ifMetagenerationMatch?: number;
  ifMetagenerationNotMatch?: number;
}

export interface ListOptions {
  prefix?: string;
  delimiter?: string;
  pageToken?: string;
  maxResults?: number;
  startOffset?: string;
  endOffset?: string;
}

export interface ListResult {
  items: StoredObject[];
  prefixes: string[];
  nextPageToken?: string;
}

/** An object as state files written before the blob directory hold it: the bytes inline, in base64. */
export type LegacySavedObject = Omit<StoredObject, "size" | "blob"> & { data: string };

/** The saved state: metadata only; each object names its blob file. Older files carry inline bytes. */
export interface StorageSnapshot {
  buckets: {
    name: string;
    location: string;
    timeCreated: string;
    defaultKmsKeyName?: string;
    autoCreated?: boolean;
    objects: (StoredObject | LegacySavedObject)[];
  }[];
}

/** How buckets are created on first use (`StorageStoreOptions.autoCreateBuckets`). */
export type AutoCreateBuckets = boolean | ((bucket: string) => string | undefined);

export interface StorageStoreOptions {
  /**
   * Creates buckets on first use instead of answering 404 (the local stack's mode). A function names the
   * location such a bucket has (the stack knows its region buckets' locations), so that a customer key is
   * checked against it as Cloud Storage does; true, or a function answering undefined: a bucket whose
   * location nobody chose, which no key's location is compared with.
   */
  autoCreateBuckets?: AutoCreateBuckets;
  /**
   * Where object files live, kept across restarts (next to a state file). Omitted: a fresh temporary
   * directory, removed by `close()`.
   */
  blobDir?: string;
}

/** The folder inside the blob directory for uploads in progress. */
export const UPLOADS = "uploads";

export const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
export const MAX_OBJECT_NAME_BYTES = 1024;
export const MAX_LIST_RESULTS = 1000;

export function checkBucketName(name: string): void {
  if (!BUCKET_NAME.test(name) || name.includes("..") || name.startsWith("goog")) {
    throw invalid(`Invalid bucket name: '${name}'`);
  }
}

export function checkObjectName(name: string): void {
  if (name.length === 0) throw invalid("Object name is required.", "required");
  if (
    Buffer.byteLength(name) > MAX_OBJECT_NAME_BYTES ||
    name === "." ||
    name === ".." ||
    /[\r\n]/.test(name)
  ) {
    throw invalid("The specified object name is not valid.");
  }
}

/** Reads `ifGenerationMatch` and friends from a query string. */
export function preconditionsFrom(read: (name: string) => number | undefined): Preconditions {
  return {
    ifGenerationMatch: read("ifGenerationMatch"),
    ifGenerationNotMatch: read("ifGenerationNotMatch"),
    ifMetagenerationMatch: read("ifMetagenerationMatch"),
    ifMetagenerationNotMatch: read("ifMetagenerationNotMatch"),
  };
}

/** Checks preconditions against the live object (absent: `undefined`); throws 412 when one fails. */
export function checkPreconditions(existing: StoredObject | undefined, pre: Preconditions): void {
  const generation = existing?.generation ?? 0;
  if (pre.ifGenerationMatch !== undefined && pre.ifGenerationMatch !== generation) {
    throw conditionNotMet("If-Match");
  }
  if (pre.ifGenerationNotMatch !== undefined && pre.ifGenerationNotMatch === generation) {
    throw conditionNotMet("If-Match");
  }
  if (pre.ifMetagenerationMatch !== undefined && pre.ifMetagenerationMatch !== existing?.metageneration) {
    throw conditionNotMet("If-Metageneration-Match");
  }
  if (
    pre.ifMetagenerationNotMatch !== undefined &&
    existing?.metageneration === pre.ifMetagenerationNotMatch
  ) {
    throw conditionNotMet("If-Metageneration-Match");
  }
}

export function encodeToken(kind: "n" | "p", after: string): string {
  return Buffer.from(`${kind}:${after}`, "utf8").toString("base64url");
}

export function decodeToken(token: string): { kind: "n" | "p"; after: string } {
  const text = Buffer.from(token, "base64url").toString("utf8");
  if (!/^[np]:/.test(text)) throw invalid("Invalid page token.", "invalidParameter");
  return { kind: text[0] as "n" | "p", after: text.slice(2) };
}
