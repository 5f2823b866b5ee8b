/**
 * A Drive file's content, streamed lazily: a blob file from `files.get alt=media` (from an offset with a
 * Range request), a Google file from one of its `exportLinks` (an authorised GET with the user's token).
 * Method ids: `drive.files.download` and `drive.files.exportLink` (they cost a download, see
 * `../google/costs.ts`).
 */
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { drive_v3 } from "@googleapis/drive";
import { googleReason, googleStatus } from "../sources/google-errors";
import { ItemGoneError } from "../sources/source";
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

/** Fetches an export link; a refusal becomes an `ExportLinkError` (read like Google's errors). */
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
