/**
 * Drive's export format: a ZIP of the files under their folder paths (Google files as their office
 * export), each entry dated by the file's last change; ZIP64 where an entry or the archive needs it.
 */
import { archivePath } from "../service";
import { entryDate, type FormatWriter } from "./format";

/**
 * Files up to this size are read whole, and checked, before their entry starts; larger ones are read
 * twice: once to check every chunk, once to write them (bytes sent to the bucket cannot be taken back).
 */
const CHECKED_WHOLE_BYTES = 8 * 1024 * 1024;

export const DRIVE_ZIP: FormatWriter = {
  contentType: "application/zip",
  extension: "zip",
  zip: true,
  async write(file, item, read) {
    const metadata = item.current.metadata;
    let content: AsyncIterable<Buffer> | Buffer[];
    if (item.current.size <= CHECKED_WHOLE_BYTES) {
      content = [await read.content()];
    } else {
      for await (const chunk of read.chunks()) void chunk;
      content = read.chunks();
    }
    const pieces = file.zip!.entry(
      archivePath(metadata, file.taken),
      content,
      entryDate(metadata.modifiedTime),
      item.current.size,
    );
    for await (const piece of pieces) await file.output.write(piece);
  },
};
