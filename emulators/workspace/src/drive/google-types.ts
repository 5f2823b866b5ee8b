/**
 * Drive's own item types beyond Docs, Sheets and Slides, with what Google lets a client do with each:
 * Drawings export to PDF, SVG, PNG and JPEG; Apps Script projects to their JSON; Google Vids download as
 * MP4, only through `files.download` (a long-running operation, see `operations.ts`: no `exportLinks`,
 * `files.export` refuses them); Forms, Sites, My Maps and Jamboards have no export at all (no
 * `exportLinks`, `files.export` refuses them); shortcuts point at another item and have no content of
 * their own. None of them can be downloaded with `alt=media`.
 */
import { deflateSync } from "node:zlib";
import { EXPORT_FORMATS, exportDocument, isDocsEditorsType, PDF } from "./office";
import { pdf } from "./office-writers";
import { crc32, xmlEscape } from "./office-xml";

export const GOOGLE_DRAWING = "application/vnd.google-apps.drawing";
export const GOOGLE_SCRIPT = "application/vnd.google-apps.script";
export const GOOGLE_FORM = "application/vnd.google-apps.form";
export const GOOGLE_SITE = "application/vnd.google-apps.site";
export const GOOGLE_MAP = "application/vnd.google-apps.map";
export const GOOGLE_JAM = "application/vnd.google-apps.jam";
export const GOOGLE_SHORTCUT = "application/vnd.google-apps.shortcut";
export const GOOGLE_VID = "application/vnd.google-apps.vid";
export const SCRIPT_JSON = "application/vnd.google-apps.script+json";
/**
 * The MP4 format of a Google Vid, as the MIME column of "Export MIME types for Google Workspace documents"
 * (https://developers.google.com/workspace/drive/api/guides/ref-export-formats) reads: `application/mp4`.
 */
export const VID_MP4 = "application/mp4";

const GOOGLE_PREFIX = "application/vnd.google-apps.";

/** Formats of the Google types that export besides Docs Editors files, as `exportLinks` lists them. */
const OTHER_EXPORT_FORMATS: Record<string, string[]> = {
  [GOOGLE_DRAWING]: [PDF, "image/svg+xml", "image/png", "image/jpeg"],
  [GOOGLE_SCRIPT]: [SCRIPT_JSON],
};

/** Every exportable type and its formats (`about.exportFormats`). */
export const ALL_EXPORT_FORMATS: Record<string, string[]> = { ...EXPORT_FORMATS, ...OTHER_EXPORT_FORMATS };

/** Google's own formats: content lives in Google's editors, so `alt=media` refuses them. */
export function isGoogleType(mimeType: string): boolean {
  return mimeType.startsWith(GOOGLE_PREFIX);
}

/** Types whose text the store keeps as a revision (Docs Editors files, Drawings, Apps Script, ...). */
export function hasGoogleContent(mimeType: string): boolean {
  return isGoogleType(mimeType) && mimeType !== GOOGLE_SHORTCUT && mimeType !== `${GOOGLE_PREFIX}folder`;
}

export function exportFormatsOf(mimeType: string): string[] | undefined {
  return ALL_EXPORT_FORMATS[mimeType];
}

function textLines(text: string): string[] {
  return text.replace(/\r\n?/g, "\n").split("\n");
}

/** A PNG of `width`×`height` white pixels (8-bit RGB), deflated: a real, decodable image. */
function whitePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length, 0);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body), 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xff)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * A baseline JPEG of one white 8×8 grey-scale block: quantisation 1, a Huffman table with the single DC
 * category 10 and one with only end-of-block, so the scan is that block's DC value (8 × (255 − 128) = 1016).
 */
function whiteJpeg(): Buffer {
  const segment = (marker: number, data: number[]): number[] => [
    0xff,
    marker,
    (data.length + 2) >> 8,
    (data.length + 2) & 0xff,
    ...data,
  ];
  const oneCode = (tableClass: number, symbol: number): number[] => [
    tableClass << 4,
    1,
    ...new Array<number>(15).fill(0),
    symbol,
  ];
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]),
    ...segment(0xc4, oneCode(0, 10)),
    ...segment(0xc4, oneCode(1, 0)),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    // "0" (DC category 10), "1111111000" (1016), "0" (end of block), then 1-bits to the byte boundary.
    0x7f,
    0x8f,
    0xff,
    0xd9,
  ]);
}

function drawingSvg(text: string): Buffer {
  const lines = textLines(text);
  const body = lines
    .map((line, index) => `<text x="24" y="${40 + index * 24}" font-size="16">${xmlEscape(line)}</text>`)
    .join("");
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" width="960" height="${Math.max(
      540,
      64 + lines.length * 24,
    )}" viewBox="0 0 960 ${Math.max(540, 64 + lines.length * 24)}">${body}</svg>`,
  );
}

/**
 * An Apps Script project as Drive exports it: `{files: [{id, name, type, source}]}` with the script and its
 * manifest. The stored text is the script's source.
 */
function scriptJson(fileId: string, text: string): Buffer {
  const manifest = JSON.stringify(
    { timeZone: "Europe/Zurich", dependencies: {}, exceptionLogging: "STACKDRIVER", runtimeVersion: "V8" },
    null,
    2,
  );
  return Buffer.from(
    JSON.stringify({
      files: [
        { id: `${fileId}-code`, name: "Code", type: "server_js", source: text },
        { id: `${fileId}-manifest`, name: "appsscript", type: "json", source: manifest },
      ],
    }),
  );
}

