/**
 * A streaming ZIP writer (PKWARE APPNOTE 6.3.10). Each entry's content arrives as pieces and leaves as
 * pieces: deflated incrementally (`createDeflateRaw`), its CRC-32 and sizes counted on the way and written
 * in a data descriptor after it, so no file is ever held whole. UTF-8 names (flag bit 11).
 *
 * ZIP64 (docs/requirements.md#states-and-flows.3.9, #states-and-flows.4, #states-and-flows.5.3), only where needed, so small archives stay classic and every unzip reads
 * them:
 * - an entry whose content could exceed 4 GiB once deflated (judged from the size the caller expects, or
 *   always when unknown) is written as ZIP64 from its local header on, as streaming requires: "version
 *   needed" 4.5, sizes 0xFFFFFFFF with a ZIP64 extra field of zero sizes, a data descriptor with 8-byte
 *   sizes, and its sizes in the central directory's ZIP64 extra field;
 * - an entry whose local header starts beyond 4 GiB has its offset in a central-directory ZIP64 extra field;
 * - an archive of more than 65,535 entries, or whose central directory starts or ends beyond 4 GiB, ends
 *   with the ZIP64 end of central directory record and its locator before the classic end record.
 */
import { pipeline } from "node:stream";
import { constants as zlibConstants, createDeflateRaw, crc32, deflateRawSync } from "node:zlib";

/** An entry that was written without ZIP64 (it was expected small) turned out larger than 4 GiB. */
export class ZipLimitError extends Error {
  constructor(name: string) {
    super(`"${name}" grew beyond the 4 GiB its entry was written for`);
    this.name = "ZipLimitError";
  }
}

export interface ZipWriterOptions {
  /**
   * The largest values the classic fields hold: `bytes` for sizes and offsets (32-bit fields, 0xFFFFFFFF
   * being ZIP64's marker) and `entries` for the end record's counts (16-bit). Beyond them, ZIP64. Tests
   * lower them to check the ZIP64 structures without writing 4 GiB.
   */
  limits?: { bytes: number; entries: number };
  /** Where the first entry starts in the archive (an archive written in several stretches). */
  offset?: number;
}

/** The central directory's place and size, for its end records. */
export interface DirectoryExtent {
  /** Entries in the archive. */
  count: number;
  /** Where the directory starts, and its bytes. */
  start: number;
  size: number;
}

/** An entry open across stretches, as a checkpoint keeps it (`openEntry`): its name, and where its content stands. */
export interface OpenZipEntry {
  name: string;
  zip64: boolean;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  time: number;
  date: number;
}

/** An entry as the writer keeps it for the central directory (its name as bytes). */
interface Entry extends Omit<OpenZipEntry, "name"> {
  name: Buffer;
}

const MARK32 = 0xffffffff;
const MARK16 = 0xffff;
const FLAGS = 0x0808; // bit 3: CRC and sizes in the data descriptor; bit 11: UTF-8 names
const DEFLATE = 8;
const VERSION = 20; // 2.0: deflate
const VERSION_ZIP64 = 45; // 4.5: ZIP64
const ZIP64_EXTRA = 0x0001;
/** Central directory records are sent in batches of about this many bytes. */
const DIRECTORY_BATCH = 64 * 1024;

/** MS-DOS time and date fields of a date (UTC). */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** zlib's bound on deflated bytes (`deflateBound`): what `size` bytes can become at worst. */
function deflateBound(size: number): number {
  return size + Math.floor(size / 4096) + Math.floor(size / 16384) + Math.floor(size / 33554432) + 13;
}

/** A ZIP64 extended information extra field (docs/requirements.md#states-and-flows.5.3) holding `values` as 8-byte integers. */
function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(ZIP64_EXTRA, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, index) => extra.writeBigUInt64LE(BigInt(value), 4 + 8 * index));
  return extra;
}

/**
 * Writes one archive: `entry` for each file in turn (consume each one's pieces fully before the next),
 * then `finish`. Every piece it yields goes out as is, in order; it reads the content only as fast as its
 * pieces are taken, so the caller's backpressure reaches the content's source.
 */
export class ZipWriter {
  private readonly entries: Entry[] = [];
  private readonly limits: { bytes: number; entries: number };
  private offset = 0;
  private writing = false;
  /** An entry opened with `openEntry` (or taken up with `resumeEntry`) is not closed yet. */
  private open = false;

  constructor(options: ZipWriterOptions = {}) {
    this.limits = options.limits ?? { bytes: MARK32 - 1, entries: MARK16 - 1 };
    this.offset = options.offset ?? 0;
  }

