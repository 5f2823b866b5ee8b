/**
 * The BlobStore on Cloud Storage (one bucket per region, docs/backup-format.md §1) through the official
 * `@google-cloud/storage` client. Writes are `ifGenerationMatch=0` (a 412 means the object exists: nothing is
 * written, `putIfAbsent` answers false); objects above 8 MiB go through a resumable upload; whole reads
 * are checked against the object's CRC32C. The client retries 408/429/5xx and connection errors itself
 * (writes are retried because the precondition makes them idempotent); what still fails is mapped to a
 * `BlobStoreError`.
 *
 * With `apiEndpoint` (emulator mode) the client talks to that endpoint without credentials, the way the
 * library supports emulators; otherwise it uses the runtime's service account.
 */
import { PassThrough, type Readable } from "node:stream";
import { Storage, type Bucket, type DownloadOptions } from "@google-cloud/storage";
import type { RegionId } from "@alpvault/contracts/regions";
import {
  BlobStoreError,
  checkBlobName,
  checkListOptions,
  checkRange,
  type BlobStore,
  type ByteRange,
  type ListOptions,
  type ListPage,
} from "./blob-store";

/** The region's bucket (docs/backup-format.md §1): `alpvault-<project>-<region id>`. */
export function regionBucketName(projectId: string, regionId: RegionId): string {
  return `alpvault-${projectId}-${regionId}`;
}

/** Above this size an object is uploaded through a resumable session instead of one multipart request. */
export const RESUMABLE_THRESHOLD_BYTES = 8 * 1024 * 1024;

export interface GcsRetryOptions {
  /** Retries after the first attempt (library default 3; 0 turns the client's retries off). */
  maxRetries?: number;
  /** Cap of one wait between attempts, in seconds (library default 64; at least 1). */
  maxRetryDelaySeconds?: number;
  /** Give up retrying after this many seconds overall (library default 600). */
  totalTimeoutSeconds?: number;
}

export interface GcsBlobStoreOptions {
  bucket: string;
  projectId: string;
  /** The Cloud Storage emulator's URL (`http://127.0.0.1:8092`); omitted in production. */
  apiEndpoint?: string;
  retry?: GcsRetryOptions;
  /**
   * The key that signs download links against the emulator (the emulator checks the signature with its
   * public half). Production signs as the runtime's service account (IAM signBlob), with no key here.
   */
  signer?: { client_email: string; private_key: string };
}

export class GcsBlobStore implements BlobStore {
  readonly bucket: Bucket;
  private readonly storage: Storage;
  private readonly emulated: boolean;

