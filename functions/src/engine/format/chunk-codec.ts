/**
 * Chunk and manifest objects (docs/backup-format.md §3, §4): names, and the AVC1 body — header, random
 * nonce, AES-256-GCM ciphertext of the (gzip-compressed) plaintext, tag. Reading checks everything the
 * writer bound in: magic, version, data key id, the tag (over the object's name, its organisation and the
 * header), and for chunks the keyed hash of the plaintext against the chunk id.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { deflateRawSync, gunzip, gzip } from "node:zlib";
import { MAX_CHUNK_SIZE } from "./chunker";
import { EncryptionError, FormatError } from "./errors";
import { ORGANIZATION_ID, type DerivedKeys } from "./keys";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const OBJECT_FORMAT_VERSION = 1;
const MAGIC = Buffer.from("AVC1", "ascii");
/** magic (4) | format version (1) | compression (1) | data key id (16) */
export const HEADER_BYTES = 22;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes an object has beyond its ciphertext. */
export const OBJECT_OVERHEAD_BYTES = HEADER_BYTES + NONCE_BYTES + TAG_BYTES;
const GZIP_LEVEL = 6;

export type Compression = "none" | "gzip";
const COMPRESSION_CODES: Record<Compression, number> = { none: 0, gzip: 1 };

/** Inline chunk lists in a version document hold at most this many chunks; longer ones are manifest objects. */
export const MAX_INLINE_CHUNKS = 200;
/** The largest manifest plaintext a reader accepts (≈ 3 million chunks). */
export const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

const CHUNK_ID = /^[0-9a-f]{64}$/;
/** Version ids are `<itemKey>@<content digest>`; these characters keep them safe in object names and AAD. */
const VERSION_ID = /^[A-Za-z0-9._@:+=~-]{1,512}$/;

/** The organisation and data key an object belongs to. */
export interface ObjectScope {
  organizationId: string;
  keys: DerivedKeys;
}

export interface ObjectHeader {
  formatVersion: number;
  compression: Compression;
  /** The data key the object was written with (32 hex characters). */
  dataKeyId: string;
}

function checkOrganizationId(organizationId: string): void {
  if (!ORGANIZATION_ID.test(organizationId)) throw new RangeError("Invalid organization id.");
}

function checkChunkId(id: string): void {
  if (!CHUNK_ID.test(id)) throw new RangeError("Invalid chunk id.");
}

function checkVersionId(versionId: string): void {
  if (!VERSION_ID.test(versionId) || versionId === "." || versionId === "..") {
    throw new RangeError("Invalid version id.");
  }
}

/** A chunk's id: HMAC-SHA256 under the `name` key of its plaintext, as 64 hex characters. */
export function chunkId(keys: DerivedKeys, plaintext: Uint8Array): string {
  return createHmac("sha256", keys.name).update(plaintext).digest("hex");
}

/** `o/<organizationId>/c/<first 2 hex of the id>/<chunk id>` */
export function chunkObjectName(organizationId: string, id: string): string {
  checkOrganizationId(organizationId);
  checkChunkId(id);
  return `o/${organizationId}/c/${id.slice(0, 2)}/${id}`;
}

/** `o/<organizationId>/m/<version id>` */
export function manifestObjectName(organizationId: string, versionId: string): string {
  checkOrganizationId(organizationId);
  checkVersionId(versionId);
  return `o/${organizationId}/m/${versionId}`;
}

/** The header of an object body: which data key to load before decoding it. */
export function readObjectHeader(body: Uint8Array): ObjectHeader {
  if (body.length < HEADER_BYTES || !MAGIC.equals(body.subarray(0, MAGIC.length))) {
    throw new FormatError("Not a backup object (bad magic).");
  }
  const formatVersion = body[4]!;
  if (formatVersion !== OBJECT_FORMAT_VERSION) {
    throw new FormatError(`Unsupported object format version ${formatVersion}.`);
  }
  const code = body[5]!;
  const compression = (Object.keys(COMPRESSION_CODES) as Compression[]).find(
    (name) => COMPRESSION_CODES[name] === code,
  );
  if (!compression) throw new FormatError(`Unknown compression ${code}.`);
  const dataKeyId = Buffer.from(body.subarray(6, HEADER_BYTES)).toString("hex");
  return { formatVersion, compression, dataKeyId };
}

