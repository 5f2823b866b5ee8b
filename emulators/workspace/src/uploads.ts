/**
 * Google's upload protocol, shared by Gmail (messages.import/insert) and Drive (files.create/update):
 * `uploadType=media` (the body is the content), `multipart` (multipart/related: JSON metadata, then the
 * content) and `resumable` (a session: the first request carries the metadata and answers with a
 * `Location`; PUTs send the bytes in chunks with `Content-Range`, answered 308 with the `Range` received
 * until the last one, which completes the upload; `Content-Range: bytes * /total` asks how far it got).
 */
import { randomBytes } from "node:crypto";
import {
  GoogleApiError,
  RESPONDED,
  badRequest,
  parseJsonBody,
  type RequestContext,
  type Router,
} from "./http";
import type { Principal } from "./principal";

export interface UploadedMedia {
  contentType: string;
  data: Buffer;
}

/**
 * Where a large resumable upload's bytes go instead of memory (a file on disk): chunks are appended as they
 * arrive, so an upload of many GiB never has to fit in memory.
 */
export interface MediaSpool {
  append(data: Buffer): Promise<void>;
  /** The last chunk is in. */
  close(): Promise<void>;
  /** The upload was abandoned or refused: the bytes are dropped. */
  discard(): Promise<void>;
}

/** A resumable upload's content that went to a spool. */
export interface SpooledMedia {
  contentType: string;
  size: number;
  spool: MediaSpool;
}

export interface Upload {
  metadata: Record<string, unknown>;
  media?: UploadedMedia;
  /** Instead of `media`, for resumable uploads above the spool threshold. */
  spooled?: SpooledMedia;
}

export interface UploadOptions {
  maxBytes: number;
  /** Resumable uploads that grow past `thresholdBytes` continue into a spool from `open()`. */
  spool?: { thresholdBytes: number; open: () => MediaSpool };
}

type Finish = (upload: Upload) => Promise<unknown> | unknown;

interface Session {
  id: string;
  metadata: Record<string, unknown>;
  contentType: string;
  /** Declared total (X-Upload-Content-Length), when the client gave one. */
  total?: number;
  chunks: Buffer[];
  received: number;
  maxBytes: number;
  spoolOptions?: UploadOptions["spool"];
  /** Set once the upload outgrew memory: the chunks so far and every later one went here. */
  spool?: MediaSpool;
  finish: Finish;
  fields: string | null;
  createdAt: number;
  /** A test-only `corrupt-upload` fault fired on the session's first request. */
  corrupt: boolean;
}

const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** Splits a multipart/related body into its parts (headers and bytes). */
export function parseMultipart(
  body: Buffer,
  contentType: string,
): { headers: Record<string, string>; data: Buffer }[] {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw badRequest("Missing boundary in multipart/related content type.");
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { headers: Record<string, string>; data: Buffer }[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) throw badRequest("Malformed multipart body.");
  for (;;) {
    position += delimiter.length;
    if (body.subarray(position, position + 2).toString() === "--") break;
    // skip CRLF after the delimiter
    if (body[position] === 0x0d) position += 1;
    if (body[position] === 0x0a) position += 1;
    const next = body.indexOf(delimiter, position);
    if (next < 0) throw badRequest("Malformed multipart body.");
    let part = body.subarray(position, next);
    // the CRLF before the next delimiter belongs to the delimiter
    if (part.subarray(-2).toString() === "\r\n") part = part.subarray(0, -2);
    else if (part.subarray(-1).toString() === "\n") part = part.subarray(0, -1);
    let headerEnd = part.indexOf("\r\n\r\n");
    let separator = 4;
    if (headerEnd < 0) {
      headerEnd = part.indexOf("\n\n");
      separator = 2;
    }
    const headers: Record<string, string> = {};
    const headerText = headerEnd < 0 ? "" : part.subarray(0, headerEnd).toString("utf8");
    for (const line of headerText.split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, data: headerEnd < 0 ? part : part.subarray(headerEnd + separator) });
    position = next;
  }
  return parts;
}

