/**
 * One object written through Cloud Storage's resumable upload protocol (JSON API), across many task
 * deliveries: the session opens once (`POST …/upload/storage/v1/b/{bucket}/o?uploadType=resumable`, its
 * URI in `Location`), each request sends a multiple of 256 KiB (`Content-Range: bytes a-b/*`, answered
 * `308` with the `Range` persisted), and the last one gives the total. A session lives a week, so an
 * export's file grows over several deliveries and a crash loses nothing the bucket has confirmed.
 * https://cloud.google.com/storage/docs/performing-resumable-uploads
 */

/** Cloud Storage takes a resumable upload's bytes in multiples of this (except the last request). */
export const UPLOAD_BLOCK = 256 * 1024;

export interface UploadTarget {
  /** `https://storage.googleapis.com`, or the emulator's URL. */
  endpoint: string;
  bucket: string;
  /** A bearer token for the request (undefined against the emulator). */
  token(): Promise<string | undefined>;
}

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

async function headers(target: UploadTarget, extra: Record<string, string>): Promise<Record<string, string>> {
  const token = await target.token();
  return { ...extra, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
}

const ATTEMPTS = 5;

/** Retries a request on 408, 429, 5xx and connection errors, with backoff. */
async function send(request: () => Promise<Response>): Promise<Response> {
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(8000, 250 * 2 ** attempt)));
    try {
      const response = await request();
      if (response.status === 408 || response.status === 429 || response.status >= 500) {
        lastError = new UploadError(`Cloud Storage answered ${response.status}`, response.status);
        await response.body?.cancel();
        continue;
      }
      return response;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new UploadError("Cloud Storage could not be reached");
}

/**
 * Opens a session for `name`; its URI is what later requests (and later deliveries) use. With a
 * `kmsKeyName`, Cloud Storage encrypts the object under that Cloud KMS key (customer-managed encryption:
 * https://cloud.google.com/storage/docs/encryption/using-customer-managed-keys) and reads it only while
 * the key version it used is enabled.
 */
export async function openUploadSession(
  target: UploadTarget,
  name: string,
  metadata: { contentType: string; contentDisposition?: string },
  kmsKeyName?: string,
): Promise<string> {
  const query = new URLSearchParams({ uploadType: "resumable", name, ...(kmsKeyName ? { kmsKeyName } : {}) });
  const url = `${target.endpoint}/upload/storage/v1/b/${encodeURIComponent(target.bucket)}/o?${query.toString()}`;
  const response = await send(async () =>
    fetch(url, {
      method: "POST",
      headers: await headers(target, {
        "Content-Type": "application/json; charset=UTF-8",
        "X-Upload-Content-Type": metadata.contentType,
      }),
      body: JSON.stringify({ name, ...metadata }),
      signal: AbortSignal.timeout(60_000),
    }),
  );
  const location = response.headers.get("location");
  await response.body?.cancel();
  if (response.status !== 200 || !location) {
    throw new UploadError(
      `Cloud Storage did not open an upload session (${response.status})`,
      response.status,
    );
  }
  return location;
}

/** The bytes the session holds (`Range: bytes=0-n` of a 308), or "complete" when it has finished. */
export async function uploadedBytes(target: UploadTarget, session: string): Promise<number | "complete"> {
  const response = await send(async () =>
    fetch(session, {
      method: "PUT",
      headers: await headers(target, { "Content-Range": "bytes */*" }),
      signal: AbortSignal.timeout(60_000),
    }),
  );
  await response.body?.cancel();
  if (response.status === 200 || response.status === 201) return "complete";
  if (response.status !== 308) {
    throw new UploadError(`The upload session answered ${response.status}`, response.status);
  }
  return persisted(response);
}

function persisted(response: Response): number {
  const range = /^bytes=0-(\d+)$/.exec(response.headers.get("range") ?? "");
  return range ? Number(range[1]) + 1 : 0;
}

/**
 * Sends `body` at `offset`; with `total` it is the last request and completes the object. Answers the
 * bytes the session now holds; anything other than all of them is an error (the export starts over).
 */
export async function uploadPart(
  target: UploadTarget,
  session: string,
  offset: number,
  body: Buffer,
  total?: number,
): Promise<number> {
  if (total === undefined && body.length % UPLOAD_BLOCK !== 0) {
    throw new UploadError("A resumable upload's request must be a multiple of 256 KiB");
  }
  const end = offset + body.length - 1;
  const range =
    body.length === 0
      ? `bytes */${total ?? "*"}`
      : `bytes ${offset}-${end}/${total === undefined ? "*" : total}`;
  const response = await send(async () =>
    fetch(session, {
      method: "PUT",
      headers: await headers(target, { "Content-Range": range }),
      // A Buffer is a Uint8Array: sent as it is, without a copy.
      body: body as Uint8Array<ArrayBuffer>,
      signal: AbortSignal.timeout(300_000),
    }),
  );
  const text = response.status === 308 ? "" : await response.text();
  if (total !== undefined) {
    if (response.status !== 200 && response.status !== 201) {
      throw new UploadError(
        `The upload's last request answered ${response.status}: ${text.slice(0, 200)}`,
        response.status,
      );
    }
    return total;
  }
  if (response.status !== 308) {
    throw new UploadError(`The upload answered ${response.status}: ${text.slice(0, 200)}`, response.status);
  }
  const held = persisted(response);
  if (held !== offset + body.length) {
    throw new UploadError(`The upload session holds ${held} bytes, not ${offset + body.length}`);
  }
  return held;
}
