import { createHash } from "node:crypto";
import {
  AVG_CHUNK_SIZE,
  MAX_CHUNK_SIZE,
  MIN_CHUNK_SIZE,
  chunkBoundaries,
  chunkBuffer,
  chunkStream,
} from "./chunker";
import { GEAR, GEAR_SEED } from "./gear-table";
import { mulberry32, seededBytes, seededText } from "./testing";

const MiB = 1024 * 1024;

function sizes(chunks: Buffer[]): number[] {
  return chunks.map((chunk) => chunk.length);
}

function digests(chunks: Buffer[]): string[] {
  return chunks.map((chunk) => createHash("sha256").update(chunk).digest("hex"));
}

async function* pieces(data: Buffer, sizeOf: (index: number) => number): AsyncGenerator<Uint8Array> {
  let offset = 0;
  for (let index = 0; offset < data.length; index++) {
    const size = sizeOf(index);
    yield data.subarray(offset, offset + size);
    offset += size;
  }
}

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk));
  return chunks;
}

describe("gear table", () => {
  it("when the table is derived again from its seed with mulberry32, then it equals the committed one", () => {
    const next = mulberry32(GEAR_SEED);
    const derived = Uint32Array.from({ length: 256 }, () => next());
    expect(GEAR).toHaveLength(256);
    expect(Array.from(GEAR)).toEqual(Array.from(derived));
  });
});

describe("chunkBuffer", () => {
  it("when random data is chunked, then every chunk but the last is within the minimum and maximum and they add up to the input", () => {
    const data = seededBytes(1, 16 * MiB);
    const chunks = chunkBuffer(data);
    const lengths = sizes(chunks);
    for (const size of lengths.slice(0, -1)) {
      expect(size).toBeGreaterThanOrEqual(MIN_CHUNK_SIZE);
      expect(size).toBeLessThanOrEqual(MAX_CHUNK_SIZE);
    }
    expect(lengths.at(-1)).toBeLessThanOrEqual(MAX_CHUNK_SIZE);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
  });

  it("when random data is chunked, then chunk sizes centre on the average (normalised chunking)", () => {
    const data = seededBytes(2, 16 * MiB);
    const lengths = sizes(chunkBuffer(data));
    const mean = data.length / lengths.length;
    expect(mean).toBeGreaterThan(AVG_CHUNK_SIZE * 0.75);
    expect(mean).toBeLessThan(AVG_CHUNK_SIZE * 1.5);
    const nearAverage = lengths.filter((size) => size >= AVG_CHUNK_SIZE / 2 && size <= AVG_CHUNK_SIZE * 2);
    expect(nearAverage.length / lengths.length).toBeGreaterThan(0.8);
  });

  it("when text-like data is chunked, then the sizes stay within bounds too", () => {
    // 1 MiB of text: about sixteen chunks, cut where the text says.
    const lengths = sizes(chunkBuffer(seededText(3, MiB)));
    expect(lengths.length).toBeGreaterThan(8);
    for (const size of lengths.slice(0, -1)) {
      expect(size).toBeGreaterThanOrEqual(MIN_CHUNK_SIZE);
      expect(size).toBeLessThanOrEqual(MAX_CHUNK_SIZE);
    }
  });

  it("when the same bytes are chunked twice, from different buffers, then the boundaries are the same", () => {
    const data = seededBytes(4, 4 * MiB);
    expect(chunkBoundaries(Buffer.from(data))).toEqual(chunkBoundaries(data));
  });

  it("when known bytes are chunked, then the boundaries are the ones version 1 has always produced", () => {
    // Pinned: moving a boundary does not break reading, but defeats deduplication against existing backups.
    const data = seededBytes(4, 4 * MiB);
    expect(chunkBoundaries(data).slice(0, 6)).toEqual([71378, 138475, 211434, 300755, 367343, 446451]);
  });

  it("when the input is at most the minimum size, then it is one chunk; when empty, then there is none", () => {
    expect(sizes(chunkBuffer(seededBytes(5, MIN_CHUNK_SIZE)))).toEqual([MIN_CHUNK_SIZE]);
    expect(sizes(chunkBuffer(seededBytes(5, 10)))).toEqual([10]);
    expect(chunkBuffer(Buffer.alloc(0))).toEqual([]);
  });

  it("when the data has no cut point (one repeated byte), then it is cut at the maximum size", () => {
    const data = Buffer.alloc(MAX_CHUNK_SIZE * 3 + 5, 0);
    expect(sizes(chunkBuffer(data))).toEqual([MAX_CHUNK_SIZE, MAX_CHUNK_SIZE, MAX_CHUNK_SIZE, 5]);
  });

  it("when bytes are inserted in the middle of a large buffer, then only the chunks around the insertion change", () => {
    const original = seededBytes(6, 16 * MiB);
    const at = 8 * MiB + 12345;
    const edited = Buffer.concat([original.subarray(0, at), seededBytes(7, 1000), original.subarray(at)]);
    const before = digests(chunkBuffer(original));
    const after = digests(chunkBuffer(edited));
    const kept = new Set(before);
    const changed = after.filter((digest) => !kept.has(digest));
    expect(before.length).toBeGreaterThan(150);
    expect(changed.length).toBeGreaterThanOrEqual(1);
    expect(changed.length).toBeLessThanOrEqual(3);
    const beforeEnds = chunkBoundaries(original).filter((end) => end < at);
    expect(chunkBoundaries(edited).slice(0, beforeEnds.length)).toEqual(beforeEnds);
  });

  it("when bytes are deleted from the middle of a large buffer, then most chunks survive", () => {
    const original = seededBytes(8, 16 * MiB);
    const edited = Buffer.concat([original.subarray(0, 5 * MiB), original.subarray(5 * MiB + 777)]);
    const before = new Set(digests(chunkBuffer(original)));
    const after = digests(chunkBuffer(edited));
    const shared = after.filter((digest) => before.has(digest));
    expect(after.length - shared.length).toBeLessThanOrEqual(3);
  });
});

