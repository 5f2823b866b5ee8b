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
import type { IncomingMessage, ServerResponse } from "node:http";
import { Faults, type FaultRuleInput } from "./faults";
import {
  StorageApiError,
  invalid,
  notFound,
  parseJsonObject,
  readBody,
  sendError,
  sendJson,
  unavailable,
} from "./http";
import { CustomerKeys } from "./customer-keys";
import { StorageStore } from "./store";
import type { AutoCreateBuckets } from "./store-model";
import { UploadSessions } from "./uploads";
import { SignedUrlError, isSignedUrl, verifySignedUrl, type SigningAccount } from "./signed-urls";
import { listBuckets, insertBucket, getBucket, deleteBucket } from "./buckets";
import { RESPONDED, type Call, type Route } from "./call";
import { finishInsert, insert, uploadChunk, cancelUpload } from "./object-uploads";
import { deleteObject, getObject, list, media, patch } from "./objects";

export const ADMIN_PREFIX = "/emulator/v1";

/** A path of the XML API (`/<bucket>/<object>`), not of the JSON API or the admin API. */
function isXmlApiPath(pathname: string): boolean {
  return (
    !/^\/(storage\/v1|upload\/storage\/v1|download\/storage\/v1|b|emulator\/v1)(\/|$)/.test(pathname) &&
    /^\/[^/]+\/.+/.test(pathname)
  );
}

/**
 * The XML API's form of a JSON API error met by a signed read: a missing object, a range past the end, and
 * a customer-managed key that cannot be used (403 as `AccessDenied`, 400 as `InvalidArgument`, with the JSON
 * API's message: Google documents no XML form of the key errors).
 */
function xmlError(error: StorageApiError): unknown {
  if (error.code === 404) return new SignedUrlError(404, "NoSuchKey", "The specified key does not exist.");
  if (error.code === 416)
    return new SignedUrlError(416, "InvalidRange", "The requested range cannot be satisfied.");
  if (error.code === 403) return new SignedUrlError(403, "AccessDenied", error.message);
  if (error.code === 400) return new SignedUrlError(400, "InvalidArgument", error.message);
  return error;
}

export interface StorageEmulatorOptions {
  /** Create a bucket the first time a request names it instead of answering 404 (the local stack). */
  autoCreateBuckets?: AutoCreateBuckets;
  /** Where object files live, kept across restarts; omitted: a temporary directory (see `StorageStore`). */
  blobDir?: string;
  /** Service accounts whose V4 signed URLs are accepted (read on each signed request). None: every signed URL is refused. */
  signingAccounts?: () => SigningAccount[];
  /** The KMS emulator's URL (`http://127.0.0.1:8091`) for customer-managed keys; none: `kmsKeyName` fails. */
  kmsEndpoint?: string;
}

export class StorageEmulator {
  readonly store: StorageStore;
  readonly faults = new Faults();
  readonly uploads: UploadSessions;
  readonly keys: CustomerKeys;
  /**
   * Calls served, by operation id; inserts also by upload type (`storage.objects.insert:resumable`) and
   * session PUTs as `storage.objects.insert:chunk`.
   */
  readonly stats = new Map<string, number>();

  private readonly signingAccounts: () => SigningAccount[];

  constructor(options: StorageEmulatorOptions = {}) {
    this.signingAccounts = options.signingAccounts ?? (() => []);
    this.store = new StorageStore({ autoCreateBuckets: options.autoCreateBuckets, blobDir: options.blobDir });
    this.keys = new CustomerKeys(options.kmsEndpoint);
    this.uploads = new UploadSessions({
      uploadFile: () => this.store.uploadFile(),
      finish: (request, staged) => finishInsert(this, request, staged),
      dataKey: (encryption) => this.keys.dataKey(encryption),
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
        const fault = this.faults.take(route.operation, call.object);
        if (fault?.kind === "hold") await this.faults.holds.hold(fault.id);
        else if (fault?.kind === "reset") {
          request.socket.destroy();
          return;
        } else if (fault) {
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
        await media(this, call, contentType ?? undefined);
      } catch (error) {
        throw error instanceof StorageApiError ? xmlError(error) : error;
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
        return { operation: "storage.buckets.list", handler: () => listBuckets(this, call) };
      if (method === "POST")
        return { operation: "storage.buckets.insert", handler: () => insertBucket(this, call) };
      return undefined;
    }
    call.bucket = decode(segments[1] as string);
    if (segments.length === 2) {
      if (upload || download) return undefined;
      if (method === "GET") return { operation: "storage.buckets.get", handler: () => getBucket(this, call) };
      if (method === "DELETE")
        return { operation: "storage.buckets.delete", handler: () => deleteBucket(this, call) };
      return undefined;
    }
    if (segments[2] !== "o") return undefined;
    if (segments.length === 3 || (segments.length === 4 && segments[3] === "")) {
      if (upload) {
        if (method === "POST")
          return { operation: "storage.objects.insert", handler: () => insert(this, call) };
        if (method === "PUT")
          return { operation: "storage.objects.insert", handler: () => uploadChunk(this, call) };
        if (method === "DELETE")
          return { operation: "storage.objects.insert", handler: () => cancelUpload(this, call) };
        return undefined;
      }
      if (download) return undefined;
      if (method === "GET") return { operation: "storage.objects.list", handler: () => list(this, call) };
      return undefined;
    }
    if (upload) return undefined;
    call.object = decode(segments.slice(3).join("/"));
    if (download) {
      return method === "GET"
        ? { operation: "storage.objects.get", handler: () => media(this, call) }
        : undefined;
    }
    if (method === "GET") {
      return {
        operation: "storage.objects.get",
        handler: () => (call.query.get("alt") === "media" ? media(this, call) : getObject(this, call)),
      };
    }
    if (method === "PATCH") return { operation: "storage.objects.patch", handler: () => patch(this, call) };
    if (method === "DELETE")
      return { operation: "storage.objects.delete", handler: () => deleteObject(this, call) };
    return undefined;
  }

  /**
   * One fault rule: `DELETE /faults/{id}` removes it and lets the requests it holds go on;
   * `GET /faults/{id}/held?count=&withinMs=` answers once a hold rule has parked `count` requests (408
   * after `withinMs`, at most 120 s).
   */
  private faultRoute(method: string, id: string, held: boolean): Route | undefined {
    if (!held && method === "DELETE") {
      return {
        operation: "emulator.faults.remove",
        handler: () => {
          if (!this.faults.release(id)) throw notFound(`No fault ${id}`);
          return {};
        },
      };
    }
    if (!held || method !== "GET") return undefined;
    return {
      operation: "emulator.faults.held",
      handler: async (call) => {
        const count = Number(call.query.get("count") ?? "1");
        const withinMs = Number(call.query.get("withinMs") ?? "30000");
        if (!Number.isInteger(count) || count < 1) throw invalid("count must be a positive integer.");
        if (!Number.isInteger(withinMs) || withinMs < 0 || withinMs > 120_000)
          throw invalid("withinMs must be between 0 and 120000.");
        const parked = await this.faults.holds.held(id, count, withinMs);
        if (parked === undefined)
          throw new StorageApiError(408, `Fewer than ${count} requests held.`, "timeout");
        return { held: parked };
      },
    };
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
    const faultPath = /^\/faults\/([^/]+)(\/held)?$/.exec(path);
    if (faultPath)
      return this.faultRoute(method, decodeURIComponent(faultPath[1]!), faultPath[2] !== undefined);
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
}
