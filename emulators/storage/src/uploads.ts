/**
 * The JSON API's upload protocols for `objects.insert`: `uploadType=media` (the body is the object),
 * `multipart` (multipart/related: JSON metadata, then the bytes) and `resumable` (the first request opens a
 * session and answers with its URI in `Location`; PUTs to that URI carry the bytes, in one request or in
 * chunks with `Content-Range`, each answered `308 Resume Incomplete` with the `Range` received so far until
 * the last one, which completes the upload; `Content-Range: bytes *\/total` asks how far it got).
 *
 * A resumable session's bytes stream from each PUT's body into the session's file on disk (a chunk of any
 * size, never held whole in memory), with CRC32C and MD5 updated as they arrive; a PUT that fails half-way
 * is rolled back to where it started. The completed file is moved into the blob directory as the object.
 * Under a customer-managed key the bytes are sealed as they arrive (`sealed-blobs.ts`): each PUT has Cloud
 * KMS unwrap the session's data key, so a chunk is refused while the key version is disabled.
 */
import { createHash, randomBytes, type Hash } from "node:crypto";
import { appendFile, open, rm, writeFile } from "node:fs/promises";
import { crc32cBase64, crc32cUpdate, md5Base64 } from "./crc32c";
import { StorageApiError, invalid, notFound } from "./http";
import { Sealer } from "./sealed-blobs";
import { type ObjectEncryption, type Preconditions, type StagedBlob, type StoredObject } from "./store-model";

/** What an insert needs besides the bytes. */
export interface InsertRequest {
  bucket: string;
  name: string;
  contentType?: string;
  metadata?: Record<string, string>;
  preconditions: Preconditions;
  /** Checksums the client sent (metadata `crc32c`/`md5Hash`, or `X-Goog-Hash`), checked against the bytes. */
  expected: { crc32c?: string; md5Hash?: string };
  /** The customer-managed key asked for (`kmsKeyName`, or the bucket's default), a crypto key's name. */
  kmsKeyName?: string;
  /** Once a data key is made for it: that key, wrapped (the object's `encryption`). */
  encryption?: ObjectEncryption;
}

/** An upload's checksums as Cloud Storage reports them (base64). */
export interface Checksums {
  md5Hash: string;
  crc32c: string;
}

type Outcome = { object: StoredObject } | { error: StorageApiError };

interface Session {
  id: string;
  request: InsertRequest;
  /** Declared by `X-Upload-Content-Length` or a `Content-Range` total. */
  total?: number;
  /** The bytes received so far, in order (created at the first byte). */
  file: string;
  received: number;
  /** CRC32C and MD5 of the bytes received so far. */
  crc: number;
  md5: Hash;
  /** Under a customer-managed key: seals the bytes on their way to the file. */
  sealer?: Sealer;
  outcome?: Outcome;
  createdAt: number;
  /** The PUT being applied: the next one waits for it (a client may resend while a chunk still streams). */
  busy: Promise<unknown>;
}

const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** A chunk's answer: more to come (`308` with the `Range` received) or the upload's outcome. */
export type ChunkAnswer = { incomplete: number } | Outcome;

/** Where a session's files come from and where a completed upload goes. */
export interface UploadTarget {
  /** A fresh path for a session's file. */
  uploadFile(): string;
  /** Makes the completed file an object (it owns the file from then on, even when it throws). */
  finish(request: InsertRequest, staged: StagedBlob): StoredObject;
  /** A session's data key, unwrapped by Cloud KMS (throws Cloud Storage's error when the key cannot be used). */
  dataKey(encryption: ObjectEncryption): Promise<Buffer>;
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

/** The checksums of a body held in memory (a media or multipart upload). */
export function checksumsOf(data: Buffer): Checksums {
  return { md5Hash: md5Base64(data), crc32c: crc32cBase64(data) };
}

/** Throws Cloud Storage's 400 when the client's checksum does not match the bytes received. */
export function verifyChecksums(actual: Checksums, expected: InsertRequest["expected"]): void {
  if (expected.crc32c && expected.crc32c !== actual.crc32c) {
    throw invalid(`Provided CRC32C "${expected.crc32c}" doesn't match calculated CRC32C "${actual.crc32c}".`);
  }
  if (expected.md5Hash && expected.md5Hash !== actual.md5Hash) {
    throw invalid(
      `Provided MD5 hash "${expected.md5Hash}" doesn't match calculated MD5 hash "${actual.md5Hash}".`,
    );
  }
}

/** Removes a session's file in the background (it may be gone already). */
function removeQuietly(file: string): void {
  rm(file, { force: true }).catch(() => undefined);
}

function crcBase64(crc: number): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc);
  return bytes.toString("base64");
}