describe("chunkStream", () => {
  const data = seededBytes(9, 3 * MiB + 4321);
  const expected = digests(chunkBuffer(data));

  it.each([
    ["one piece", () => data.length],
    ["pieces of the maximum chunk size", () => MAX_CHUNK_SIZE],
    ["pieces one byte under the maximum", () => MAX_CHUNK_SIZE - 1],
    ["pieces one byte over the maximum", () => MAX_CHUNK_SIZE + 1],
    ["64 KiB pieces (a file stream)", () => 64 * 1024],
    ["pieces of 1 MiB", () => MiB],
    ["pieces of 1000 bytes", () => 1000],
  ])("when the input arrives in %s, then the chunks equal the whole-buffer chunks", async (_name, size) => {
    expect(digests(await collect(chunkStream(pieces(data, size))))).toEqual(expected);
  });

  it.each([11, 12, 13, 14, 15])(
    "when the input arrives in random pieces (seed %i, empty ones included), then the chunks equal the whole-buffer chunks",
    async (seed) => {
      const next = mulberry32(seed);
      const sizeOf = () => (next() % 4 === 0 ? 0 : next() % (2 * MAX_CHUNK_SIZE));
      expect(digests(await collect(chunkStream(pieces(data, sizeOf))))).toEqual(expected);
    },
  );

  it("when a small input arrives one byte at a time, then the chunks equal the whole-buffer chunks", async () => {
    // 240 KiB: three content-defined cuts (at 76,966, 142,883 and 232,660 bytes) and the rest.
    const small = data.subarray(0, 240 * 1024);
    expect(chunkBoundaries(small)).toHaveLength(4);
    const chunks = await collect(chunkStream(pieces(small, () => 1)));
    expect(digests(chunks)).toEqual(digests(chunkBuffer(small)));
  });

  it("when the pieces are plain Uint8Arrays, then the chunks are Buffers equal to the whole-buffer chunks", async () => {
    async function* plain(): AsyncGenerator<Uint8Array> {
      for (let offset = 0; offset < data.length; offset += 100_000) {
        yield new Uint8Array(data.subarray(offset, offset + 100_000));
      }
    }
    const chunks: Buffer[] = [];
    for await (const chunk of chunkStream(plain())) {
      expect(Buffer.isBuffer(chunk)).toBe(true);
      chunks.push(Buffer.from(chunk));
    }
    expect(digests(chunks)).toEqual(expected);
  });

  it("when an endless stream is chunked, then each chunk comes out having read at most one maximum chunk and one piece ahead", async () => {
    const pieceSize = 64 * 1024;
    let read = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (let seed = 100; ; seed++) {
        read += pieceSize;
        yield seededBytes(seed, pieceSize);
      }
    }
    let emitted = 0;
    let count = 0;
    for await (const chunk of chunkStream(endless())) {
      emitted += chunk.length;
      expect(read - emitted).toBeLessThanOrEqual(MAX_CHUNK_SIZE + pieceSize);
      if (++count === 200) break;
    }
    expect(emitted).toBeGreaterThan(200 * MIN_CHUNK_SIZE);
  });
});