/** What GCM authenticates besides the ciphertext: `<purpose string>` (UTF-8) followed by the header. */
function associatedData(purpose: string, header: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(purpose, "utf8"), header]);
}

const chunkPurpose = (organizationId: string, id: string) => `alpvault:chunk:v1:${organizationId}:${id}`;
const manifestPurpose = (organizationId: string, versionId: string) =>
  `alpvault:manifest:v1:${organizationId}:${versionId}`;

interface Sealed {
  body: Buffer;
  compression: Compression;
}

const SAMPLE_BYTES = 4096;

/**
 * True when three 4 KiB samples (start, middle, end) do not shrink under fast deflate: already-compressed
 * data (photos, video, archives), where trying gzip on the whole chunk would only cost time.
 */
function looksIncompressible(plaintext: Uint8Array): boolean {
  if (plaintext.length < 8 * SAMPLE_BYTES) return false;
  const middle = (plaintext.length - SAMPLE_BYTES) >> 1;
  const sample = Buffer.concat([
    plaintext.subarray(0, SAMPLE_BYTES),
    plaintext.subarray(middle, middle + SAMPLE_BYTES),
    plaintext.subarray(plaintext.length - SAMPLE_BYTES),
  ]);
  return deflateRawSync(sample, { level: 1 }).length >= sample.length;
}

async function compress(plaintext: Uint8Array): Promise<Buffer | null> {
  if (looksIncompressible(plaintext)) return null;
  const compressed = await gzipAsync(plaintext, { level: GZIP_LEVEL });
  return compressed.length < plaintext.length ? compressed : null;
}

async function seal(keys: DerivedKeys, purpose: string, plaintext: Uint8Array): Promise<Sealed> {
  const compressed = await compress(plaintext);
  const compression: Compression = compressed ? "gzip" : "none";
  const payload = compressed ?? plaintext;
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header[4] = OBJECT_FORMAT_VERSION;
  header[5] = COMPRESSION_CODES[compression];
  Buffer.from(keys.dataKeyId, "hex").copy(header, 6);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keys.enc, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(purpose, header));
  const ciphertext = Buffer.concat([cipher.update(payload), cipher.final()]);
  return { body: Buffer.concat([header, nonce, ciphertext, cipher.getAuthTag()]), compression };
}

async function open(
  keys: DerivedKeys,
  purpose: string,
  body: Uint8Array,
  maxPlaintext: number,
): Promise<Buffer> {
  const header = readObjectHeader(body);
  if (body.length < OBJECT_OVERHEAD_BYTES) throw new FormatError("The object is truncated.");
  if (header.dataKeyId !== keys.dataKeyId) {
    throw new EncryptionError(
      `The object was written with data key ${header.dataKeyId}, not ${keys.dataKeyId}.`,
    );
  }
  const nonce = body.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
  const ciphertext = body.subarray(HEADER_BYTES + NONCE_BYTES, body.length - TAG_BYTES);
  const decipher = createDecipheriv("aes-256-gcm", keys.enc, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(purpose, body.subarray(0, HEADER_BYTES)));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  let payload: Buffer;
  try {
    payload = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new EncryptionError("The object does not authenticate: altered, moved or renamed.");
  }
  if (header.compression === "none") return payload;
  try {
    return await gunzipAsync(payload, { maxOutputLength: maxPlaintext });
  } catch (error) {
    throw new FormatError("The object's compressed content cannot be read.", { cause: error });
  }
}

export interface EncodedChunk {
  id: string;
  objectName: string;
  body: Buffer;
  /** Plaintext bytes. */
  size: number;
  /** Object bytes. */
  storedSize: number;
  compression: Compression;
}

