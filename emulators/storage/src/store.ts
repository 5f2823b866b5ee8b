/**
 * The emulator's state: buckets and their objects, each object with its generation, metageneration,
 * checksums, metadata and size. Only the live generation of an object is kept (buckets without versioning).
 * Preconditions, listing (prefix, delimiter, pages) and snapshots live here (the shapes and rules in
 * `store-model.ts`); HTTP lives in `emulator.ts`.
 *
 * Object bytes live in files, never in memory: one file per object in the blob directory, named after the
 * object's generation (unique across the store). Uploads are written to `uploads/` inside it first (a whole
 * media body, or a resumable session appending chunk by chunk) and renamed into place when they complete.
 *
 * A persistent store (given a blob directory: the one next to a state file) keeps the file of an
 * overwritten or deleted object until the next save (`saved()`), because the state file on disk may still
 * name it; `removeOrphanBlobs()` at start removes files the restored state does not name. A temporary store
 * (no blob directory: tests) works in a fresh directory under the OS temp dir, deletes files at once, and
 * removes the directory on `close()` (and empties it on `reset()`).
 */
import { randomBytes } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conflict, invalid, notFound } from "./http";
import { crc32cBase64, md5Base64 } from "./crc32c";
import { sealAll } from "./sealed-blobs";
import {
  type ListOptions,
  type ListResult,
  MAX_LIST_RESULTS,
  type AutoCreateBuckets,
  type Preconditions,
  type StagedBlob,
  type StorageSnapshot,
  type StorageStoreOptions,
  type StoredBucket,
  type StoredObject,
  UPLOADS,
  checkBucketName,
  checkObjectName,
  checkPreconditions,
  decodeToken,
  encodeToken,
} from "./store-model";

export class StorageStore {
  private readonly buckets = new Map<string, StoredBucket>();
  private lastGeneration = 0;
  private readonly autoCreateBuckets: AutoCreateBuckets;
  /** Where object files live. */
  readonly blobDir: string;
  /** Whether the blob directory is the store's own temporary one (no state file). */
  readonly temporary: boolean;
  /** Blob files no live object names any more, kept until the next save (a persistent store only). */
  private readonly unlinkAfterSave = new Set<string>();

  constructor(options: StorageStoreOptions = {}) {
    this.autoCreateBuckets = options.autoCreateBuckets ?? false;
    this.temporary = options.blobDir === undefined;
    this.blobDir = options.blobDir ?? mkdtempSync(join(tmpdir(), "alpvault-storage-"));
    mkdirSync(join(this.blobDir, UPLOADS), { recursive: true });
  }

  private nextGeneration(): number {
    // Like Cloud Storage: microseconds since the epoch, strictly increasing.
    this.lastGeneration = Math.max(this.lastGeneration + 1, Date.now() * 1000);
    return this.lastGeneration;
  }

  createBucket(
    name: string,
    location = "US",
    options: Pick<StoredBucket, "defaultKmsKeyName" | "autoCreated"> = {},
  ): StoredBucket {
    checkBucketName(name);
    if (this.buckets.has(name)) {
      throw conflict("Your previous request to create the named bucket succeeded and you already own it.");
    }
    const bucket: StoredBucket = {
      name,
      location: location.toUpperCase(),
      timeCreated: new Date().toISOString(),
      metageneration: 1,
      ...options,
      objects: new Map(),
    };
    this.buckets.set(name, bucket);
    return bucket;
  }

  bucket(name: string): StoredBucket {
    const bucket = this.buckets.get(name);
    if (bucket) return bucket;
    const location = typeof this.autoCreateBuckets === "function" ? this.autoCreateBuckets(name) : undefined;
    if (location !== undefined) return this.createBucket(name, location);
    if (this.autoCreateBuckets) return this.createBucket(name, undefined, { autoCreated: true });
    throw notFound("The specified bucket does not exist.");
  }