  constructor(options: GcsBlobStoreOptions) {
    this.emulated = options.apiEndpoint !== undefined;
    const storage = new Storage({
      projectId: options.projectId,
      ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint, useAuthWithCustomEndpoint: false } : {}),
      ...(options.signer ? { credentials: options.signer } : {}),
      retryOptions: {
        autoRetry: options.retry?.maxRetries !== 0,
        ...(options.retry?.maxRetries ? { maxRetries: options.retry.maxRetries } : {}),
        ...(options.retry?.maxRetryDelaySeconds !== undefined
          ? { maxRetryDelay: Math.max(1, options.retry.maxRetryDelaySeconds) }
          : {}),
        ...(options.retry?.totalTimeoutSeconds !== undefined
          ? { totalTimeout: options.retry.totalTimeoutSeconds }
          : {}),
      },
    });
    this.storage = storage;
    this.bucket = storage.bucket(options.bucket);
  }

  /** Where resumable uploads of this bucket go, with the runtime's token (none against the emulator). */
  uploadTarget(): { endpoint: string; bucket: string; token(): Promise<string | undefined> } {
    return {
      endpoint: this.storage.apiEndpoint.replace(/\/+$/, ""),
      bucket: this.bucket.name,
      token: async () =>
        this.emulated ? undefined : ((await this.storage.authClient.getAccessToken()) ?? undefined),
    };
  }

  /** A V4 signed link that reads `name` until `expires`, saved under `fileName`. */
  async signedReadUrl(name: string, expires: Date, fileName: string): Promise<string> {
    checkBlobName(name);
    try {
      const [url] = await this.bucket.file(name).getSignedUrl({
        version: "v4",
        action: "read",
        expires,
        responseDisposition: `attachment; filename="${fileName.replace(/["\\]/g, "_")}"`,
      });
      return url;
    } catch (error) {
      throw toBlobStoreError(error);
    }
  }

  async putIfAbsent(name: string, body: Buffer): Promise<boolean> {
    checkBlobName(name);
    try {
      await this.bucket.file(name).save(body, {
        preconditionOpts: { ifGenerationMatch: 0 },
        resumable: body.length > RESUMABLE_THRESHOLD_BYTES,
        validation: "crc32c",
        contentType: "application/octet-stream",
      });
      return true;
    } catch (error) {
      const mapped = toBlobStoreError(error);
      if (mapped.kind === "precondition") return false;
      throw mapped;
    }
  }

  async get(name: string, range?: ByteRange): Promise<Buffer> {
    checkBlobName(name);
    checkRange(range);
    try {
      const [data] = await this.bucket.file(name).download(downloadOptions(range));
      return data;
    } catch (error) {
      throw toBlobStoreError(error);
    }
  }

  createReadStream(name: string, range?: ByteRange): Readable {
    const out = new PassThrough();
    try {
      checkBlobName(name);
      checkRange(range);
    } catch (error) {
      process.nextTick(() => out.destroy(error as Error));
      return out;
    }
    const source = this.bucket.file(name).createReadStream(downloadOptions(range));
    source.on("error", (error) => out.destroy(toBlobStoreError(error)));
    out.on("close", () => {
      if (!source.destroyed) source.destroy();
    });
    source.pipe(out);
    return out;
  }

  async exists(name: string): Promise<boolean> {
    checkBlobName(name);
    try {
      const [found] = await this.bucket.file(name).exists();
      return found;
    } catch (error) {
      throw toBlobStoreError(error);
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListPage> {
    const maxResults = checkListOptions(options);
    try {
      const [files, nextQuery] = await this.bucket.getFiles({
        ...(prefix ? { prefix } : {}),
        maxResults,
        ...(options.pageToken ? { pageToken: options.pageToken } : {}),
        autoPaginate: false,
      });
      const next = (nextQuery as { pageToken?: unknown } | null | undefined)?.pageToken;
      return {
        names: files.map((file) => file.name),
        ...(typeof next === "string" && next ? { nextPageToken: next } : {}),
      };
    } catch (error) {
      throw toBlobStoreError(error);
    }
  }

  async delete(name: string): Promise<void> {
    checkBlobName(name);
    try {
      await this.bucket.file(name).delete({ ignoreNotFound: true });
    } catch (error) {
      throw toBlobStoreError(error);
    }
  }
}

function downloadOptions(range: ByteRange | undefined): DownloadOptions {
  if (!range) return { validation: "crc32c" };
  // Range reads cannot be checked against the whole object's checksum; the engine checks each chunk's tag.
  return {
    start: range.offset,
    ...(range.length !== undefined ? { end: range.offset + range.length - 1 } : {}),
  };
}

const CONNECTION_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ERR_STREAM_PREMATURE_CLOSE",
]);

/** The HTTP status an error from the client carries, if any. */
function httpStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const record = error as { code?: unknown; status?: unknown; response?: { status?: unknown } };
  for (const candidate of [record.code, record.status, record.response?.status]) {
    if (typeof candidate === "number" && candidate >= 100 && candidate <= 599) return candidate;
    if (typeof candidate === "string" && /^\d{3}$/.test(candidate)) return Number(candidate);
  }
  return undefined;
}

/**
 * Classifies what the client threw: 404 → not-found, 412 → precondition, other 4xx of the request → invalid,
 * and everything that means "the store cannot serve us now" (5xx, 408, 429, 401/403 on our own bucket,
 * connection errors, a transfer that failed its checksum) → unavailable.
 */
export function toBlobStoreError(error: unknown): BlobStoreError {
  if (error instanceof BlobStoreError) return error;
  const status = httpStatus(error);
  const options = { cause: error };
  if (status === 404) return new BlobStoreError("not-found", "No such object", options);
  if (status === 412) return new BlobStoreError("precondition", "The object exists already", options);
  if (status !== undefined && status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)) {
    return new BlobStoreError("invalid", `Cloud Storage rejected the request (HTTP ${status})`, options);
  }
  if (status !== undefined) {
    return new BlobStoreError("unavailable", `Cloud Storage is unavailable (HTTP ${status})`, options);
  }
  const code = (error as { code?: unknown } | null)?.code;
  const detail =
    typeof code === "string" && (CONNECTION_CODES.has(code) || /^[A-Z_]+$/.test(code)) ? code : "error";
  return new BlobStoreError("unavailable", `Cloud Storage is unavailable (${detail})`, options);
}
