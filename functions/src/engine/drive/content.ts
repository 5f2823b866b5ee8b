/**
 * A Drive file's content, streamed lazily: a blob file from `files.get alt=media` (from an offset with a
 * Range request), a Google file from one of its `exportLinks` (an authorised GET with the user's token),
 * a Google Vid through `files.download`, the long-running operation Drive downloads Vids with: started,
 * polled with `operations.get` (with backoff, on the run's clock) until done, then its `downloadUri` read
 * like an export link. Method ids: `drive.files.download`, `drive.files.exportLink`,
 * `drive.operations.get` and `drive.files.downloadUri` (see `../google/costs.ts`).
 */
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { drive_v3 } from "@googleapis/drive";
import type { Clock } from "../google/token-bucket";
import { googleReason, googleStatus } from "../sources/google-errors";
import { ItemGoneError, ItemNotReadError } from "../sources/source";
import type { DriveCall } from "./drive-files";

/** Error for a failed export-link GET, shaped like a googleapis error (`response.status`, `data`). */
class ExportLinkError extends Error {
  constructor(
    readonly status: number,
    readonly response: { status: number; data: unknown; headers: Record<string, string> },
  ) {
    super(`Export link answered ${status}`);
    this.name = "ExportLinkError";
  }
}

async function* buffers(stream: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
  }
}

/**
 * Streams a blob file's bytes (`alt=media`), from `offset` on with a Range request; a file Drive flags as
 * abusive is read acknowledging it. The runner checks the bytes against the metadata's md5 and size
 * (`FetchedItem.expected`).
 */
export async function* download(
  drive: drive_v3.Drive,
  call: DriveCall,
  fileId: string,
  offset = 0,
): AsyncGenerator<Buffer> {
  const get = (acknowledgeAbuse: boolean): Promise<{ data: unknown }> =>
    call("drive.files.download", () =>
      drive.files.get(
        {
          fileId,
          alt: "media",
          supportsAllDrives: true,
          ...(acknowledgeAbuse ? { acknowledgeAbuse } : {}),
        },
        { responseType: "stream", ...(offset > 0 ? { headers: { Range: `bytes=${offset}-` } } : {}) },
      ),
    );
  let response: { data: unknown };
  try {
    response = await get(false);
  } catch (error) {
    if (googleStatus(error) === 404) throw new ItemGoneError(fileId);
    if (googleReason(error) !== "cannotDownloadAbusiveFile") throw error;
    response = await get(true);
  }
  yield* buffers(response.data as Readable);
}

/** Fetches an export link or a download URI; a refusal becomes an `ExportLinkError` (read like Google's errors). */
async function getExportLink(link: string, token: string): Promise<Response> {
  const answer = await fetch(link, { headers: { authorization: `Bearer ${token}` } });
  if (!answer.ok) {
    const text = await answer.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      headers[key] = value;
    });
    throw new ExportLinkError(answer.status, { status: answer.status, data, headers });
  }
  return answer;
}

/** Streams an export link (an authorised GET with the user's token). */
export async function* exportLink(
  call: DriveCall,
  accessToken: () => Promise<string>,
  fileId: string,
  link: string,
): AsyncGenerator<Buffer> {
  const token = await accessToken();
  const response = await call("drive.files.exportLink", () => getExportLink(link, token)).catch(
    (error: unknown) => {
      if (googleStatus(error) === 404) throw new ItemGoneError(fileId);
      throw error;
    },
  );
  if (!response.body) return;
  yield* buffers(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>));
}

/** The types Drive serves a Vid's MP4 as: the export formats guide has read `application/mp4`. */
export const MP4_TYPES: readonly string[] = ["video/mp4", "application/mp4"];

/** First wait before polling a download operation again, its growth and its ceiling. */
const POLL_FIRST_MS = 1_000;
const POLL_MAX_MS = 30_000;
/**
 * A download operation not done after this long on the clock is given up (Drive keeps it 24 hours): the
 * Vid is recorded as not read and fetched again by the next run, the rest of the run goes on.
 */
const POLL_GIVE_UP_MS = 60 * 60 * 1000;

/**
 * Streams a Google Vid's MP4: `files.download` (its default format, a Vid's only one), `operations.get`
 * with backoff on `clock` until `done`, then the operation's `downloadUri` with the user's token. An
 * answer that is not MP4 (`MP4_TYPES`) is refused rather than kept under the wrong type.
 */
export async function* operationDownload(
  drive: drive_v3.Drive,
  call: DriveCall,
  accessToken: () => Promise<string>,
  clock: Clock,
  fileId: string,
): AsyncGenerator<Buffer> {
  const gone = (error: unknown): never => {
    if (googleStatus(error) === 404) throw new ItemGoneError(fileId);
    throw error;
  };
  let operation = (await call("drive.files.download", () => drive.files.download({ fileId })).catch(gone))
    .data;
  const name = operation.name ?? "";
  const started = clock.now();
  for (let wait = POLL_FIRST_MS; operation.done !== true; wait = Math.min(wait * 2, POLL_MAX_MS)) {
    if (!name) throw new ItemNotReadError(fileId, "download-operation-unnamed");
    if (clock.now() - started > POLL_GIVE_UP_MS)
      throw new ItemNotReadError(fileId, "download-operation-unfinished");
    await clock.sleep(wait);
    operation = (await call("drive.operations.get", () => drive.operations.get({ name }))).data;
  }
  if (operation.error) {
    throw new ItemNotReadError(fileId, `download-operation-failed-${operation.error.code ?? "unknown"}`);
  }
  const uri: unknown = operation.response?.downloadUri;
  if (typeof uri !== "string" || !uri) throw new ItemNotReadError(fileId, "download-operation-without-uri");
  const token = await accessToken();
  const response = await call("drive.files.downloadUri", () => getExportLink(uri, token)).catch(gone);
  const type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!MP4_TYPES.includes(type)) {
    await response.body?.cancel();
    throw new ItemNotReadError(fileId, "download-not-mp4");
  }
  if (!response.body) return;
  yield* buffers(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>));
}
