/**
 * The JSON API's upload protocols for `objects.insert`: `uploadType=media` (the body is the object),
 * `multipart` (multipart/related: JSON metadata, then the bytes) and `resumable` (the first request opens a
 * session and answers with its URI in `Location`; PUTs to that URI carry the bytes, in one request or in
 * chunks with `Content-Range`, each answered `308 Resume Incomplete` with the `Range` received so far until
 * the last one, which completes the upload; `Content-Range: bytes *\/total` asks how far it got).
 */
import { randomBytes } from "node:crypto";
import { crc32cBase64, md5Base64 } from "./crc32c";
import { StorageApiError, invalid, notFound, parseJsonObject } from "./http";
import type { Preconditions, StoredObject } from "./store";

/** What an insert needs besides the bytes. */
export interface InsertRequest {
  bucket: string;
  name: string;
  contentType?: string;
  metadata?: Record<string, string>;
  preconditions: Preconditions;
  /** Checksums the client sent (metadata `crc32c`/`md5Hash`, or `X-Goog-Hash`), checked against the bytes. */
  expected: { crc32c?: string; md5Hash?: string };
}

type Outcome = { object: StoredObject } | { error: StorageApiError };

interface Session {
  id: string;
  request: InsertRequest;
  /** Declared by `X-Upload-Content-Length` or a `Content-Range` total. */
  total?: number;
  chunks: Buffer[];
  received: number;
  outcome?: Outcome;
  createdAt: number;
}

const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** A chunk's answer: more to come (`308` with the `Range` received) or the upload's outcome. */
export type ChunkAnswer = { incomplete: number } | Outcome;

/** Splits a multipart/related body into its parts. */
export function parseMultipart(
  body: Buffer,
  contentType: string,
): { headers: Record<string, string>; data: Buffer }[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) throw invalid("Missing boundary in the multipart/related content type.");
  const delimiter = Buffer.from(`--${marker}`);
  const parts: { headers: Record<string, string>; data: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw invalid("Malformed multipart body.");
  for (;;) {
    at += delimiter.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) break; // "--": the closing delimiter
    if (body[at] === 0x0d) at += 1;
    if (body[at] === 0x0a) at += 1;
    const next = body.indexOf(delimiter, at);
    if (next < 0) throw invalid("Malformed multipart body.");
    let part = body.subarray(at, next);
    if (part[part.length - 2] === 0x0d && part[part.length - 1] === 0x0a) part = part.subarray(0, -2);
    else if (part[part.length - 1] === 0x0a) part = part.subarray(0, -1);
    let split = part.indexOf("\r\n\r\n");
    let gap = 4;
    if (split < 0) {
      split = part.indexOf("\n\n");
      gap = 2;
    }
    const headers: Record<string, string> = {};
    if (split >= 0) {
      for (const line of part.subarray(0, split).toString("utf8").split(/\r?\n/)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
    }
    parts.push({ headers, data: split >= 0 ? part.subarray(split + gap) : part });
    at = next;
  }
  return parts;
}

/** The metadata part and the media part of a multipart upload. */
export function decodeMultipart(
  body: Buffer,
  contentType: string,
): { metadata: Record<string, unknown>; contentType?: string; data: Buffer } {
  const parts = parseMultipart(body, contentType);
  if (parts.length !== 2) throw invalid("A multipart upload has exactly two parts: metadata and media.");
  const [metadataPart, mediaPart] = parts as [(typeof parts)[number], (typeof parts)[number]];
  let data = mediaPart.data;
  if ((mediaPart.headers["content-transfer-encoding"] ?? "").toLowerCase() === "base64") {
    data = Buffer.from(data.toString("ascii"), "base64");
  }
  return {
    metadata: parseJsonObject(metadataPart.data),
    contentType: mediaPart.headers["content-type"],
    data,
  };
}

/** `X-Goog-Hash: crc32c=...,md5=...` */
export function parseGoogHash(header: string | undefined): { crc32c?: string; md5Hash?: string } {
  const out: { crc32c?: string; md5Hash?: string } = {};
  for (const pair of (header ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at < 0) continue;
    const key = pair.slice(0, at).trim().toLowerCase();
    const value = pair.slice(at + 1).trim();
    if (key === "crc32c") out.crc32c = value;
    if (key === "md5") out.md5Hash = value;
  }
  return out;
}