/** A chunk (at most `MAX_CHUNK_SIZE` bytes) as the object to upload. */
export async function encodeChunk(scope: ObjectScope, plaintext: Uint8Array): Promise<EncodedChunk> {
  if (plaintext.length > MAX_CHUNK_SIZE) throw new RangeError(`A chunk has at most ${MAX_CHUNK_SIZE} bytes.`);
  const id = chunkId(scope.keys, plaintext);
  const objectName = chunkObjectName(scope.organizationId, id);
  const { body, compression } = await seal(scope.keys, chunkPurpose(scope.organizationId, id), plaintext);
  return { id, objectName, body, size: plaintext.length, storedSize: body.length, compression };
}

/**
 * A chunk's plaintext from its object. `FormatError`: not an object of a known format; `EncryptionError`:
 * another data key, or the object was altered, moved to another organisation or renamed.
 */
export async function decodeChunk(scope: ObjectScope, id: string, body: Uint8Array): Promise<Buffer> {
  checkOrganizationId(scope.organizationId);
  checkChunkId(id);
  const plaintext = await open(scope.keys, chunkPurpose(scope.organizationId, id), body, MAX_CHUNK_SIZE);
  const actual = Buffer.from(chunkId(scope.keys, plaintext), "hex");
  if (!timingSafeEqual(actual, Buffer.from(id, "hex"))) {
    throw new EncryptionError("The chunk's content does not match its id.");
  }
  return plaintext;
}

/** One entry of a version's ordered chunk list. */
export interface ChunkRef {
  /** Chunk id (64 hex). */
  id: string;
  /** Plaintext bytes. */
  size: number;
}

/** A version's chunk list (docs/backup-format.md §4), inline or as a manifest object. */
export interface Manifest {
  chunks: ChunkRef[];
}

export interface EncodedManifest {
  objectName: string;
  body: Buffer;
}

/** A manifest object: the JSON `{"chunks":[{"id","size"},…]}` as the plaintext of an AVC1 body. */
export async function encodeManifest(
  scope: ObjectScope,
  versionId: string,
  manifest: Manifest,
): Promise<EncodedManifest> {
  const objectName = manifestObjectName(scope.organizationId, versionId);
  const checked = decodeManifestJson({ chunks: manifest.chunks.map(({ id, size }) => ({ id, size })) });
  const plaintext = Buffer.from(JSON.stringify(checked), "utf8");
  if (plaintext.length > MAX_MANIFEST_BYTES) throw new RangeError("The manifest is too large.");
  const { body } = await seal(scope.keys, manifestPurpose(scope.organizationId, versionId), plaintext);
  return { objectName, body };
}

/** A manifest from its object; errors as `decodeChunk`, and `FormatError` when the list is malformed. */
export async function decodeManifest(
  scope: ObjectScope,
  versionId: string,
  body: Uint8Array,
): Promise<Manifest> {
  checkOrganizationId(scope.organizationId);
  checkVersionId(versionId);
  const purpose = manifestPurpose(scope.organizationId, versionId);
  const plaintext = await open(scope.keys, purpose, body, MAX_MANIFEST_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(plaintext.toString("utf8"));
  } catch (error) {
    throw new FormatError("The manifest is not JSON.", { cause: error });
  }
  return decodeManifestJson(json);
}

/** A chunk list checked entry by entry (`FormatError` when it is not one); also for inline lists. */
export function decodeManifestJson(value: unknown): Manifest {
  const chunks = (value as { chunks?: unknown } | null)?.chunks;
  if (!Array.isArray(chunks)) throw new FormatError("A manifest has a chunk list.");
  return {
    chunks: chunks.map((entry: unknown, index) => {
      const { id, size } = (entry ?? {}) as { id?: unknown; size?: unknown };
      if (typeof id !== "string" || !CHUNK_ID.test(id)) {
        throw new FormatError(`Manifest entry ${index} has an invalid chunk id.`);
      }
      if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 1) {
        throw new FormatError(`Manifest entry ${index} has an invalid size.`);
      }
      return { id, size };
    }),
  };
}