/** A PUT's `Content-Range`, parsed. */
type ChunkRange =
  | { kind: "whole" }
  | { kind: "query"; total?: number }
  | { kind: "bounded"; start: number; end: number; total?: number }
  | { kind: "open"; start: number; total?: number };

function parseContentRange(contentRange: string | undefined): ChunkRange {
  if (contentRange === undefined) return { kind: "whole" };
  const total = (text: string | undefined): number | undefined =>
    text === undefined || text === "*" || text === "undefined" ? undefined : Number(text);
  const query = /^bytes \*\/(\d+|\*)$/.exec(contentRange);
  if (query) return { kind: "query", total: total(query[1]) };
  const bounded = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(contentRange);
  if (bounded) {
    return { kind: "bounded", start: Number(bounded[1]), end: Number(bounded[2]), total: total(bounded[3]) };
  }
  const open = /^bytes (\d+)-\*\/(\d+|\*|undefined)$/.exec(contentRange);
  if (open) return { kind: "open", start: Number(open[1]), total: total(open[2]) };
  throw invalid(`Invalid Content-Range header: ${contentRange}`);
}

export class UploadSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly target: UploadTarget) {}

  open(request: InsertRequest, total: number | undefined): string {
    this.dropExpired();
    const id = randomBytes(18).toString("base64url");
    this.sessions.set(id, {
      id,
      request,
      total,
      file: this.target.uploadFile(),
      received: 0,
      crc: 0,
      md5: createHash("md5"),
      ...(request.encryption ? { sealer: new Sealer() } : {}),
      createdAt: Date.now(),
      busy: Promise.resolve(),
    });
    return id;
  }

  /** The file a session's bytes go to (tests check it is gone once the upload completes). */
  sessionFile(id: string): string {
    return this.session(id).file;
  }

  cancel(id: string): void {
    const session = this.sessions.get(id);
    if (!session) throw notFound("Upload session not found.");
    this.sessions.delete(id);
    removeQuietly(session.file);
  }

  clear(): void {
    for (const session of this.sessions.values()) removeQuietly(session.file);
    this.sessions.clear();
  }

  private dropExpired(): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      if (now - session.createdAt > SESSION_LIFETIME_MS) {
        this.sessions.delete(session.id);
        removeQuietly(session.file);
      }
    }
  }

  private session(id: string): Session {
    const session = this.sessions.get(id);
    if (!session || Date.now() - session.createdAt > SESSION_LIFETIME_MS) {
      throw notFound("The upload session was not found or has expired.");
    }
    return session;
  }

  /**
   * One PUT to the session URI; `body` is the request body, read only when it carries bytes the session
   * takes (PUTs to one session are applied one after another).
   */
  put(
    id: string,
    contentRange: string | undefined,
    body: AsyncIterable<Uint8Array>,
    googHash: string | undefined,
  ): Promise<ChunkAnswer> {
    const session = this.session(id);
    const range = parseContentRange(contentRange);
    const answer = session.busy.then(() => this.apply(session, range, body, googHash));
    session.busy = answer.catch(() => undefined);
    return answer;
  }

  private async apply(
    session: Session,
    range: ChunkRange,
    body: AsyncIterable<Uint8Array>,
    googHash: string | undefined,
  ): Promise<ChunkAnswer> {
    if (session.outcome) return session.outcome;
    // Unwrapped at most once a PUT, and only by a session under a key (the only one with a sealer).
    let unwrapped: Promise<Buffer> | undefined;
    const dataKey = (): Promise<Buffer> =>
      (unwrapped ??= this.target.dataKey(session.request.encryption as ObjectEncryption));
    let final: boolean;
    switch (range.kind) {
      case "whole":
        // The whole (rest of the) object in one request.
        await this.append(session, session.received, body, undefined, dataKey);
        final = true;
        break;
      case "query":
        if (range.total !== undefined) session.total = range.total;
        if (session.total === undefined || session.received !== session.total) {
          return { incomplete: session.received };
        }
        final = true;
        break;
      case "bounded": {
        if (range.end < range.start) {
          throw invalid("The Content-Range header does not match the request body's length.");
        }
        if (range.total !== undefined) session.total = range.total;
        if (range.start > session.received) return { incomplete: session.received };
        await this.append(session, range.start, body, range.end - range.start + 1, dataKey);
        final = session.total !== undefined && session.received >= session.total;
        break;
      }
      case "open":
        // `bytes N-*/total`: the rest of the object streams in this request.
        if (range.start > session.received) return { incomplete: session.received };
        if (range.total !== undefined) session.total = range.total;
        await this.append(session, range.start, body, undefined, dataKey);
        final = true;
        break;
    }
    if (!final) return { incomplete: session.received };
    if (session.total !== undefined && session.received !== session.total) {
      throw invalid(`The upload declared ${session.total} bytes but ${session.received} were received.`);
    }
    // The last, partial segment is sealed before the checksums are final (unwrapping may still fail).
    if (session.sealer)
      await appendFile(session.file, session.sealer.finish(await dataKey()), { mode: 0o600 });
    const staged: StagedBlob = {
      file: session.file,
      size: session.received,
      md5Hash: session.md5.digest("base64"),
      crc32c: crcBase64(session.crc),
    };
    // An empty upload never appended: its file is created here.
    if (session.received === 0) await writeFile(session.file, "", { flag: "a", mode: 0o600 });
    const expected = { ...session.request.expected, ...parseGoogHash(googHash) };
    try {
      verifyChecksums(staged, expected);
      session.outcome = { object: this.target.finish(session.request, staged) };
    } catch (error) {
      await rm(session.file, { force: true });
      if (!(error instanceof StorageApiError)) throw error;
      session.outcome = { error };
    }
    return session.outcome;
  }

  /**
   * Appends what is new in a body that starts at `start` (a resent chunk may overlap what was received),
   * streaming it to the session's file. `length`: what the `Content-Range` says the body holds. A body
   * that fails or does not match `length` leaves the session as it was before this PUT.
   */
  private async append(
    session: Session,
    start: number,
    body: AsyncIterable<Uint8Array>,
    length: number | undefined,
    dataKey: () => Promise<Buffer>,
  ): Promise<void> {
    const { sealer } = session;
    // Unwrapped before any byte is read: a key that cannot be used leaves the session as it was.
    const key = sealer ? await dataKey() : undefined;
    const before = {
      received: session.received,
      crc: session.crc,
      md5: session.md5.copy(),
      sealed: sealer?.save(),
    };
    const mismatch = (): StorageApiError =>
      invalid("The Content-Range header does not match the request body's length.");
    const handle = await open(session.file, "a", 0o600);
    let seen = 0;
    try {
      for await (const piece of body) {
        const at = start + seen;
        seen += piece.length;
        if (length !== undefined && seen > length) throw mismatch();
        const skip = session.received - at;
        const fresh = skip > 0 ? piece.subarray(skip) : piece;
        if (fresh.length === 0) continue;
        await handle.write(sealer && key ? sealer.push(key, fresh) : fresh);
        session.crc = crc32cUpdate(session.crc, fresh);
        session.md5.update(fresh);
        session.received += fresh.length;
      }
      if (length !== undefined && seen !== length) throw mismatch();
    } catch (error) {
      session.received = before.received;
      session.crc = before.crc;
      session.md5 = before.md5;
      if (sealer && before.sealed) sealer.restore(before.sealed);
      await handle.truncate(before.sealed ? Sealer.fileLength(before.sealed) : before.received);
      throw error;
    } finally {
      await handle.close();
    }
  }
}
