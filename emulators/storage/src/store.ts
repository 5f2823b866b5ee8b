/**
 * The emulator's state: buckets and their objects, each object with its bytes, generation, metageneration,
 * checksums and metadata. Only the live generation of an object is kept (buckets without versioning).
 * Preconditions, listing (prefix, delimiter, pages) and snapshots live here; HTTP lives in `emulator.ts`.
 */
import { conditionNotMet, conflict, invalid, notFound } from "./http";
import { crc32cBase64, md5Base64 } from "./crc32c";

export interface StoredObject {
  bucket: string;
  name: string;
  generation: number;
  metageneration: number;
  contentType: string;
  metadata: Record<string, string>;
  data: Buffer;
  md5Hash: string;
  crc32c: string;
  timeCreated: string;
  updated: string;
}

export interface StoredBucket {
  name: string;
  location: string;
  timeCreated: string;
  metageneration: number;
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

export interface StorageSnapshot {
  buckets: {
    name: string;
    location: string;
    timeCreated: string;
    objects: (Omit<StoredObject, "data"> & { data: string })[];
  }[];
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
const MAX_OBJECT_NAME_BYTES = 1024;
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

function encodeToken(kind: "n" | "p", after: string): string {
  return Buffer.from(`${kind}:${after}`, "utf8").toString("base64url");
}

function decodeToken(token: string): { kind: "n" | "p"; after: string } {
  const text = Buffer.from(token, "base64url").toString("utf8");
  if (!/^[np]:/.test(text)) throw invalid("Invalid page token.", "invalidParameter");
  return { kind: text[0] as "n" | "p", after: text.slice(2) };
}

export class StorageStore {
  private readonly buckets = new Map<string, StoredBucket>();
  private lastGeneration = 0;

  /** Creates buckets on first use instead of answering 404 (the local stack's mode). */
  constructor(private readonly autoCreateBuckets = false) {}

  private nextGeneration(): number {
    // Like Cloud Storage: microseconds since the epoch, strictly increasing.
    this.lastGeneration = Math.max(this.lastGeneration + 1, Date.now() * 1000);
    return this.lastGeneration;
  }

  createBucket(name: string, location = "US"): StoredBucket {
    checkBucketName(name);
    if (this.buckets.has(name)) {
      throw conflict("Your previous request to create the named bucket succeeded and you already own it.");
    }
    const bucket: StoredBucket = {
      name,
      location: location.toUpperCase(),
      timeCreated: new Date().toISOString(),
      metageneration: 1,
      objects: new Map(),
    };
    this.buckets.set(name, bucket);
    return bucket;
  }

  bucket(name: string): StoredBucket {
    const bucket = this.buckets.get(name);
    if (bucket) return bucket;
    if (this.autoCreateBuckets) return this.createBucket(name);
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

  /** Writes a new generation of an object (the preconditions are checked against the live one). */
  insert(
    bucketName: string,
    name: string,
    data: Buffer,
    options: { contentType?: string; metadata?: Record<string, string>; preconditions?: Preconditions },
  ): StoredObject {
    checkObjectName(name);
    const bucket = this.bucket(bucketName);
    checkPreconditions(bucket.objects.get(name), options.preconditions ?? {});
    const now = new Date().toISOString();
    const stored: StoredObject = {
      bucket: bucketName,
      name,
      generation: this.nextGeneration(),
      metageneration: 1,
      contentType: options.contentType ?? "application/octet-stream",
      metadata: options.metadata ?? {},
      data,
      md5Hash: md5Base64(data),
      crc32c: crc32cBase64(data),
      timeCreated: now,
      updated: now,
    };
    if (!bucket.objects.has(name)) bucket.sorted = undefined;
    bucket.objects.set(name, stored);
    return stored;
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
    this.object(bucketName, name, pre);
    bucket.objects.delete(name);
    bucket.sorted = undefined;
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

  reset(): void {
    this.buckets.clear();
  }

  snapshot(): StorageSnapshot {
    return {
      buckets: this.listBuckets().map((bucket) => ({
        name: bucket.name,
        location: bucket.location,
        timeCreated: bucket.timeCreated,
        objects: [...bucket.objects.values()].map((object) => ({
          ...object,
          data: object.data.toString("base64"),
        })),
      })),
    };
  }

  restore(snapshot: StorageSnapshot): void {
    this.buckets.clear();
    for (const saved of snapshot.buckets) {
      const objects = new Map<string, StoredObject>();
      for (const object of saved.objects) {
        objects.set(object.name, { ...object, data: Buffer.from(object.data, "base64") });
        this.lastGeneration = Math.max(this.lastGeneration, object.generation);
      }
      this.buckets.set(saved.name, {
        name: saved.name,
        location: saved.location,
        timeCreated: saved.timeCreated,
        metageneration: 1,
        objects,
      });
    }
  }
}