  /** Where the next entry would start. */
  get position(): number {
    return this.offset;
  }

  /**
   * The central directory records of the entries written since the last call (an archive written in
   * stretches keeps them aside and joins them at the end, before `endRecords`).
   */
  takeDirectory(): { records: Buffer; count: number } {
    if (this.writing) throw new Error("The last entry is not written yet");
    const records = Buffer.concat(this.entries.map((entry) => this.directoryRecord(entry)));
    const count = this.entries.length;
    this.entries.length = 0;
    return { records, count };
  }

  /** The local header of an entry that starts here (its CRC and sizes follow in its data descriptor). */
  private localHeader(entry: Entry): Buffer {
    const extra = entry.zip64 ? zip64Extra([0, 0]) : Buffer.alloc(0);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(entry.zip64 ? VERSION_ZIP64 : VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(entry.time, 10);
    header.writeUInt16LE(entry.date, 12);
    // CRC-32 (14) and sizes (18, 22) follow in the data descriptor: zero, or ZIP64's marker.
    if (entry.zip64) {
      header.writeUInt32LE(MARK32, 18);
      header.writeUInt32LE(MARK32, 22);
    }
    header.writeUInt16LE(entry.name.length, 26);
    header.writeUInt16LE(extra.length, 28);
    const local = Buffer.concat([header, entry.name, extra]);
    this.offset += local.length;
    return local;
  }

  /** The data descriptor after an entry's content; the entry joins the central directory. */
  private dataDescriptor(entry: Entry): Buffer {
    const descriptor = Buffer.alloc(entry.zip64 ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    if (entry.zip64) {
      descriptor.writeBigUInt64LE(BigInt(entry.compressed), 8);
      descriptor.writeBigUInt64LE(BigInt(entry.size), 16);
    } else {
      descriptor.writeUInt32LE(entry.compressed, 8);
      descriptor.writeUInt32LE(entry.size, 12);
    }
    this.offset += descriptor.length;
    this.entries.push(entry);
    return descriptor;
  }

  private newEntry(name: string, modified: Date, zip64: boolean): Entry {
    return {
      name: Buffer.from(name, "utf8"),
      zip64,
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.offset,
      ...dosDateTime(modified),
    };
  }

  /**
   * The bytes of one entry (local header, deflated content, data descriptor), piece by piece.
   * `expectedSize`, the content's size when known, decides whether the entry needs ZIP64.
   */
  async *entry(
    name: string,
    content: AsyncIterable<Buffer> | Iterable<Buffer>,
    modified: Date,
    expectedSize?: number,
  ): AsyncGenerator<Buffer> {
    if (this.writing || this.open) throw new Error("The previous entry is not written yet");
    this.writing = true;
    const zip64 = expectedSize === undefined || deflateBound(expectedSize) > this.limits.bytes;
    const entry = this.newEntry(name, modified, zip64);
    yield this.localHeader(entry);

    const measured = async function* () {
      for await (const piece of content) {
        entry.crc = crc32(piece, entry.crc);
        entry.size += piece.length;
        yield piece;
      }
    };
    // The pipeline pulls a piece only when the deflater has room, and tears both down if either fails
    // or the pieces stop being taken (the loop below is left early).
    const deflated = pipeline(measured(), createDeflateRaw({ chunkSize: 64 * 1024 }), () => {});
    for await (const piece of deflated as AsyncIterable<Buffer>) {
      entry.compressed += piece.length;
      this.offset += piece.length;
      yield piece;
    }

    if (!zip64 && Math.max(entry.size, entry.compressed) > this.limits.bytes) throw new ZipLimitError(name);
    this.writing = false;
    yield this.dataDescriptor(entry);
  }

  /**
   * Opens an entry whose content comes piece by piece, possibly across stretches (`append`, `close`): its
   * size is unknown, so it is ZIP64. Until it is closed no other entry starts. Answers its local header
   * and the state a checkpoint keeps of it.
   */
  openEntry(name: string, modified: Date): { header: Buffer; entry: OpenZipEntry } {
    if (this.writing || this.open) throw new Error("The previous entry is not written yet");
    const entry = this.newEntry(name, modified, true);
    const header = this.localHeader(entry);
    this.open = true;
    return { header, entry: { ...entry, name } };
  }

  /** Takes up an entry a previous stretch opened: this writer must start where that entry's content ends. */
  resumeEntry(entry: OpenZipEntry): void {
    if (this.writing || this.open) throw new Error("The previous entry is not written yet");
    const header = 30 + Buffer.byteLength(entry.name, "utf8") + (entry.zip64 ? zip64Extra([0, 0]).length : 0);
    if (entry.offset + header + entry.compressed !== this.offset) {
      throw new Error("The open entry does not end where this stretch starts");
    }
    this.open = true;
  }

  /**
   * A piece of an open entry's content, deflated on its own and flushed to a byte boundary (a full flush:
   * the next piece's blocks need nothing of this one, so a later stretch's deflater goes on from here).
   */
  append(entry: OpenZipEntry, piece: Buffer): Buffer {
    if (piece.length === 0) return Buffer.alloc(0);
    const deflated = deflateRawSync(piece, { finishFlush: zlibConstants.Z_FULL_FLUSH });
    entry.crc = crc32(piece, entry.crc);
    entry.size += piece.length;
    entry.compressed += deflated.length;
    this.offset += deflated.length;
    return deflated;
  }

  /** Ends an open entry: the deflate stream's last (empty) block and the data descriptor. */
  close(entry: OpenZipEntry): Buffer {
    const last = deflateRawSync(Buffer.alloc(0));
    entry.compressed += last.length;
    this.offset += last.length;
    this.open = false;
    return Buffer.concat([last, this.dataDescriptor({ ...entry, name: Buffer.from(entry.name, "utf8") })]);
  }

  /** The central directory and its end records: the archive's last bytes, in batches. */
  *finish(): Generator<Buffer> {
    if (this.writing) throw new Error("The last entry is not written yet");
    const start = this.offset;
    const count = this.entries.length;
    let batch: Buffer[] = [];
    let batchBytes = 0;
    for (const entry of this.entries) {
      const record = this.directoryRecord(entry);
      batch.push(record);
      batchBytes += record.length;
      this.offset += record.length;
      if (batchBytes >= DIRECTORY_BATCH) {
        yield Buffer.concat(batch);
        batch = [];
        batchBytes = 0;
      }
    }
    batch.push(this.endRecords({ count, start, size: this.offset - start }));
    yield Buffer.concat(batch);
  }

  /**
   * The end of central directory record, preceded by the ZIP64 end record and its locator when the
   * archive needs them: the archive's last bytes, right after its directory.
   */
  endRecords(directory: DirectoryExtent): Buffer {
    const { count, start, size } = directory;
    const parts: Buffer[] = [];
    const zip64 = count > this.limits.entries || size > this.limits.bytes || start > this.limits.bytes;
    if (zip64) {
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4); // the record's size after this field
      record.writeUInt16LE(VERSION_ZIP64, 12);
      record.writeUInt16LE(VERSION_ZIP64, 14);
      // This disk (16) and the directory's disk (20): 0.
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(start + size), 8);
      locator.writeUInt32LE(1, 16); // disks in all
      parts.push(record, locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    const entries = count > this.limits.entries ? MARK16 : count;
    end.writeUInt16LE(entries, 8);
    end.writeUInt16LE(entries, 10);
    end.writeUInt32LE(size > this.limits.bytes ? MARK32 : size, 12);
    end.writeUInt32LE(start > this.limits.bytes ? MARK32 : start, 16);
    parts.push(end);
    return Buffer.concat(parts);
  }

  /** An entry's central directory record, with a ZIP64 extra field for what 32 bits cannot hold. */
  private directoryRecord(entry: Entry): Buffer {
    const large = entry.offset > this.limits.bytes;
    const values = [...(entry.zip64 ? [entry.size, entry.compressed] : []), ...(large ? [entry.offset] : [])];
    const extra = values.length > 0 ? zip64Extra(values) : Buffer.alloc(0);
    const version = values.length > 0 ? VERSION_ZIP64 : VERSION;
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(version, 4);
    record.writeUInt16LE(version, 6);
    record.writeUInt16LE(FLAGS, 8);
    record.writeUInt16LE(DEFLATE, 10);
    record.writeUInt16LE(entry.time, 12);
    record.writeUInt16LE(entry.date, 14);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.zip64 ? MARK32 : entry.compressed, 20);
    record.writeUInt32LE(entry.zip64 ? MARK32 : entry.size, 24);
    record.writeUInt16LE(entry.name.length, 28);
    record.writeUInt16LE(extra.length, 30);
    record.writeUInt32LE(large ? MARK32 : entry.offset, 42);
    return Buffer.concat([record, entry.name, extra]);
  }
}