  listBuckets(): StoredBucket[] {
    return [...this.buckets.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  deleteBucket(name: string): void {
    const bucket = this.bucket(name);
    if (bucket.objects.size > 0) throw conflict("The bucket you tried to delete is not empty.");
    this.buckets.delete(name);
  }

  object(bucketName: string, name: string, pre: Preconditions = {}): StoredObject {
    checkObjectName(name);
    const found = this.bucket(bucketName).objects.get(name);
    if (!found) throw notFound(`No such object: ${bucketName}/${name}`);
    checkPreconditions(found, pre);
    return found;
  }

  /** Throws what an insert of this name would throw now (a resumable session checks it when it opens). */
  insertable(bucketName: string, name: string, pre: Preconditions): void {
    checkObjectName(name);
    checkPreconditions(this.bucket(bucketName).objects.get(name), pre);
  }

  /** The path of an object's blob file. */
  blobPath(stored: StoredObject): string {
    return join(this.blobDir, stored.blob);
  }

  /** An object's bytes, read from its file (tests and tools; the emulator streams downloads instead). */
  bytes(bucketName: string, name: string): Buffer {
    return readFileSync(this.blobPath(this.object(bucketName, name)));
  }

  /** A fresh path under `uploads/` for bytes on their way in (a resumable session's file). */
  uploadFile(): string {
    return join(this.blobDir, UPLOADS, randomBytes(12).toString("hex"));
  }

  /**
   * Writes a body (a media or multipart upload) to a fresh upload file, ready for `insert`; with a data key,
   * sealed (`sealed-blobs.ts`): the plaintext never reaches the disk.
   */
  async stage(
    data: Buffer,
    sums?: { md5Hash: string; crc32c: string },
    dataKey?: Buffer,
  ): Promise<StagedBlob> {
    const file = this.uploadFile();
    await writeFile(file, dataKey ? sealAll(dataKey, data) : data, { mode: 0o600 });
    return {
      file,
      size: data.length,
      md5Hash: sums?.md5Hash ?? md5Base64(data),
      crc32c: sums?.crc32c ?? crc32cBase64(data),
    };
  }

  /** Removes an upload file that will not become an object. */
  discard(file: string): void {
    rmSync(file, { force: true });
  }

  /**
   * Writes a new generation of an object from a staged file (the preconditions are checked against the
   * live one). The staged file becomes the store's: moved into place, or removed when the insert throws.
   */
  insert(
    bucketName: string,
    name: string,
    staged: StagedBlob,
    options: Pick<StoredObject, "encryption"> & {
      contentType?: string;
      metadata?: Record<string, string>;
      preconditions?: Preconditions;
    },
  ): StoredObject {
    let bucket: StoredBucket;
    let previous: StoredObject | undefined;
    try {
      checkObjectName(name);
      bucket = this.bucket(bucketName);
      previous = bucket.objects.get(name);
      checkPreconditions(previous, options.preconditions ?? {});
    } catch (error) {
      this.discard(staged.file);
      throw error;
    }
    const generation = this.nextGeneration();
    const blob = String(generation);
    renameSync(staged.file, join(this.blobDir, blob));
    const now = new Date().toISOString();
    const stored: StoredObject = {
      bucket: bucketName,
      name,
      generation,
      metageneration: 1,
      contentType: options.contentType ?? "application/octet-stream",
      metadata: options.metadata ?? {},
      size: staged.size,
      blob,
      md5Hash: staged.md5Hash,
      crc32c: staged.crc32c,
      timeCreated: now,
      updated: now,
      ...(options.encryption ? { encryption: options.encryption } : {}),
    };
    if (!previous) bucket.sorted = undefined;
    bucket.objects.set(name, stored);
    if (previous) this.release(previous);
    return stored;
  }

  /** An object's file is no longer live: gone now (temporary store) or after the next save. */
  private release(stored: StoredObject): void {
    if (this.temporary) rmSync(this.blobPath(stored), { force: true });
    else this.unlinkAfterSave.add(stored.blob);
  }

  /** A metadata change: same generation, next metageneration. */
  patch(
    bucketName: string,
    name: string,
    change: { contentType?: string; metadata?: Record<string, string | null> },
    pre: Preconditions,
  ): StoredObject {
    const stored = this.object(bucketName, name, pre);
    if (change.contentType !== undefined) stored.contentType = change.contentType;
    if (change.metadata) {
      for (const [key, value] of Object.entries(change.metadata)) {
        if (value === null) delete stored.metadata[key];
        else stored.metadata[key] = value;
      }
    }
    stored.metageneration += 1;
    stored.updated = new Date().toISOString();
    return stored;
  }

  delete(bucketName: string, name: string, pre: Preconditions): void {
    const bucket = this.bucket(bucketName);
    const stored = this.object(bucketName, name, pre);
    bucket.objects.delete(name);
    bucket.sorted = undefined;
    this.release(stored);
  }

  /** Objects in name order; with a delimiter, names past it collapse into `prefixes`. */
  list(bucketName: string, options: ListOptions): ListResult {
    const bucket = this.bucket(bucketName);
    bucket.sorted ??= [...bucket.objects.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const prefix = options.prefix ?? "";
    const delimiter = options.delimiter ?? "";
    const max = Math.min(options.maxResults ?? MAX_LIST_RESULTS, MAX_LIST_RESULTS);
    if (max < 1) throw invalid("maxResults must be positive.", "invalidParameter");
    const token = options.pageToken ? decodeToken(options.pageToken) : undefined;

    const items: StoredObject[] = [];
    const prefixes: string[] = [];
    let last: { kind: "n" | "p"; value: string } | undefined;
    for (const name of bucket.sorted) {
      if (!name.startsWith(prefix)) {
        if (name > prefix) break;
        continue;
      }
      if (options.startOffset !== undefined && name < options.startOffset) continue;
      if (options.endOffset !== undefined && name >= options.endOffset) break;
      if (token) {
        if (name <= token.after) continue;
        if (token.kind === "p" && name.startsWith(token.after)) continue;
      }
      let entry: { kind: "n" | "p"; value: string } = { kind: "n", value: name };
      if (delimiter) {
        const at = name.indexOf(delimiter, prefix.length);
        if (at >= 0) entry = { kind: "p", value: name.slice(0, at + delimiter.length) };
      }
      if (entry.kind === "p" && last?.kind === "p" && last.value === entry.value) continue;
      if (items.length + prefixes.length === max) {
        return { items, prefixes, nextPageToken: last ? encodeToken(last.kind, last.value) : undefined };
      }
      if (entry.kind === "p") prefixes.push(entry.value);
      else items.push(bucket.objects.get(name) as StoredObject);
      last = entry;
    }
    return { items, prefixes };
  }

  /**
   * Forgets every bucket and object. A temporary store empties its directory; a persistent one keeps the
   * files until the next save (the state file on disk still names them).
   */
  reset(): void {
    for (const bucket of this.buckets.values()) {
      for (const stored of bucket.objects.values()) this.unlinkAfterSave.add(stored.blob);
    }
    this.buckets.clear();
    if (this.temporary) {
      this.unlinkAfterSave.clear();
      rmSync(this.blobDir, { recursive: true, force: true });
      mkdirSync(join(this.blobDir, UPLOADS), { recursive: true });
    }
  }

  /** Removes a temporary store's directory (a persistent store's files stay). */
  close(): void {
    if (this.temporary) rmSync(this.blobDir, { recursive: true, force: true });
  }

  /** The state to save: metadata only, each object naming its blob file. */
  snapshot(): StorageSnapshot {
    return {
      // A bucket's settings as they are (name, location, default key...), without its in-memory indexes.
      buckets: this.listBuckets().map(
        ({ objects, sorted: _sorted, metageneration: _metageneration, ...bucket }) => ({
          ...bucket,
          objects: [...objects.values()].map((object) => ({ ...object, metadata: { ...object.metadata } })),
        }),
      ),
    };
  }

  /** Called once a snapshot is safely on disk: the files it no longer names can go. */
  saved(): void {
    for (const blob of this.unlinkAfterSave) rmSync(join(this.blobDir, blob), { force: true });
    this.unlinkAfterSave.clear();
  }

  /**
   * Restores saved state. Objects of older state files carry their bytes inline: they are written to blob
   * files. An object whose blob file is missing is left out, with a warning.
   */
  restore(snapshot: StorageSnapshot): void {
    this.buckets.clear();
    for (const saved of snapshot.buckets) {
      const objects = new Map<string, StoredObject>();
      for (const object of saved.objects) {
        let stored: StoredObject;
        if ("data" in object) {
          const { data, ...rest } = object;
          const bytes = Buffer.from(data, "base64");
          const blob = String(object.generation);
          writeFileSync(join(this.blobDir, blob), bytes, { mode: 0o600 });
          stored = { ...rest, size: bytes.length, blob };
        } else {
          stored = { ...object };
          if (!/^\w+$/.test(stored.blob) || !existsFile(join(this.blobDir, stored.blob))) {
            console.warn(
              `Storage emulator: ${saved.name}/${stored.name} left out: its file ${stored.blob} is missing`,
            );
            continue;
          }
        }
        objects.set(stored.name, stored);
        this.lastGeneration = Math.max(this.lastGeneration, stored.generation);
      }
      this.buckets.set(saved.name, { ...saved, metageneration: 1, objects });
    }
  }

  /**
   * Removes what no live object names from the blob directory: files of objects written or replaced after
   * the last save, and leftovers of uploads in progress. Run at start, after `restore`. Answers how many
   * files went.
   */
  removeOrphanBlobs(): number {
    const live = new Set<string>();
    for (const bucket of this.buckets.values()) {
      for (const stored of bucket.objects.values()) live.add(stored.blob);
    }
    let removed = 0;
    for (const entry of readdirSync(this.blobDir, { withFileTypes: true })) {
      if (entry.name === UPLOADS && entry.isDirectory()) {
        for (const upload of readdirSync(join(this.blobDir, UPLOADS))) {
          rmSync(join(this.blobDir, UPLOADS, upload), { recursive: true, force: true });
          removed += 1;
        }
      } else if (!live.has(entry.name)) {
        rmSync(join(this.blobDir, entry.name), { recursive: true, force: true });
        removed += 1;
      }
    }
    this.unlinkAfterSave.clear();
    return removed;
  }
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
