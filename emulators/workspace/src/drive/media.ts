/**
 * Content answers: who may read a file's bytes (download restrictions, download quota), and sending them
 * with `Range` (206 and `Content-Range`, 416 when unsatisfiable) as a stream with backpressure, so a file of
 * many GiB passes through in small chunks.
 */
import type { Readable } from "node:stream";
import { pipeline } from "node:stream";
import { RESPONDED, type RequestContext } from "../http";
import { rangeNotSatisfiable } from "./errors";
import { ROLE_RANK, type Access, type StoredFile } from "./store-model";

/**
 * Whether the caller's role may not download, print or copy the file: `copyRequiresWriterPermission` and
 * `restrictedForReaders` stop readers and commenters; `restrictedForWriters` stops writers and content
 * managers as well (owners and managers keep access).
 */
export function contentRestricted(file: StoredFile, access: Access): boolean {
  const rank = ROLE_RANK[access.role];
  if (file.copyRequiresWriterPermission && rank < ROLE_RANK.writer) return true;
  if (file.downloadRestriction?.restrictedForReaders && rank < ROLE_RANK.writer) return true;
  if (file.downloadRestriction?.restrictedForWriters && rank < ROLE_RANK.organizer) return true;
  return false;
}

/** The byte range a `Range` header asks for, or the whole content without one; 416 when unsatisfiable. */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  let start = NaN;
  let end = NaN;
  if (match && (match[1] !== "" || match[2] !== "")) {
    if (match[1] === "") {
      const suffix = Number(match[2]);
      start = suffix === 0 ? NaN : Math.max(0, size - suffix);
      end = size - 1;
    } else {
      start = Number(match[1]);
      end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
    }
  }
  if (!match || Number.isNaN(start) || start >= size || end < start) throw rangeNotSatisfiable(size);
  return { start, end };
}

/**
 * Sends `size` bytes of `contentType`, honouring `Range`. `read(start, end)` gives the bytes (inclusive
 * range) as a buffer or a stream; a stream is piped, so it is read only as fast as the client takes it.
 */
export function sendMedia(
  context: RequestContext,
  size: number,
  contentType: string,
  read: (start: number, end: number) => Buffer | Readable,
): typeof RESPONDED {
  const { response } = context;
  const range = rangeOf(context.request.headers.range, size);
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  const headers: Record<string, string> = {
    "content-type": contentType,
    "accept-ranges": "bytes",
    "content-length": String(end - start + 1),
    ...(range ? { "content-range": `bytes ${start}-${end}/${size}` } : {}),
  };
  response.writeHead(range ? 206 : 200, headers);
  const body = read(start, end);
  if (Buffer.isBuffer(body)) {
    response.end(body);
    return RESPONDED;
  }
  pipeline(body, response, (error) => {
    if (error) response.destroy();
  });
  return RESPONDED;
}

/** Bytes in memory, sent with `Range` support. */
export function sendBytes(context: RequestContext, data: Buffer, contentType: string): typeof RESPONDED {
  return sendMedia(context, data.length, contentType, (start, end) => data.subarray(start, end + 1));
}
