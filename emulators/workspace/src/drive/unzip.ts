/**
 * A tiny zip reader (central directory + deflate/stored entries, CRC checked), enough to verify the
 * Office packages Drive exports; used by the tests.
 */
import { inflateRawSync } from "node:zlib";
import { crc32 } from "./office-xml";

export function unzip(archive: Buffer): Map<string, Buffer> {
  const endOffset = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOffset < 0) throw new Error("Not a zip archive: no end of central directory");
  const count = archive.readUInt16LE(endOffset + 10);
  let position = archive.readUInt32LE(endOffset + 16);
  const entries = new Map<string, Buffer>();
  for (let index = 0; index < count; index += 1) {
    if (archive.readUInt32LE(position) !== 0x02014b50) throw new Error("Bad central directory entry");
    const method = archive.readUInt16LE(position + 10);
    const crc = archive.readUInt32LE(position + 16);
    const compressedSize = archive.readUInt32LE(position + 20);
    const nameLength = archive.readUInt16LE(position + 28);
    const extraLength = archive.readUInt16LE(position + 30);
    const commentLength = archive.readUInt16LE(position + 32);
    const localOffset = archive.readUInt32LE(position + 42);
    const name = archive.subarray(position + 46, position + 46 + nameLength).toString("utf8");
    if (archive.readUInt32LE(localOffset) !== 0x04034b50) throw new Error(`Bad local header for ${name}`);
    const dataStart =
      localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    const raw = archive.subarray(dataStart, dataStart + compressedSize);
    const data = method === 8 ? inflateRawSync(raw) : raw;
    if (crc32(data) !== crc) throw new Error(`CRC mismatch for ${name}`);
    entries.set(name, data);
    position += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
