/**
 * The Cloud Storage emulator's dispatcher: the JSON API v1 paths the official `@google-cloud/storage`
 * client uses (buckets get/insert/list/delete; objects insert with media, multipart and resumable uploads,
 * get metadata or `alt=media` with `Range`, list, patch, delete) answered with Cloud Storage's JSON shapes
 * and error bodies, plus the emulator-only admin API (`/emulator/v1`: faults, reset). No authentication:
 * any bearer token, or none, is accepted.
 *
 * Paths are served with and without the `/storage/v1` prefix: the client puts it in front of `/b/...` when
 * given `apiEndpoint`, but not when it reads `STORAGE_EMULATOR_HOST`.
 *
 * Object bytes stay on disk (see `store.ts`): downloads stream from the object's file, resumable chunks
 * stream into the session's file.
 */
import { createReadStream, openSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { Faults, type FaultRuleInput } from "./faults";
import {
  MAX_BODY_BYTES,
  StorageApiError,
  intParam,
  invalid,
  notFound,
  parseJsonObject,
  rangeNotSatisfiable,
  readBody,
  required,
  sendError,
  sendJson,
  unavailable,
} from "./http";
import {
  MAX_LIST_RESULTS,
  StorageStore,
  preconditionsFrom,
  type StagedBlob,
  type StoredBucket,
  type StoredObject,
} from "./store";
import {
  UploadSessions,
  checksumsOf,
  decodeMultipart,
  parseGoogHash,
  verifyChecksums,
  type InsertRequest,
} from "./uploads";
import { SignedUrlError, isSignedUrl, verifySignedUrl, type SigningAccount } from "./signed-urls";

export const ADMIN_PREFIX = "/emulator/v1";

/** A path of the XML API (`/<bucket>/<object>`), not of the JSON API or the admin API. */
function isXmlApiPath(pathname: string): boolean {
  return (
    !/^\/(storage\/v1|upload\/storage\/v1|download\/storage\/v1|b|emulator\/v1)(\/|$)/.test(pathname) &&
    /^\/[^/]+\/.+/.test(pathname)
  );
}

interface Call {
  request: IncomingMessage;
  response: ServerResponse;
  query: URLSearchParams;
  /** `http://host:port` as the client addressed us (for `Location`, `selfLink`, `mediaLink`). */
  base: string;
  bucket?: string;
  object?: string;
}

/** A handler's JSON answer, or `RESPONDED` when it wrote the response itself. */
const RESPONDED = Symbol("responded");
type Handler = (call: Call) => Promise<unknown> | unknown;

interface Route {
  operation: string;
  handler: Handler;
}

export interface StorageEmulatorOptions {
  /** Create a bucket the first time a request names it instead of answering 404 (the local stack). */
  autoCreateBuckets?: boolean;
  /** Where object files live, kept across restarts; omitted: a temporary directory (see `StorageStore`). */
  blobDir?: string;
  /** Service accounts whose V4 signed URLs are accepted (read on each signed request). None: every signed URL is refused. */
  signingAccounts?: () => SigningAccount[];
}

export class StorageEmulator {
  readonly store: StorageStore;
  readonly faults = new Faults();
  readonly uploads: UploadSessions;
  /**
   * Calls served, by operation id; inserts also by upload type (`storage.objects.insert:resumable`) and
   * session PUTs as `storage.objects.insert:chunk`.
   */
  readonly stats = new Map<string, number>();

  private readonly signingAccounts: () => SigningAccount[];

  constructor(options: StorageEmulatorOptions = {}) {
    this.signingAccounts = options.signingAccounts ?? (() => []);
    this.store = new StorageStore({ autoCreateBuckets: options.autoCreateBuckets, blobDir: options.blobDir });
    this.uploads = new UploadSessions({
      uploadFile: () => this.store.uploadFile(),
      finish: (request, staged) => this.finishInsert(request, staged),
    });
  }

  /** Drops upload sessions and removes a temporary blob directory (the server's `stop`). */
  close(): void {
    this.uploads.clear();
    this.store.close();
  }

  readonly handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://storage.emulator");
    const method = request.method ?? "GET";
    const call: Call = {
      request,
      response,
      query: url.searchParams,
      base: `http://${request.headers.host ?? "127.0.0.1"}`,
    };
    if (isXmlApiPath(url.pathname)) {
      await this.signedDownload(call, method, url);
      return;
    }
    try {
      const route = this.route(method, url.pathname, call);
      if (!route) throw notFound(`Not Found: ${method} ${url.pathname}`);
      if (!route.operation.startsWith("emulator.")) {
        this.count(route.operation);
        if (route.operation === "storage.objects.insert") {
          this.count(
            `${route.operation}:${method === "POST" ? (call.query.get("uploadType") ?? "") : "chunk"}`,
          );
        }
        const fault = this.faults.take(route.operation);
        if (fault?.kind === "reset") {
          request.socket.destroy();
          return;
        }
        if (fault) {
          request.resume();
          throw new StorageApiError(fault.status, unavailable().message, "backendError");
        }
      }
      const result = await route.handler(call);
      if (result === RESPONDED) return;
      sendJson(response, 200, result ?? {});
    } catch (error) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (error instanceof StorageApiError) {
        sendError(response, error);
      } else {
        console.error("Storage emulator: request failed", error);
        sendError(response, new StorageApiError(500, "Internal error encountered.", "backendError"));
      }
    }
  };

  /**
   * The XML API's path-style object read (`GET /<bucket>/<object>`), served only to a valid V4 signed URL
   * (anonymous reads of a private bucket are refused, as Cloud Storage does). `response-content-disposition`
   * and `response-content-type` set the answer's headers.
   */
  private async signedDownload(call: Call, method: string, url: URL): Promise<void> {
    const sendXml = (error: SignedUrlError) => {
      call.response.writeHead(error.status, { "content-type": "application/xml; charset=UTF-8" });
      call.response.end(error.xml());
    };
    try {
      if (method !== "GET" || !isSignedUrl(call.query)) {
        throw new SignedUrlError(
          403,
          "AccessDenied",
          "Access denied.",
          "Anonymous caller does not have storage.objects.get access to the Google Cloud Storage object.",
        );
      }
      verifySignedUrl(call.request, url.pathname, call.query, this.signingAccounts);
      const [bucket, ...object] = url.pathname.slice(1).split("/");
      call.bucket = decodeURIComponent(bucket ?? "");
      call.object = decodeURIComponent(object.join("/"));
      this.count("storage.objects.get:signed");
      const disposition = call.query.get("response-content-disposition");
      const contentType = call.query.get("response-content-type");
      if (disposition) call.response.setHeader("content-disposition", disposition);
      try {
        await this.media(call, contentType ?? undefined);
      } catch (error) {
        if (error instanceof StorageApiError && error.code === 404) {
          throw new SignedUrlError(404, "NoSuchKey", "The specified key does not exist.");
        }
        throw error;
      }
    } catch (error) {
      if (call.response.headersSent) {
        call.response.destroy();
        return;
      }
      if (error instanceof SignedUrlError) sendXml(error);
      else if (error instanceof URIError)
        sendXml(new SignedUrlError(400, "InvalidURI", "Couldn't parse the specified URI."));
      else {
        console.error("Storage emulator: signed download failed", error);
        sendXml(
          new SignedUrlError(500, "InternalError", "We encountered an internal error. Please try again."),
        );
      }
    }
  }

  private count(key: string): void {
    this.stats.set(key, (this.stats.get(key) ?? 0) + 1);
  }

  /** Finds the route for a path; fills the call's bucket and object (decoded) on the way. */
  private route(method: string, pathname: string, call: Call): Route | undefined {
    if (pathname.startsWith(`${ADMIN_PREFIX}/`))
      return this.adminRoute(method, pathname.slice(ADMIN_PREFIX.length));
    let path = pathname;
    let upload = false;
    let download = false;
    if (path.startsWith("/upload/storage/v1/")) {
      upload = true;
      path = path.slice("/upload/storage/v1".length);
    } else if (path.startsWith("/download/storage/v1/")) {
      download = true;
      path = path.slice("/download/storage/v1".length);
    } else if (path.startsWith("/storage/v1/")) {
      path = path.slice("/storage/v1".length);
    }
    const segments = path.split("/").slice(1);
    if (segments[0] !== "b") return undefined;
    const decode = (text: string): string => {
      try {
        return decodeURIComponent(text);
      } catch {
        throw invalid("The request path is not valid.");
      }
    };
    if (segments.length === 1 || (segments.length === 2 && segments[1] === "")) {
      if (upload || download) return undefined;
      if (method === "GET")
        return { operation: "storage.buckets.list", handler: () => this.listBuckets(call) };
      if (method === "POST")
        return { operation: "storage.buckets.insert", handler: () => this.insertBucket(call) };
      return undefined;
    }
    call.bucket = decode(segments[1] as string);
    if (segments.length === 2) {
      if (upload || download) return undefined;
      if (method === "GET") return { operation: "storage.buckets.get", handler: () => this.getBucket(call) };
      if (method === "DELETE")
        return { operation: "storage.buckets.delete", handler: () => this.deleteBucket(call) };
      return undefined;
    }
    if (segments[2] !== "o") return undefined;
    if (segments.length === 3 || (segments.length === 4 && segments[3] === "")) {
      if (upload) {
        if (method === "POST")
          return { operation: "storage.objects.insert", handler: () => this.insert(call) };
        if (method === "PUT")
          return { operation: "storage.objects.insert", handler: () => this.uploadChunk(call) };
        if (method === "DELETE")
          return { operation: "storage.objects.insert", handler: () => this.cancelUpload(call) };
        return undefined;
      }
      if (download) return undefined;
      if (method === "GET") return { operation: "storage.objects.list", handler: () => this.list(call) };
      return undefined;
    }
    if (upload) return undefined;
    call.object = decode(segments.slice(3).join("/"));
    if (download) {
      return method === "GET"
        ? { operation: "storage.objects.get", handler: () => this.media(call) }
        : undefined;
    }
    if (method === "GET") {
      return {
        operation: "storage.objects.get",
        handler: () => (call.query.get("alt") === "media" ? this.media(call) : this.getObject(call)),
      };
    }
    if (method === "PATCH") return { operation: "storage.objects.patch", handler: () => this.patch(call) };
    if (method === "DELETE")
      return { operation: "storage.objects.delete", handler: () => this.deleteObject(call) };
    return undefined;
  }

  private adminRoute(method: string, path: string): Route | undefined {
    if (path === "/faults") {
      if (method === "GET")
        return { operation: "emulator.faults.list", handler: () => ({ faults: this.faults.list() }) };
      if (method === "POST") {
        return {
          operation: "emulator.faults.add",
          handler: async (call) => {
            const input = parseJsonObject(await readBody(call.request)) as FaultRuleInput;
            try {
              return this.faults.add(input);
            } catch (error) {
              throw invalid(error instanceof Error ? error.message : "Invalid fault rule.");
            }
          },
        };
      }
      if (method === "DELETE") {
        return {
          operation: "emulator.faults.clear",
          handler: () => {
            this.faults.clear();
            return {};
          },
        };
      }
    }
    if (path === "/stats" && method === "GET") {
      return { operation: "emulator.stats", handler: () => ({ calls: Object.fromEntries(this.stats) }) };
    }
    if (path === "/reset" && method === "POST") {
      return {
        operation: "emulator.reset",
        handler: () => {
          this.store.reset();
          this.faults.clear();
          this.uploads.clear();
          this.stats.clear();
          return {};
        },
      };
    }
    return undefined;
  }

  // Buckets

  private listBuckets(call: Call): unknown {
    if (!call.query.get("project")) throw required("project");
    const items = this.store.listBuckets().map((bucket) => bucketJson(bucket, call.base));
    return { kind: "storage#buckets", ...(items.length > 0 ? { items } : {}) };
  }

  private async insertBucket(call: Call): Promise<unknown> {
    if (!call.query.get("project")) throw required("project");
    const body = parseJsonObject(await readBody(call.request));
    if (typeof body.name !== "string" || body.name === "") throw required("name");
    const location = typeof body.location === "string" ? body.location : undefined;
    return bucketJson(this.store.createBucket(body.name, location), call.base);
  }

  private getBucket(call: Call): unknown {
    return bucketJson(this.store.bucket(call.bucket as string), call.base);
  }

  private deleteBucket(call: Call): unknown {
    this.store.deleteBucket(call.bucket as string);
    call.response.writeHead(204);
    call.response.end();
    return RESPONDED;
  }

  // Objects

  private preconditions(call: Call) {
    return preconditionsFrom((name) => intParam(call.query, name));
  }

  /** The live object, 404 when a `generation` other than the live one is asked for. */
  private liveObject(call: Call): StoredObject {
    const stored = this.store.object(call.bucket as string, call.object as string, this.preconditions(call));
    const generation = intParam(call.query, "generation");
    if (generation !== undefined && generation !== stored.generation) {
      throw notFound(`No such object: ${stored.bucket}/${stored.name}`);
    }
    return stored;
  }

  private getObject(call: Call): unknown {
    return objectJson(this.liveObject(call), call.base);
  }

  private async media(call: Call, contentType?: string): Promise<unknown> {
    const stored = this.liveObject(call);
    const size = stored.size;
    const headers: Record<string, string> = {
      "content-type": contentType ?? stored.contentType,
      "accept-ranges": "bytes",
      etag: etag(stored),
      "x-goog-generation": String(stored.generation),
      "x-goog-metageneration": String(stored.metageneration),
      "x-goog-hash": `crc32c=${stored.crc32c},md5=${stored.md5Hash}`,
      "x-goog-stored-content-encoding": "identity",
      "x-goog-stored-content-length": String(size),
    };
    const range = parseRange(call.request.headers.range, size);
    // Opened now, while `stored` is live: a later overwrite or delete cannot take the file from this read.
    const path = this.store.blobPath(stored);
    const fd = openSync(path, "r");
    const body = createReadStream(path, range ? { fd, start: range.start, end: range.end } : { fd });
    if (range) {
      call.response.writeHead(206, {
        ...headers,
        "content-range": `bytes ${range.start}-${range.end}/${size}`,
        "content-length": String(range.end - range.start + 1),
      });
    } else {
      call.response.writeHead(200, { ...headers, "content-length": String(size) });
    }
    await pipeline(body, call.response);
    return RESPONDED;
  }

  private list(call: Call): unknown {
    const maxResults = intParam(call.query, "maxResults");
    const result = this.store.list(call.bucket as string, {
      prefix: call.query.get("prefix") ?? undefined,
      delimiter: call.query.get("delimiter") ?? undefined,
      pageToken: call.query.get("pageToken") ?? undefined,
      maxResults: maxResults ?? MAX_LIST_RESULTS,
      startOffset: call.query.get("startOffset") ?? undefined,
      endOffset: call.query.get("endOffset") ?? undefined,
    });
    return {
      kind: "storage#objects",
      ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}),
      ...(result.prefixes.length > 0 ? { prefixes: result.prefixes } : {}),
      ...(result.items.length > 0 ? { items: result.items.map((item) => objectJson(item, call.base)) } : {}),
    };
  }

  private async patch(call: Call): Promise<unknown> {
    const body = parseJsonObject(await readBody(call.request));
    const contentType = body.contentType;
    if (contentType !== undefined && typeof contentType !== "string") throw invalid("Invalid contentType.");
    const stored = this.store.patch(
      call.bucket as string,
      call.object as string,
      {
        contentType,
        metadata: customMetadata(body.metadata, true) as Record<string, string | null> | undefined,
      },
      this.preconditions(call),
    );
    return objectJson(stored, call.base);
  }

  private deleteObject(call: Call): unknown {
    this.store.delete(call.bucket as string, call.object as string, this.preconditions(call));
    call.response.writeHead(204);
    call.response.end();
    return RESPONDED;
  }

  // Uploads

  private async insert(call: Call): Promise<unknown> {
    const uploadType = call.query.get("uploadType") ?? "";
    const headerType = call.request.headers["content-type"];
    const bucket = call.bucket as string;
    this.store.bucket(bucket);
    const request = (metadata: Record<string, unknown>, contentType: string | undefined): InsertRequest => {
      const name = call.query.get("name") ?? (typeof metadata.name === "string" ? metadata.name : "");
      if (!name) throw required("name");
      return {
        bucket,
        name,
        contentType: typeof metadata.contentType === "string" ? metadata.contentType : contentType,
        metadata: customMetadata(metadata.metadata, false) as Record<string, string> | undefined,
        preconditions: this.preconditions(call),
        expected: {
          crc32c: typeof metadata.crc32c === "string" ? metadata.crc32c : undefined,
          md5Hash: typeof metadata.md5Hash === "string" ? metadata.md5Hash : undefined,
        },
      };
    };
    if (uploadType === "media") {
      const insert = request({}, headerType);
      const data = await readBody(call.request, MAX_BODY_BYTES);
      const sums = checksumsOf(data);
      verifyChecksums(sums, parseGoogHash(header(call.request, "x-goog-hash")));
      this.store.insertable(insert.bucket, insert.name, insert.preconditions); // before writing the file
      return objectJson(this.finishInsert(insert, await this.store.stage(data, sums)), call.base);
    }
    if (uploadType === "multipart") {
      const body = await readBody(call.request, MAX_BODY_BYTES);
      const decoded = decodeMultipart(body, headerType ?? "");
      const insert = request(decoded.metadata, decoded.contentType);
      const sums = checksumsOf(decoded.data);
      verifyChecksums(sums, { ...insert.expected, ...parseGoogHash(header(call.request, "x-goog-hash")) });
      this.store.insertable(insert.bucket, insert.name, insert.preconditions);
      return objectJson(this.finishInsert(insert, await this.store.stage(decoded.data, sums)), call.base);
    }
    if (uploadType === "resumable") {
      const metadata = parseJsonObject(await readBody(call.request));
      const insert = request(metadata, header(call.request, "x-upload-content-type"));
      const declared = header(call.request, "x-upload-content-length");
      const total = declared === undefined ? undefined : Number(declared);
      if (total !== undefined && (!Number.isInteger(total) || total < 0)) {
        throw invalid("Invalid X-Upload-Content-Length.");
      }
      // Preconditions are checked when the session opens, and again when it completes.
      this.store.insertable(insert.bucket, insert.name, insert.preconditions);
      const id = this.uploads.open(insert, total);
      const location = new URL(`/upload/storage/v1/b/${encodeURIComponent(bucket)}/o`, call.base);
      location.searchParams.set("uploadType", "resumable");
      location.searchParams.set("name", insert.name);
      location.searchParams.set("upload_id", id);
      call.response.writeHead(200, {
        location: location.toString(),
        "x-guploader-uploadid": id,
        "content-length": "0",
      });
      call.response.end();
      return RESPONDED;
    }
    throw invalid(
      `Invalid upload type: '${uploadType}'. Use media, multipart or resumable.`,
      "invalidParameter",
    );
  }

  /** Makes a staged file the object (the store owns the file from here, even when this throws). */
  private finishInsert(insert: InsertRequest, staged: StagedBlob): StoredObject {
    return this.store.insert(insert.bucket, insert.name, staged, {
      contentType: insert.contentType,
      metadata: insert.metadata,
      preconditions: insert.preconditions,
    });
  }

  private async uploadChunk(call: Call): Promise<unknown> {
    const id = call.query.get("upload_id");
    if (!id) throw required("upload_id");
    // The body streams to the session's file: a chunk of any size, never read whole into memory.
    const answer = await this.uploads.put(
      id,
      header(call.request, "content-range"),
      call.request,
      header(call.request, "x-goog-hash"),
    );
    if ("incomplete" in answer) {
      const headers: Record<string, string> = { "content-length": "0", "x-guploader-uploadid": id };
      if (answer.incomplete > 0) headers.range = `bytes=0-${answer.incomplete - 1}`;
      call.response.writeHead(308, headers);
      call.response.end();
      return RESPONDED;
    }
    if ("error" in answer) throw answer.error;
    return objectJson(answer.object, call.base);
  }

  private cancelUpload(call: Call): unknown {
    const id = call.query.get("upload_id");
    if (!id) throw required("upload_id");
    this.uploads.cancel(id);
    call.response.writeHead(499, { "content-length": "0" });
    call.response.end();
    return RESPONDED;
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Custom metadata: string values (and `null` to remove a key, in a patch). */
function customMetadata(value: unknown, allowNull: boolean): Record<string, string | null> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw invalid("Invalid metadata: an object is required.");
  const out: Record<string, string | null> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null && allowNull) out[key] = null;
    else if (typeof entry === "string") out[key] = entry;
    else if (typeof entry === "number" || typeof entry === "boolean") out[key] = String(entry);
    else throw invalid(`Invalid metadata value for '${key}'.`);
  }
  return out;
}