/** Throws Cloud Storage's 400 when the client's checksum does not match the bytes received. */
export function verifyChecksums(data: Buffer, expected: InsertRequest["expected"]): void {
  if (expected.crc32c && expected.crc32c !== crc32cBase64(data)) {
    throw invalid(
      `Provided CRC32C "${expected.crc32c}" doesn't match calculated CRC32C "${crc32cBase64(data)}".`,
    );
  }
  if (expected.md5Hash && expected.md5Hash !== md5Base64(data)) {
    throw invalid(
      `Provided MD5 hash "${expected.md5Hash}" doesn't match calculated MD5 hash "${md5Base64(data)}".`,
    );
  }
}

export class UploadSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly finish: (request: InsertRequest, data: Buffer) => StoredObject) {}

  open(request: InsertRequest, total: number | undefined): string {
    const id = randomBytes(18).toString("base64url");
    this.sessions.set(id, { id, request, total, chunks: [], received: 0, createdAt: Date.now() });
    return id;
  }

  cancel(id: string): void {
    if (!this.sessions.delete(id)) throw notFound("Upload session not found.");
  }

  clear(): void {
    this.sessions.clear();
  }

  private session(id: string): Session {
    const session = this.sessions.get(id);
    if (!session || Date.now() - session.createdAt > SESSION_LIFETIME_MS) {
      throw notFound("The upload session was not found or has expired.");
    }
    return session;
  }

  /** One PUT to the session URI. */
  put(id: string, contentRange: string | undefined, data: Buffer, googHash: string | undefined): ChunkAnswer {
    const session = this.session(id);
    if (session.outcome) return session.outcome;
    let final = false;
    if (contentRange === undefined) {
      // The whole (rest of the) object in one request.
      final = true;
      this.append(session, session.received, data);
    } else {
      const query = /^bytes \*\/(\d+|\*)$/.exec(contentRange);
      const bounded = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(contentRange);
      const open = /^bytes (\d+)-\*\/(\d+|\*|undefined)$/.exec(contentRange);
      if (query) {
        if (query[1] !== "*") session.total = Number(query[1]);
        if (session.total !== undefined && session.received === session.total) final = true;
        else return { incomplete: session.received };
      } else if (bounded) {
        const start = Number(bounded[1]);
        const end = Number(bounded[2]);
        if (end < start || end - start + 1 !== data.length) {
          throw invalid("The Content-Range header does not match the request body's length.");
        }
        if (bounded[3] !== "*") session.total = Number(bounded[3]);
        if (start > session.received) return { incomplete: session.received };
        this.append(session, start, data);
        final = session.total !== undefined && session.received >= session.total;
      } else if (open) {
        // `bytes N-*/total`: the rest of the object streams in this request.
        const start = Number(open[1]);
        if (start > session.received) return { incomplete: session.received };
        if (open[2] !== "*" && open[2] !== "undefined") session.total = Number(open[2]);
        this.append(session, start, data);
        final = true;
      } else {
        throw invalid(`Invalid Content-Range header: ${contentRange}`);
      }
    }
    if (!final) return { incomplete: session.received };
    if (session.total !== undefined && session.received !== session.total) {
      throw invalid(`The upload declared ${session.total} bytes but ${session.received} were received.`);
    }
    const bytes = Buffer.concat(session.chunks);
    session.chunks = [bytes];
    const expected = { ...session.request.expected, ...parseGoogHash(googHash) };
    try {
      verifyChecksums(bytes, expected);
      session.outcome = { object: this.finish(session.request, bytes) };
    } catch (error) {
      if (!(error instanceof StorageApiError)) throw error;
      session.outcome = { error };
    }
    return session.outcome;
  }

  /** Appends what is new in a chunk that starts at `start` (a resent chunk may overlap what was received). */
  private append(session: Session, start: number, data: Buffer): void {
    const fresh = data.subarray(session.received - start);
    if (fresh.length === 0) return;
    session.chunks.push(Buffer.from(fresh));
    session.received += fresh.length;
  }
}
