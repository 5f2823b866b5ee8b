/**
 * The export's ZIP writer: a ZIP reader written on its own (the Workspace emulator's, which reads office
 * files) reads every entry back with its UTF-8 name and bytes, and the central directory agrees with the
 * local headers. A parser below, written from APPNOTE 6.3.10, checks the ZIP64 structures (written with
 * lowered limits rather than 4 GiB), and the writer is shown to stream: content in, pieces out, a piece at a
 * time.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { crc32, inflateRawSync } from "node:zlib";
import { unzip } from "../../emulators/workspace/src/index";
import { ZipWriter, type ZipWriterOptions } from "../../functions/src/export/zip";

const MODIFIED = new Date(Date.UTC(2026, 10, 22, 10, 30, 0));
const MARK32 = 0xffffffff;

async function collect(pieces: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

/** `content` in pieces of `size` bytes, handed over asynchronously. */
async function* piecesOf(content: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let start = 0; start < content.length; start += size) {
    await Promise.resolve();
    yield content.subarray(start, start + size);
  }
}

interface File {
  name: string;
  content: Buffer;
  /** The size told to the writer (the content's length unless said otherwise; null: not told). */
  expectedSize?: number | null;
  pieceSize?: number;
}

async function writeArchive(files: File[], options?: ZipWriterOptions): Promise<Buffer> {
  const writer = new ZipWriter(options);
  const parts: Buffer[] = [];
  for (const file of files) {
    const expected = file.expectedSize === undefined ? file.content.length : file.expectedSize;
    const pieces = writer.entry(
      file.name,
      piecesOf(file.content, file.pieceSize ?? 64 * 1024),
      MODIFIED,
      expected ?? undefined,
    );
    parts.push(...(await collect(pieces)));
  }
  parts.push(...(await collect(writer.finish())));
  return Buffer.concat(parts);
}

interface ParsedEntry {
  name: string;
  content: Buffer;
  versionNeeded: number;
  /** The values of its central directory's ZIP64 extra field, when it has one. */
  centralZip64: bigint[] | null;
  offset: number;
  /** Its local header has the streaming ZIP64 form (sizes 0xFFFFFFFF, extra field of zero sizes). */
  localZip64: boolean;
  descriptorLength: number;
}

interface ParsedArchive {
  entries: ParsedEntry[];
  /** The classic end record's fields. */
  end: { count: number; total: number; size: number; offset: number };
  /** The ZIP64 end of central directory record's fields, when there is one. */
  zip64End: { count: number; total: number; size: number; offset: number } | null;
}

/** The ZIP64 extended information extra field's data in `extra`, if any. */
function zip64Field(extra: Buffer): Buffer | null {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) return extra.subarray(at + 4, at + 4 + length);
    at += 4 + length;
  }
  return null;
}