/**
 * A single `Range: bytes=` range, clamped to the object; `undefined` serves the whole object (no header, a
 * header it does not understand, or an empty object); 416 when it starts past the end.
 */
export function parseRange(
  value: string | undefined,
  size: number,
): { start: number; end: number } | undefined {
  if (!value) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (size === 0) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) throw rangeNotSatisfiable();
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) throw rangeNotSatisfiable();
  if (end < start) return undefined;
  return { start, end };
}

function etag(stored: StoredObject): string {
  return Buffer.from(`${stored.generation}/${stored.metageneration}`).toString("base64");
}

function bucketJson(bucket: StoredBucket, base: string): Record<string, unknown> {
  return {
    kind: "storage#bucket",
    id: bucket.name,
    selfLink: `${base}/storage/v1/b/${encodeURIComponent(bucket.name)}`,
    projectNumber: "0",
    name: bucket.name,
    timeCreated: bucket.timeCreated,
    updated: bucket.timeCreated,
    metageneration: String(bucket.metageneration),
    location: bucket.location,
    locationType: "region",
    storageClass: "STANDARD",
    etag: "CAE=",
  };
}

/** An object resource as the JSON API answers it (numbers as strings, hashes in base64). */
export function objectJson(stored: StoredObject, base: string): Record<string, unknown> {
  const path = `b/${encodeURIComponent(stored.bucket)}/o/${encodeURIComponent(stored.name)}`;
  return {
    kind: "storage#object",
    id: `${stored.bucket}/${stored.name}/${stored.generation}`,
    selfLink: `${base}/storage/v1/${path}`,
    mediaLink: `${base}/download/storage/v1/${path}?generation=${stored.generation}&alt=media`,
    name: stored.name,
    bucket: stored.bucket,
    generation: String(stored.generation),
    metageneration: String(stored.metageneration),
    contentType: stored.contentType,
    storageClass: "STANDARD",
    size: String(stored.size),
    md5Hash: stored.md5Hash,
    crc32c: stored.crc32c,
    etag: etag(stored),
    timeCreated: stored.timeCreated,
    updated: stored.updated,
    timeStorageClassUpdated: stored.timeCreated,
    ...(Object.keys(stored.metadata).length > 0 ? { metadata: stored.metadata } : {}),
  };
}