function decodeMultipart(body: Buffer, contentType: string): Upload {
  const parts = parseMultipart(body, contentType);
  if (parts.length !== 2)
    throw badRequest("Multipart upload must have exactly two parts: metadata and media.");
  const [metadataPart, mediaPart] = parts as [(typeof parts)[0], (typeof parts)[0]];
  const metadata = parseJsonBody(metadataPart.data);
  let data = mediaPart.data;
  if ((mediaPart.headers["content-transfer-encoding"] ?? "").toLowerCase() === "base64") {
    data = Buffer.from(data.toString("ascii"), "base64");
  }
  return {
    metadata,
    media: { contentType: mediaPart.headers["content-type"] ?? "application/octet-stream", data },
  };
}

export class UploadSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly baseUrl: string) {}

  /**
   * Handles the first (or only) request of an upload of any type. `finish` builds the resource from the
   * complete upload and returns its JSON, now (media, multipart) or when the last chunk arrives.
   */
  async receive(context: RequestContext, finish: Finish, options: UploadOptions): Promise<unknown> {
    const uploadType = context.query.get("uploadType") ?? "media";
    const contentType = context.request.headers["content-type"] ?? "application/octet-stream";
    if (uploadType === "media") {
      const data = await context.body();
      checkSize(data.length, options.maxBytes);
      return finish(corrupted({ metadata: {}, media: { contentType, data } }, context.corruptUpload));
    }
    if (uploadType === "multipart") {
      const body = await context.body();
      const upload = decodeMultipart(body, contentType);
      checkSize(upload.media?.data.length ?? 0, options.maxBytes);
      return finish(corrupted(upload, context.corruptUpload));
    }
    if (uploadType === "resumable") {
      const metadata = parseJsonBody(await context.body());
      const declared = context.request.headers["x-upload-content-length"];
      const total = declared === undefined ? undefined : Number(declared);
      if (total !== undefined && (!Number.isInteger(total) || total < 0)) {
        throw badRequest("Invalid X-Upload-Content-Length.");
      }
      if (total !== undefined) checkSize(total, options.maxBytes);
      const session: Session = {
        id: randomBytes(18).toString("base64url"),
        metadata,
        contentType: String(context.request.headers["x-upload-content-type"] ?? "application/octet-stream"),
        total,
        chunks: [],
        received: 0,
        maxBytes: options.maxBytes,
        spoolOptions: options.spool,
        finish,
        fields: context.query.get("fields"),
        createdAt: Date.now(),
        corrupt: context.corruptUpload === true,
      };
      this.sessions.set(session.id, session);
      const location = new URL(context.path, this.baseUrl);
      for (const [key, value] of context.query) location.searchParams.set(key, value);
      location.searchParams.set("upload_id", session.id);
      context.response.writeHead(200, {
        location: location.toString(),
        "x-guploader-uploadid": session.id,
        "content-length": "0",
      });
      context.response.end();
      return RESPONDED;
    }
    throw badRequest(`Invalid upload type: ${uploadType}`, "invalid");
  }

  /** PUT (or POST) to a session URL: one chunk, a status query, or the last chunk. */
  async continue(context: RequestContext): Promise<unknown> {
    const id = context.query.get("upload_id") ?? "";
    const session = this.sessions.get(id);
    if (!session || Date.now() - session.createdAt > SESSION_LIFETIME_MS) {
      throw new GoogleApiError(404, "Upload session not found or expired.", "notFound");
    }
    const range = context.request.headers["content-range"];
    const data = await context.body();
    let total = session.total;
    if (range) {
      const status = /^bytes \*\/(\d+|\*)$/.exec(range);
      const chunk = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range);
      if (status) {
        if (status[1] !== "*") total = Number(status[1]);
        if (total !== undefined && session.received === total) return this.complete(context, session);
        return this.incomplete(context, session);
      }
      if (!chunk) throw badRequest("Invalid Content-Range header.");
      const start = Number(chunk[1]);
      const end = Number(chunk[2]);
      if (chunk[3] !== "*") total = Number(chunk[3]);
      if (end - start + 1 !== data.length) throw badRequest("Content-Range does not match the body length.");
      if (start !== session.received) {
        // Google answers with where it really is, so the client resends from there.
        return this.incomplete(context, session);
      }
    } else {
      total = session.received + data.length;
    }
    if (total !== undefined) session.total = total;
    checkSize(session.received + data.length, session.maxBytes);
    await this.keep(session, data);
    session.received += data.length;
    if (session.total !== undefined && session.received >= session.total)
      return this.complete(context, session);
    return this.incomplete(context, session);
  }

  private incomplete(context: RequestContext, session: Session): unknown {
    const headers: Record<string, string> = { "content-length": "0", "x-guploader-uploadid": session.id };
    if (session.received > 0) headers.range = `bytes=0-${session.received - 1}`;
    context.response.writeHead(308, headers);
    context.response.end();
    return RESPONDED;
  }

  /** Keeps a chunk in memory, or in the spool once the upload is larger than the spool threshold. */
  private async keep(session: Session, data: Buffer): Promise<void> {
    const options = session.spoolOptions;
    if (!session.spool && options && session.received + data.length > options.thresholdBytes) {
      session.spool = options.open();
      for (const chunk of session.chunks) await session.spool.append(chunk);
      session.chunks = [];
    }
    if (session.spool) await session.spool.append(data);
    else session.chunks.push(data);
  }

  private async complete(context: RequestContext, session: Session): Promise<unknown> {
    this.sessions.delete(session.id);
    let upload: Upload;
    if (session.spool) {
      await session.spool.close();
      upload = {
        metadata: session.metadata,
        spooled: { contentType: session.contentType, size: session.received, spool: session.spool },
      };
    } else {
      upload = {
        metadata: session.metadata,
        media: { contentType: session.contentType, data: Buffer.concat(session.chunks) },
      };
    }
    let result: unknown;
    try {
      result = await session.finish(corrupted(upload, session.corrupt));
    } catch (error) {
      await upload.spooled?.spool.discard();
      throw error;
    }
    if (result === RESPONDED) return RESPONDED;
    // The first request's `fields` applies to the final answer.
    if (session.fields && !context.query.get("fields")) context.query.set("fields", session.fields);
    return result;
  }
}

