/**
 * Where the backup engine keeps its objects (chunks, manifests; docs/backup-format.md §1, §3): a flat,
 * write-once namespace of named byte strings. Cloud Storage in production (`gcs-blob-store.ts`, one bucket
 * per region; locally the same client against the Cloud Storage emulator), and an in-memory store for fast
 * tests (`memory-blob-store.ts`). Every implementation passes one conformance suite
 * (`tests/engine/blob-store-conformance.ts`).
 */
import type { Readable } from "node:stream";

/**
 * Why a blob store call failed:
 * - `not-found`: the object does not exist (get, createReadStream);
 * - `unavailable`: the store could not be reached or answered with a server error after retries — the run's
 *   "object storage unavailable";
 * - `precondition`: a write condition did not hold (never surfaced by `putIfAbsent`, which answers false);
 * - `invalid`: the request itself is wrong (a bad name, a range outside the object).
 */
export type BlobStoreErrorKind = "not-found" | "unavailable" | "precondition" | "invalid";

export class BlobStoreError extends Error {
  readonly kind: BlobStoreErrorKind;

  constructor(kind: BlobStoreErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BlobStoreError";
    this.kind = kind;
  }
}

export function isBlobStoreError(error: unknown, kind?: BlobStoreErrorKind): error is BlobStoreError {
  return error instanceof BlobStoreError && (kind === undefined || error.kind === kind);
}

/**
 * Part of an object: `length` bytes from `offset` (to the end when `length` is omitted). A range reaching past
 * the end is cut at the end; one starting at or past the end of a non-empty object is `invalid`.
 */
export interface ByteRange {
  offset: number;
  length?: number;
}

export interface ListOptions {
  /** From a previous page's `nextPageToken`. */
  pageToken?: string;
  /** At most this many names (the store may cap it; default and cap 1000). */
  maxResults?: number;
}

export interface ListPage {
  /** Object names starting with the prefix, in name order. */
  names: string[];
  /** Present when there are more names. */
  nextPageToken?: string;
}

export interface BlobStore {
  /**
   * Writes the object unless one with this name exists: true when written, false when it existed (nothing is
   * written, the stored content is unchanged). Objects are never overwritten.
   */
  putIfAbsent(name: string, body: Buffer): Promise<boolean>;
  /** The object's bytes (or a range of them); `not-found` when it does not exist. */
  get(name: string, range?: ByteRange): Promise<Buffer>;
  /** The object's bytes as a stream; a missing object makes the stream fail with `not-found`. */
  createReadStream(name: string, range?: ByteRange): Readable;
  exists(name: string): Promise<boolean>;
  /** One page of the names that start with `prefix`. */
  list(prefix: string, options?: ListOptions): Promise<ListPage>;
  /** Removes the object; a missing object is fine. */
  delete(name: string): Promise<void>;
}

/** Object names follow Cloud Storage's rules: 1–1024 bytes of UTF-8, no CR or LF, not "." or "..". */
export function checkBlobName(name: string): void {
  if (
    typeof name !== "string" ||
    name.length === 0 ||
    Buffer.byteLength(name) > 1024 ||
    name === "." ||
    name === ".." ||
    /[\r\n]/.test(name)
  ) {
    throw new BlobStoreError("invalid", "Invalid object name");
  }
}

export function checkRange(range: ByteRange | undefined): void {
  if (range === undefined) return;
  if (!Number.isSafeInteger(range.offset) || range.offset < 0) {
    throw new BlobStoreError("invalid", "A range offset is a non-negative integer");
  }
  if (range.length !== undefined && (!Number.isSafeInteger(range.length) || range.length < 1)) {
    throw new BlobStoreError("invalid", "A range length is a positive integer");
  }
}

export const MAX_LIST_RESULTS = 1000;

export function checkListOptions(options: ListOptions): number {
  const max = options.maxResults ?? MAX_LIST_RESULTS;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new BlobStoreError("invalid", "maxResults is a positive integer");
  return Math.min(max, MAX_LIST_RESULTS);
}
