/**
 * The export's ZIP writer: a ZIP reader written on its own (the Workspace emulator's, which reads office
 * files) reads every entry back with its UTF-8 name and bytes, and the central directory agrees with the
 * local headers.
 */
import { crc32 } from "node:zlib";
import { unzip } from "../../emulators/workspace/src/drive/unzip";
import { ZipWriter } from "../../functions/src/export/zip";

test("when files are written, then the archive has a consistent central directory and reads back with the same names and bytes", () => {
  const files: [string, Buffer][] = [
    ["My Drive/Projects/plan.txt", Buffer.from("Plan\n".repeat(1000))],
    [
      "My Drive/Résumé 2026.bin",
      Buffer.from(Array.from({ length: 70_000 }, (_, index) => (index * 31) % 256)),
    ],
    ["empty.txt", Buffer.alloc(0)],
  ];
  const writer = new ZipWriter();
  const archive = Buffer.concat([
    ...files.map(([name, content]) =>
      writer.entry(name, content, new Date(Date.UTC(2026, 10, 22, 10, 30, 0))),
    ),
    writer.finish(),
  ]);
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
});
