/**
 * Content-defined chunking (docs/backup-format.md §3): FastCDC with a gear hash and normalised chunking
 * (Xia et al., "FastCDC", USENIX ATC 2016 / IEEE TPDS 2020). Boundaries depend only on the bytes around
 * them, so an attachment reused in another mail, or a file edited in the middle, produces mostly the same
 * chunks — and so the same chunk ids.
 *
 * The cut rule, from a chunk's first byte at `start` with `n` bytes left:
 * - `n ≤ MIN`: the rest is one chunk;
 * - otherwise hash from `start + MIN` on: `fp = (fp << 1) + GEAR[byte]` in 32 bits, and cut after the first
 *   byte where `fp & MASK_S == 0` before `start + AVG`, else where `fp & MASK_L == 0` before
 *   `start + min(n, MAX)`, else at `start + min(n, MAX)`.
 * MASK_S (the top 18 bits) makes cuts before the average rare, MASK_L (the top 14 bits) makes them likely
 * after it: chunk sizes gather around the average (normalisation level 2).
 */
import { GEAR } from "./gear-table";

export const MIN_CHUNK_SIZE = 16 * 1024;
export const AVG_CHUNK_SIZE = 64 * 1024;
export const MAX_CHUNK_SIZE = 256 * 1024;

/** The top 18 bits: log2(AVG) + 2. */
const MASK_S = 0xffffc000 | 0;
/** The top 14 bits: log2(AVG) − 2. */
const MASK_L = 0xfffc0000 | 0;

/** Where the chunk that starts at `start` ends (exclusive), looking at no byte at or after `end`. */
export function cutPoint(data: Uint8Array, start: number, end: number): number {
  const left = end - start;
  if (left <= MIN_CHUNK_SIZE) return end;
  const stop = start + Math.min(left, MAX_CHUNK_SIZE);
  const normal = Math.min(stop, start + AVG_CHUNK_SIZE);
  let fp = 0;
  let i = start + MIN_CHUNK_SIZE;
  for (; i < normal; i++) {
    fp = ((fp << 1) + GEAR[data[i]!]!) | 0;
    if ((fp & MASK_S) === 0) return i + 1;
  }
  for (; i < stop; i++) {
    fp = ((fp << 1) + GEAR[data[i]!]!) | 0;
    if ((fp & MASK_L) === 0) return i + 1;
  }
  return stop;
}

/** The end offsets of the chunks of `data`, in order (the last one is `data.length`; none for no bytes). */
export function chunkBoundaries(data: Uint8Array): number[] {
  const ends: number[] = [];
  let start = 0;
  while (start < data.length) {
    start = cutPoint(data, start, data.length);
    ends.push(start);
  }
  return ends;
}

/** The chunks of a whole buffer, as views into it (no copies). Empty input has no chunks. */
export function chunkBuffer(data: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let start = 0;
  for (const end of chunkBoundaries(data)) {
    chunks.push(data.subarray(start, end));
    start = end;
  }
  return chunks;
}

/**
 * The chunks of a stream, exactly those `chunkBuffer` gives for the concatenated input, however it is
 * split. Holds at most one input piece plus one maximum chunk: a chunk is cut only once `MAX_CHUNK_SIZE`
 * bytes past its start are known (or the input ended), so every decision sees what the whole-buffer one
 * sees. Chunks may share memory with the input pieces; consume them before changing those pieces.
 */
export async function* chunkStream(
  source: AsyncIterable<Uint8Array>,
): AsyncGenerator<Buffer, void, undefined> {
  let pieces: Buffer[] = [];
  let pending = 0;
  for await (const piece of source) {
    if (piece.length === 0) continue;
    pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.length));
    pending += piece.length;
    if (pending < MAX_CHUNK_SIZE) continue;
    const data = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, pending);
    let start = 0;
    while (data.length - start >= MAX_CHUNK_SIZE) {
      const end = cutPoint(data, start, data.length);
      yield data.subarray(start, end);
      start = end;
    }
    pieces = start < data.length ? [data.subarray(start)] : [];
    pending = data.length - start;
  }
  if (pending === 0) return;
  yield* chunkBuffer(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, pending));
}