/** Reads an archive as APPNOTE 6.3.10 describes it, checking every structure against the others. */
function parseArchive(archive: Buffer): ParsedArchive {
  let endAt = archive.length - 22;
  while (endAt >= 0 && archive.readUInt32LE(endAt) !== 0x06054b50) endAt -= 1;
  expect(endAt).toBe(archive.length - 22); // no archive comment
  const end = {
    count: archive.readUInt16LE(endAt + 8),
    total: archive.readUInt16LE(endAt + 10),
    size: archive.readUInt32LE(endAt + 12),
    offset: archive.readUInt32LE(endAt + 16),
  };
  expect(archive.readUInt32LE(endAt + 4)).toBe(0); // disk numbers
  let zip64End: ParsedArchive["zip64End"] = null;
  let directoryEnd = endAt;
  if (endAt >= 20 && archive.readUInt32LE(endAt - 20) === 0x07064b50) {
    const locatorAt = endAt - 20;
    expect(archive.readUInt32LE(locatorAt + 4)).toBe(0);
    expect(archive.readUInt32LE(locatorAt + 16)).toBe(1);
    const recordAt = Number(archive.readBigUInt64LE(locatorAt + 8));
    expect(recordAt).toBe(locatorAt - 56);
    expect(archive.readUInt32LE(recordAt)).toBe(0x06064b50);
    expect(archive.readBigUInt64LE(recordAt + 4)).toBe(44n);
    expect(archive.readUInt16LE(recordAt + 14)).toBeGreaterThanOrEqual(45);
    expect(archive.readUInt32LE(recordAt + 16)).toBe(0);
    expect(archive.readUInt32LE(recordAt + 20)).toBe(0);
    zip64End = {
      count: Number(archive.readBigUInt64LE(recordAt + 24)),
      total: Number(archive.readBigUInt64LE(recordAt + 32)),
      size: Number(archive.readBigUInt64LE(recordAt + 40)),
      offset: Number(archive.readBigUInt64LE(recordAt + 48)),
    };
    directoryEnd = recordAt;
  }
  // Where the classic end record holds a marker, the ZIP64 record holds the value.
  const total = end.total === 0xffff ? zip64End!.total : end.total;
  const size = end.size === MARK32 ? zip64End!.size : end.size;
  const start = end.offset === MARK32 ? zip64End!.offset : end.offset;
  if (zip64End) expect([zip64End.total, zip64End.size, zip64End.offset]).toEqual([total, size, start]);
  expect(start + size).toBe(directoryEnd);

  const entries: ParsedEntry[] = [];
  const ends: number[] = [];
  let at = start;
  for (let index = 0; index < total; index += 1) {
    expect(archive.readUInt32LE(at)).toBe(0x02014b50);
    const versionNeeded = archive.readUInt16LE(at + 6);
    const flags = archive.readUInt16LE(at + 8);
    expect(flags & 0x0808).toBe(0x0808);
    expect(archive.readUInt16LE(at + 10)).toBe(8);
    const crc = archive.readUInt32LE(at + 16);
    let compressed = archive.readUInt32LE(at + 20);
    let uncompressed = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    let offset = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const field = zip64Field(archive.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    let centralZip64: bigint[] | null = null;
    if (field) {
      // docs/requirements.md#states-and-flows.5.3: only the fields whose classic value is the marker, in this order.
      centralZip64 = [];
      for (let read = 0; read < field.length; read += 8) centralZip64.push(field.readBigUInt64LE(read));
      const values = [...centralZip64];
      if (uncompressed === MARK32) uncompressed = Number(values.shift());
      if (compressed === MARK32) compressed = Number(values.shift());
      if (offset === MARK32) offset = Number(values.shift());
      expect(values).toEqual([]);
      expect(versionNeeded).toBeGreaterThanOrEqual(45);
    }
    expect([uncompressed, compressed, offset]).not.toContain(MARK32);

    // The local header names the same file; its sizes are in the data descriptor after the content.
    expect(archive.readUInt32LE(offset)).toBe(0x04034b50);
    expect(archive.readUInt16LE(offset + 6)).toBe(flags);
    expect(archive.readUInt16LE(offset + 8)).toBe(8);
    const localNameLength = archive.readUInt16LE(offset + 26);
    const localExtraLength = archive.readUInt16LE(offset + 28);
    expect(archive.subarray(offset + 30, offset + 30 + localNameLength).toString("utf8")).toBe(name);
    const localField = zip64Field(
      archive.subarray(offset + 30 + localNameLength, offset + 30 + localNameLength + localExtraLength),
    );
    const localZip64 = localField !== null;
    if (localZip64) {
      // docs/requirements.md#states-and-flows.3.9.2 and #states-and-flows.5.3 when streaming: both sizes, zero, and the header's sizes are markers.
      expect(localField).toEqual(Buffer.alloc(16));
      expect(archive.readUInt16LE(offset + 4)).toBeGreaterThanOrEqual(45);
      expect(archive.readUInt32LE(offset + 18)).toBe(MARK32);
      expect(archive.readUInt32LE(offset + 22)).toBe(MARK32);
    } else {
      expect(archive.readUInt32LE(offset + 18)).toBe(0);
      expect(archive.readUInt32LE(offset + 22)).toBe(0);
    }
    expect(archive.readUInt32LE(offset + 14)).toBe(0);
    const dataAt = offset + 30 + localNameLength + localExtraLength;
    const content = inflateRawSync(archive.subarray(dataAt, dataAt + compressed));
    expect(content.length).toBe(uncompressed);
    expect(crc32(content)).toBe(crc);
    const descriptorAt = dataAt + compressed;
    expect(archive.readUInt32LE(descriptorAt)).toBe(0x08074b50);
    expect(archive.readUInt32LE(descriptorAt + 4)).toBe(crc);
    if (localZip64) {
      expect(Number(archive.readBigUInt64LE(descriptorAt + 8))).toBe(compressed);
      expect(Number(archive.readBigUInt64LE(descriptorAt + 16))).toBe(uncompressed);
    } else {
      expect(archive.readUInt32LE(descriptorAt + 8)).toBe(compressed);
      expect(archive.readUInt32LE(descriptorAt + 12)).toBe(uncompressed);
    }
    const descriptorLength = localZip64 ? 24 : 16;
    ends.push(descriptorAt + descriptorLength);
    entries.push({ name, content, versionNeeded, centralZip64, offset, localZip64, descriptorLength });
    at += 46 + nameLength + extraLength + commentLength;
  }
  expect(at).toBe(start + size);
  // Entries follow each other: each local header starts where the previous descriptor ends.
  expect(entries.map((entry) => entry.offset)).toEqual([0, ...ends.slice(0, -1)]);
  if (ends.length > 0) expect(ends[ends.length - 1]).toBe(start);
  return { entries, end, zip64End };
}

test("when files are written, then the archive has a consistent central directory and reads back with the same names and bytes", async () => {
  const files: [string, Buffer][] = [
    ["My Drive/Projects/plan.txt", Buffer.from("Plan\n".repeat(1000))],
    [
      "My Drive/Résumé 2026.bin",
      Buffer.from(Array.from({ length: 70_000 }, (_, index) => (index * 31) % 256)),
    ],
    ["empty.txt", Buffer.alloc(0)],
  ];
  const archive = await writeArchive(files.map(([name, content]) => ({ name, content })));
  // The end record points at a central directory whose entries carry each file's CRC-32 and size.
  const end = archive.length - 22;
  expect(archive.readUInt32LE(end)).toBe(0x06054b50);
  expect(archive.readUInt16LE(end + 10)).toBe(files.length);
  let record = archive.readUInt32LE(end + 16);
  for (const [name, content] of files) {
    expect(archive.readUInt32LE(record)).toBe(0x02014b50);
    expect(archive.readUInt32LE(record + 16)).toBe(crc32(content));
    expect(archive.readUInt32LE(record + 24)).toBe(content.length);
    const nameLength = archive.readUInt16LE(record + 28);
    expect(archive.subarray(record + 46, record + 46 + nameLength).toString("utf8")).toBe(name);
    record += 46 + nameLength;
  }
  const entries = unzip(archive);
  expect([...entries.keys()]).toEqual(files.map(([name]) => name));
  for (const [name, content] of files) expect(entries.get(name)?.equals(content)).toBe(true);
  // Small and classic: no ZIP64 anywhere.
  const parsed = parseArchive(archive);
  expect(parsed.zip64End).toBeNull();
  expect(parsed.entries.map((entry) => [entry.versionNeeded, entry.centralZip64, entry.localZip64])).toEqual(
    files.map(() => [20, null, false]),
  );
});

test("when a file arrives in many uneven pieces, then it streams out and reads back equal", async () => {
  const content = Buffer.concat([randomBytes(300_000), Buffer.from("text ".repeat(200_000))]);
  const pieces: Buffer[] = [];
  for (let start = 0, size = 1; start < content.length; size = (size * 7 + 3) % 40_000) {
    pieces.push(content.subarray(start, start + size), Buffer.alloc(0));
    start += size;
  }
  expect(pieces.length).toBeGreaterThan(100);
  const writer = new ZipWriter();
  const out = await collect(
    writer.entry(
      "big/pieces.bin",
      (async function* () {
        for (const piece of pieces) yield piece;
      })(),
      MODIFIED,
      content.length,
    ),
  );
  out.push(...(await collect(writer.finish())));
  expect(out.length).toBeGreaterThan(3); // header, several deflated pieces, descriptor, directory
  const archive = Buffer.concat(out);
  expect(unzip(archive).get("big/pieces.bin")?.equals(content)).toBe(true);
  expect(parseArchive(archive).entries[0]!.content.equals(content)).toBe(true);
});

test("when an entry may outgrow 32 bits or starts beyond them, then it carries ZIP64 fields and the archive ends with the ZIP64 records", async () => {
  // 32-bit fields said to hold up to 10,000: the ZIP64 structures of a multi-GiB archive, in kilobytes.
  const limits = { bytes: 10_000, entries: 0xfffe };
  const large = randomBytes(50_000);
  const files: File[] = [
    { name: "small-first.txt", content: Buffer.from("hello ".repeat(100)) },
    { name: "large.bin", content: large, pieceSize: 4096 },
    { name: "unknown size.txt", content: Buffer.from("who knows"), expectedSize: null },
    { name: "small-late.txt", content: Buffer.from("late") },
    { name: "random.bin", content: randomBytes(12_000) },
  ];
  const archive = await writeArchive(files, { limits });
  const parsed = parseArchive(archive);
  expect(parsed.entries.map((entry) => entry.name)).toEqual(files.map((file) => file.name));
  for (const [index, file] of files.entries()) expect(parsed.entries[index]!.content).toEqual(file.content);
  const [first, big, unknown, late, random] = parsed.entries;
  // Expected small, starting low: classic throughout.
  expect(first).toMatchObject({
    localZip64: false,
    centralZip64: null,
    descriptorLength: 16,
    versionNeeded: 20,
  });
  // Expected large, or of unknown size: streamed as ZIP64, sizes in the central directory's extra field.
  for (const [entry, file] of [
    [big!, files[1]!],
    [unknown!, files[2]!],
  ] as const) {
    expect(entry).toMatchObject({ localZip64: true, descriptorLength: 24, versionNeeded: 45 });
    expect(entry.centralZip64![0]).toBe(BigInt(file.content.length));
    expect(entry.centralZip64).toHaveLength(entry.offset > limits.bytes ? 3 : 2);
  }
  expect(big!.centralZip64).toHaveLength(2); // starts low
  expect(unknown!.centralZip64).toHaveLength(3); // starts beyond the limit: its offset too
  expect(unknown!.centralZip64![2]).toBe(BigInt(unknown!.offset));
  // Expected small but starting beyond the limit: classic local header, offset in the extra field.
  expect(late).toMatchObject({ localZip64: false, descriptorLength: 16, versionNeeded: 45 });
  expect(late!.centralZip64).toEqual([BigInt(late!.offset)]);
  // Told 12,000 bytes, more than the limit allows once deflated: ZIP64 from the start.
  expect(random).toMatchObject({ localZip64: true, descriptorLength: 24 });
  // The directory starts beyond the limit: the ZIP64 end record holds its offset, the classic one a marker.
  expect(parsed.end.offset).toBe(MARK32);
  expect(parsed.end.total).toBe(files.length);
  expect(parsed.zip64End).toMatchObject({ count: files.length, total: files.length });
  expect(parsed.zip64End!.offset).toBeGreaterThan(limits.bytes);

  // With the real limits the same files make a classic archive (but for the entry of unknown size).
  const classic = parseArchive(await writeArchive(files));
  expect(classic.zip64End).toBeNull();
  expect(classic.entries.map((entry) => entry.localZip64)).toEqual([false, false, true, false, false]);
});

test("when an archive has more files than the end record counts, then the ZIP64 end record counts them and every one reads back", async () => {
  // The end record said to count up to 100 (65,535 files would take the writer a quarter of a minute; the
  // records are the same at any limit).
  const limits = { bytes: 0xfffffffe, entries: 100 };
  const count = 105;
  const writer = new ZipWriter({ limits });
  const parts: Buffer[] = [];
  for (let index = 0; index < count; index += 1) {
    const content = [Buffer.from(String(index))];
    parts.push(...(await collect(writer.entry(`f/${index}`, content, MODIFIED, content[0]!.length))));
  }
  parts.push(...writer.finish());
  const parsed = parseArchive(Buffer.concat(parts));
  expect(parsed.end.total).toBe(0xffff);
  expect(parsed.end.count).toBe(0xffff);
  expect(parsed.zip64End).toMatchObject({ count, total: count });
  // Sizes and offsets fit in 32 bits: the classic record holds them, entries stay classic.
  expect(parsed.end.offset).not.toBe(MARK32);
  expect(parsed.entries).toHaveLength(count);
  expect(parsed.entries.every((entry, index) => entry.content.toString() === String(index))).toBe(true);
  expect(parsed.entries.some((entry) => entry.centralZip64 || entry.localZip64)).toBe(false);

  // Up to the limit, the classic end record alone.
  const few = new ZipWriter({ limits });
  const fewParts: Buffer[] = [];
  for (let index = 0; index < limits.entries; index += 1) {
    fewParts.push(...(await collect(few.entry(`f/${index}`, [Buffer.from("x")], MODIFIED, 1))));
  }
  fewParts.push(...few.finish());
  const classic = parseArchive(Buffer.concat(fewParts));
  expect(classic.zip64End).toBeNull();
  expect(classic.end.total).toBe(limits.entries);
});

test("when a 16 MiB file is given in 1 MiB pieces, then the writer emits small pieces as it reads, never the whole file", async () => {
  const MiB = 1024 * 1024;
  const piece = randomBytes(MiB); // repeated a MiB apart: beyond deflate's window, so it stays incompressible
  let pulled = 0;
  let expectedCrc = 0;
  const content = (async function* () {
    for (let index = 0; index < 16; index += 1) {
      pulled += 1;
      expectedCrc = crc32(piece, expectedCrc);
      yield piece;
    }
  })();
  const writer = new ZipWriter();
  let largest = 0;
  let emitted = 0;
  let pieces = 0;
  let last: Buffer = Buffer.alloc(0);
  for await (const out of writer.entry("large.bin", content, MODIFIED, 16 * MiB)) {
    largest = Math.max(largest, out.length);
    emitted += out.length;
    pieces += 1;
    // What it has read is never far ahead of what it has given out.
    expect(pulled * MiB - emitted).toBeLessThanOrEqual(3 * MiB);
    last = out;
  }
  expect(largest).toBeLessThanOrEqual(2 * MiB);
  expect(pieces).toBeGreaterThan(16);
  expect(emitted).toBeGreaterThan(16 * MiB);
  // The data descriptor closes the entry with the CRC-32 and sizes counted on the way.
  expect(last.readUInt32LE(0)).toBe(0x08074b50);
  expect(last.readUInt32LE(4)).toBe(expectedCrc);
  expect(last.readUInt32LE(12)).toBe(16 * MiB);
});

test("when the content fails midway or the download stops, then the entry stops and the content is released", async () => {
  const failing = (async function* () {
    yield randomBytes(100_000);
    throw new Error("chunk tampered with");
  })();
  await expect(collect(new ZipWriter().entry("a.bin", failing, MODIFIED, 200_000))).rejects.toThrow(
    "chunk tampered with",
  );

  let released = false;
  const endless = (async function* () {
    try {
      for (;;) yield randomBytes(256 * 1024);
    } finally {
      released = true;
    }
  })();
  let taken = 0;
  for await (const out of new ZipWriter().entry("b.bin", endless, MODIFIED, 1e9)) {
    taken += out.length;
    if (taken > 4 * 1024 * 1024) break;
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(released).toBe(true);
});

test("when an entry is written across two stretches (a checkpoint between them), then the archive reads back whole, here and with Python's zipfile", async () => {
  const first = new ZipWriter();
  const parts: Buffer[] = [];
  parts.push(...(await collect(first.entry("before.txt", [Buffer.from("first file\n")], MODIFIED, 11))));
  const opened = first.openEntry("Kalender/Arbeit.ics", MODIFIED);
  parts.push(opened.header);
  const lines = Array.from({ length: 300 }, (_, index) => Buffer.from(`Zeile ${index} – Zürich\r\n`));
  for (const line of lines.slice(0, 120)) parts.push(first.append(opened.entry, line));
  // Only one entry at a time: another cannot start while this one is open.
  await expect(collect(first.entry("other.txt", [Buffer.from("x")], MODIFIED, 1))).rejects.toThrow();
  const directory = first.takeDirectory();

  // The checkpoint keeps the open entry's state; the next stretch's writer starts where the file stands.
  const kept = JSON.parse(JSON.stringify(opened.entry)) as typeof opened.entry;
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  expect(() => new ZipWriter({ offset: size + 1 }).resumeEntry(kept)).toThrow();
  const second = new ZipWriter({ offset: size });
  second.resumeEntry(kept);
  for (const line of lines.slice(120)) parts.push(second.append(kept, line));
  parts.push(second.close(kept));
  parts.push(...(await collect(second.entry("after.txt", [Buffer.from("last file\n")], MODIFIED, 10))));
  const rest = second.takeDirectory();
  const start = parts.reduce((sum, part) => sum + part.length, 0);
  const records = Buffer.concat([directory.records, rest.records]);
  parts.push(
    records,
    second.endRecords({ count: directory.count + rest.count, start, size: records.length }),
  );
  const archive = Buffer.concat(parts);

  const parsed = parseArchive(archive);
  expect(parsed.entries.map((entry) => entry.name)).toEqual([
    "before.txt",
    "Kalender/Arbeit.ics",
    "after.txt",
  ]);
  expect(parsed.entries[1]!.content.equals(Buffer.concat(lines))).toBe(true);
  expect(parsed.entries[1]!.localZip64).toBe(true);
  // A reader nobody here wrote: Python's zipfile checks every entry's CRC-32 (testzip) and reads the names.
  const python = execFileSync(
    "python3",
    [
      "-c",
      "import sys, zipfile, io; z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read())); assert z.testzip() is None; print('|'.join(z.namelist())); print(len(z.read('Kalender/Arbeit.ics')))",
    ],
    { input: archive },
  )
    .toString("utf8")
    .trim()
    .split("\n");
  expect(python).toEqual(["before.txt|Kalender/Arbeit.ics|after.txt", String(Buffer.concat(lines).length)]);
});
