/**
 * Object bytes at rest under a customer-managed key (envelope encryption, as Cloud Storage does it:
 * https://cloud.google.com/storage/docs/encryption/customer-managed-keys): each object has its own fresh
 * AES-256 data key, and its file holds the bytes sealed with it, never the plaintext. The data key itself is
 * kept only wrapped by Cloud KMS (`customer-keys.ts`).
 *
 * A file is a run of segments of `SEGMENT_BYTES` plaintext bytes (the last one shorter), each sealed on its
 * own with AES-256-GCM: `ciphertext | tag (16)`, the IV and the additional data the segment's index. So a
 * ranged read opens only the segments it covers, and a resumable upload seals its bytes as they stream in
 * (the last partial segment waits in memory until it fills up or the upload completes). A segment moved,
 * changed or cut off does not open; the file's length is checked against the object's size.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { fstatSync, read } from "node:fs";
import { promisify } from "node:util";

export const SEGMENT_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const SEALED_SEGMENT_BYTES = SEGMENT_BYTES + TAG_BYTES;

const readAt = promisify(read);

/** A fresh AES-256 data key for one object. */
export function newDataKey(): Buffer {
  return randomBytes(32);
}

/** The file length of an object of `size` plaintext bytes. */
export function sealedLength(size: number): number {
  const segments = Math.ceil(size / SEGMENT_BYTES);
  return size + segments * TAG_BYTES;
}

/** The segment's index as IV (unique under a key used for one object only) and as additional data. */
function segmentIv(index: number): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(index, 8);
  return iv;
}

function sealSegment(dataKey: Buffer, index: number, plaintext: Buffer): Buffer {
  const iv = segmentIv(index);
  const cipher = createCipheriv("aes-256-gcm", dataKey, iv);
  cipher.setAAD(iv);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

function openSegment(dataKey: Buffer, index: number, sealed: Buffer): Buffer {
  const iv = segmentIv(index);
  const decipher = createDecipheriv("aes-256-gcm", dataKey, iv);
  decipher.setAAD(iv);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
}

/** Where a `Sealer` stands: whole segments written, and the plaintext of the segment not yet full. */
export interface SealerState {
  segments: number;
  tail: Buffer;
}

/**
 * Seals a stream of plaintext into segments: `push` answers the sealed segments that are complete,
 * `finish` the last one. The data key is given on each call (a resumable session unwraps it per request
 * and keeps only the wrapped form).
 */
export class Sealer {
  private segments = 0;
  private tail: Buffer = Buffer.alloc(0);

  push(dataKey: Buffer, plaintext: Uint8Array): Buffer {
    let pending = this.tail.length > 0 ? Buffer.concat([this.tail, plaintext]) : Buffer.from(plaintext);
    const out: Buffer[] = [];
    while (pending.length >= SEGMENT_BYTES) {
      out.push(sealSegment(dataKey, this.segments, pending.subarray(0, SEGMENT_BYTES)));
      this.segments += 1;
      pending = pending.subarray(SEGMENT_BYTES);
    }
    this.tail = Buffer.from(pending);
    return Buffer.concat(out);
  }

  /** The last, partial segment (empty when the bytes filled whole segments). */
  finish(dataKey: Buffer): Buffer {
    if (this.tail.length === 0) return Buffer.alloc(0);
    const last = sealSegment(dataKey, this.segments, this.tail);
    this.segments += 1;
    this.tail = Buffer.alloc(0);
    return last;
  }

  /** A copy of where it stands, to roll back to (a PUT that fails half-way). */
  save(): SealerState {
    return { segments: this.segments, tail: Buffer.from(this.tail) };
  }

  restore(state: SealerState): void {
    this.segments = state.segments;
    this.tail = Buffer.from(state.tail);
  }

  /** The file length that goes with a state: its whole segments. */
  static fileLength(state: SealerState): number {
    return state.segments * SEALED_SEGMENT_BYTES;
  }
}

/** A whole body sealed at once (a media or multipart upload). */
export function sealAll(dataKey: Buffer, plaintext: Buffer): Buffer {
  const sealer = new Sealer();
  return Buffer.concat([sealer.push(dataKey, plaintext), sealer.finish(dataKey)]);
}

/**
 * Checks that the open file `fd` has the length an object of `size` bytes seals to (before any answer is
 * sent: a damaged file is the emulator's 500, not a short read).
 */
export function checkSealedFile(fd: number, size: number): void {
  const length = fstatSync(fd).size;
  if (length !== sealedLength(size)) {
    throw new Error(
      `Sealed object file is ${length} bytes; an object of ${size} bytes seals to ${sealedLength(size)}`,
    );
  }
}

/** The plaintext bytes `start..end` (inclusive) of the sealed file `fd`, opening only the segments they span. */
export async function* openRange(
  fd: number,
  dataKey: Buffer,
  size: number,
  start: number,
  end: number,
): AsyncGenerator<Buffer> {
  if (size === 0 || end < start) return;
  const first = Math.floor(start / SEGMENT_BYTES);
  const last = Math.floor(end / SEGMENT_BYTES);
  for (let index = first; index <= last; index += 1) {
    const plainLength = Math.min(SEGMENT_BYTES, size - index * SEGMENT_BYTES);
    const sealed = Buffer.alloc(plainLength + TAG_BYTES);
    const { bytesRead } = await readAt(fd, sealed, 0, sealed.length, index * SEALED_SEGMENT_BYTES);
    if (bytesRead !== sealed.length) throw new Error(`Sealed object file ends inside segment ${index}`);
    const plaintext = openSegment(dataKey, index, sealed);
    const from = index === first ? start - index * SEGMENT_BYTES : 0;
    const to = index === last ? end - index * SEGMENT_BYTES + 1 : plaintext.length;
    yield plaintext.subarray(from, to);
  }
}
