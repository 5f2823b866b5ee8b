/**
 * A streaming ZIP writer (PKWARE APPNOTE 6.3): entries deflated one at a time, each followed by a data
 * descriptor, then the central directory. UTF-8 names. No ZIP64: an archive stays under 4 GiB and 65,535
 * entries (`ZipLimitError` before anything breaks the format).
 */
import { crc32, deflateRawSync } from "node:zlib";

const LIMIT = 0xffffffff;

export class ZipLimitError extends Error {
  constructor() {
    super("The archive would exceed 4 GiB or 65,535 files");
    this.name = "ZipLimitError";
  }
}

interface Entry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  time: number;
  date: number;
}

/** MS-DOS time and date fields of a date (UTC). */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

const FLAGS = 0x0808; // bit 3: sizes in the data descriptor; bit 11: UTF-8 names

export class ZipWriter {
  private readonly entries: Entry[] = [];
  private offset = 0;

  /** The bytes of one entry (local header, deflated content, data descriptor). */
  entry(name: string, content: Buffer, modified: Date): Buffer {
    if (this.entries.length >= 0xffff) throw new ZipLimitError();
    const nameBytes = Buffer.from(name, "utf8");
    const deflated = deflateRawSync(content);
    const { time, date } = dosDateTime(modified);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt16LE(nameBytes.length, 26);
    const entry: Entry = {
      name: nameBytes,
      crc: crc32(content),
      compressed: deflated.length,
      size: content.length,
      offset: this.offset,
      time,
      date,
    };
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    const bytes = Buffer.concat([header, nameBytes, deflated, descriptor]);
    if (this.offset + bytes.length > LIMIT || entry.size > LIMIT) throw new ZipLimitError();
    this.offset += bytes.length;
    this.entries.push(entry);
    return bytes;
  }

  /** The central directory and its end record: the archive's last bytes. */
  finish(): Buffer {
    const records = this.entries.map((entry) => {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(FLAGS, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(entry.time, 12);
      record.writeUInt16LE(entry.date, 14);
      record.writeUInt32LE(entry.crc, 16);
      record.writeUInt32LE(entry.compressed, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      record.writeUInt32LE(entry.offset, 42);
      return Buffer.concat([record, entry.name]);
    });
    const directory = Buffer.concat(records);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.offset, 16);
    return Buffer.concat([directory, end]);
  }
}