/** The export of a Google-type file's text in `mimeType`, or undefined when Google offers no such format. */
export function exportGoogleFile(
  fileId: string,
  fileMimeType: string,
  text: string,
  mimeType: string,
): Buffer | undefined {
  if (isDocsEditorsType(fileMimeType)) return exportDocument(fileMimeType, text, mimeType);
  if (!(OTHER_EXPORT_FORMATS[fileMimeType] ?? []).includes(mimeType)) return undefined;
  if (fileMimeType === GOOGLE_SCRIPT) return scriptJson(fileId, text);
  if (mimeType === PDF) return pdf(textLines(text));
  if (mimeType === "image/svg+xml") return drawingSvg(text);
  if (mimeType === "image/png") return whitePng(64, 48);
  return whiteJpeg();
}

/**
 * The formats `files.download` offers a Google type, the first its default: a Vid's MP4 ("Download and
 * export files": `files.download` "is the only way to download Google Vids files"), and the export formats
 * of the types that export. Types absent here (Forms, Sites, My Maps, Jamboards) cannot be downloaded.
 */
export function downloadFormatsOf(mimeType: string): string[] | undefined {
  return mimeType === GOOGLE_VID ? [VID_MP4] : ALL_EXPORT_FORMATS[mimeType];
}

/** An ISO BMFF box: 32-bit size, four-character type, body. */
function box(type: string, ...body: Buffer[]): Buffer {
  const content = Buffer.concat(body);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(content.length + 8, 0);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, content]);
}

/** A full box: a box whose body starts with version and flags. */
function fullBox(type: string, version: number, flags: number, ...body: Buffer[]): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return box(type, head, ...body);
}

function words(...values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => out.writeUInt32BE(value >>> 0, index * 4));
  return out;
}

/** The identity matrix of `mvhd` and `tkhd` (16.16 and 2.30 fixed point). */
const MATRIX = words(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);

/**
 * A Vid as MP4: a small but valid ISO BMFF file (ISO/IEC 14496-12) with `ftyp`, a `moov` holding one
 * empty video track of 3 s (mvhd, trak/tkhd, mdia/mdhd, hdlr `vide`, minf with vmhd, dinf and an empty
 * sample table) and the stored text as the movie's `udta` comment, so each Vid's bytes are its own.
 */
export function vidMp4(text: string): Buffer {
  const timescale = 1000;
  const duration = 3000;
  const ftyp = box("ftyp", Buffer.from("isom", "latin1"), words(512), Buffer.from("isomiso2mp41", "latin1"));
  const mvhd = fullBox(
    "mvhd",
    0,
    0,
    words(0, 0, timescale, duration, 0x10000),
    Buffer.from([1, 0]),
    Buffer.alloc(10),
    MATRIX,
    Buffer.alloc(24),
    words(2),
  );
  const tkhd = fullBox(
    "tkhd",
    0,
    3,
    words(0, 0, 1, 0, duration),
    Buffer.alloc(8),
    Buffer.alloc(8),
    MATRIX,
    words(1280 << 16, 720 << 16),
  );
  const mdhd = fullBox("mdhd", 0, 0, words(0, 0, timescale, duration), Buffer.from([0x55, 0xc4, 0, 0]));
  const hdlr = fullBox(
    "hdlr",
    0,
    0,
    words(0),
    Buffer.from("vide", "latin1"),
    words(0, 0, 0),
    Buffer.from("VideoHandler\0", "latin1"),
  );
  const dinf = box("dinf", fullBox("dref", 0, 0, words(1), fullBox("url ", 0, 1)));
  const stbl = box(
    "stbl",
    fullBox("stsd", 0, 0, words(0)),
    fullBox("stts", 0, 0, words(0)),
    fullBox("stsc", 0, 0, words(0)),
    fullBox("stsz", 0, 0, words(0, 0)),
    fullBox("stco", 0, 0, words(0)),
  );
  const minf = box("minf", fullBox("vmhd", 0, 1, Buffer.alloc(8)), dinf, stbl);
  const trak = box("trak", tkhd, box("mdia", mdhd, hdlr, minf));
  const udta = box("udta", box("\u00a9cmt", Buffer.from(text, "utf8")));
  return Buffer.concat([ftyp, box("moov", mvhd, trak, udta)]);
}

/**
 * What `files.download` gives for a Google-type file's text in `mimeType` (its default format when
 * null), or undefined when Google offers no such download.
 */
export function downloadGoogleFile(
  fileId: string,
  fileMimeType: string,
  text: string,
  mimeType: string | null,
): { bytes: Buffer; mimeType: string } | undefined {
  const formats = downloadFormatsOf(fileMimeType) ?? [];
  const format = mimeType ?? formats[0];
  if (!format || !formats.includes(format)) return undefined;
  if (fileMimeType === GOOGLE_VID) return { bytes: vidMp4(text), mimeType: format };
  const bytes = exportGoogleFile(fileId, fileMimeType, text, format);
  return bytes ? { bytes, mimeType: format } : undefined;
}