/**
 * The test-only `corrupt-upload` fault: one byte of the content altered (the case of the first letter from
 * the middle on, so a message stays parseable MIME; the last byte flipped when there is no letter). Spooled
 * (very large) uploads are left as they are.
 */
export function corrupted(upload: Upload, corrupt: boolean | undefined): Upload {
  if (!corrupt || !upload.media || upload.media.data.length === 0) return upload;
  const data = Buffer.from(upload.media.data);
  let index = Math.floor(data.length / 2);
  while (index < data.length && !/[A-Za-z]/.test(String.fromCharCode(data[index]!))) index += 1;
  if (index < data.length) data[index] = data[index]! ^ 0x20;
  else data[data.length - 1] = data[data.length - 1]! ^ 0x01;
  return { ...upload, media: { ...upload.media, data } };
}

function checkSize(bytes: number, maxBytes: number): void {
  if (bytes > maxBytes) {
    throw new GoogleApiError(
      413,
      `Media larger than the maximum allowed size of ${maxBytes} bytes.`,
      "uploadTooLarge",
    );
  }
}

/**
 * Registers the session endpoint for every upload path: PUT `/upload/...?upload_id=`. The session id is
 * the credential, as on Google: chunk requests need no token and are not charged again.
 */
export function registerUploadSessions(router: Router<Principal>, sessions: UploadSessions): void {
  router.add({
    method: "PUT",
    path: "/upload/:rest*",
    id: "upload.session",
    handler: (context) => {
      if (!context.query.get("upload_id")) {
        throw new GoogleApiError(404, `Method not found: PUT ${context.path}`, "notFound");
      }
      return sessions.continue(context);
    },
  });
}
