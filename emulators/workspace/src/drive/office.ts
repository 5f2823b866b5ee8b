/**
 * Export bytes for Google Docs, Sheets and Slides: minimal but valid Office Open XML packages (docx, xlsx,
 * pptx, written with a small deterministic zip writer), a PDF with the text, and the text formats Google
 * offers (plain text, HTML, CSV, TSV). Output depends only on the document's text, so it is repeatable.
 */
import { deflateRawSync } from "node:zlib";

export const GOOGLE_DOC = "application/vnd.google-apps.document";
export const GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet";
export const GOOGLE_SLIDES = "application/vnd.google-apps.presentation";
export const GOOGLE_FOLDER = "application/vnd.google-apps.folder";

export const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
export const PDF = "application/pdf";

/** The formats each Docs Editors type exports to, as `exportLinks` lists them. */
export const EXPORT_FORMATS: Record<string, string[]> = {
  [GOOGLE_DOC]: [DOCX, PDF, "text/plain", "text/html"],
  [GOOGLE_SHEET]: [XLSX, PDF, "text/csv", "text/tab-separated-values"],
  [GOOGLE_SLIDES]: [PPTX, PDF, "text/plain"],
};

/** The uploads each Docs Editors type converts from (`about.importFormats`, by source type). */
export const IMPORT_FORMATS: Record<string, string[]> = {
  [DOCX]: [GOOGLE_DOC],
  "text/plain": [GOOGLE_DOC, GOOGLE_SLIDES],
  "text/html": [GOOGLE_DOC],
  [XLSX]: [GOOGLE_SHEET],
  "text/csv": [GOOGLE_SHEET],
  "text/tab-separated-values": [GOOGLE_SHEET],
  [PPTX]: [GOOGLE_SLIDES],
};

export function isDocsEditorsType(mimeType: string): boolean {
  return mimeType in EXPORT_FORMATS;
}

// ---------------------------------------------------------------------------------------------- zip

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip archive (deflate, fixed 1980-01-01 timestamps so equal input gives equal bytes). */
export function zip(entries: { name: string; data: Buffer | string }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const DOS_TIME = 0;
  const DOS_DATE = (0 << 9) | (1 << 5) | 1;
  for (const entry of entries) {
    const data = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : entry.data;
    const name = Buffer.from(entry.name, "utf8");
    const compressed = deflateRawSync(data, { level: 6 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ------------------------------------------------------------------------------------------- helpers

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

// Characters XML 1.0 does not allow (C0 controls except tab, newline, carriage return).
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML_CHARS, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function lines(text: string): string[] {
  return text.replace(/\r\n?/g, "\n").split("\n");
}

/** A sheet's text: rows on lines, cells separated by tabs (or commas when a row has no tab). */
export function sheetRows(text: string): string[][] {
  const rows = lines(text);
  while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
  return rows.map((row) => (row.includes("\t") ? row.split("\t") : parseCsvRow(row)));
}

function parseCsvRow(row: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < row.length; index += 1) {
    const char = row[index] as string;
    if (quoted) {
      if (char === '"' && row[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

/** Slides' text: slides separated by blank lines, one text line per paragraph. */
export function slideTexts(text: string): string[][] {
  const slides = text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((block) => block.split("\n").filter((line) => line.trim() !== ""))
    .filter((block) => block.length > 0);
  return slides.length > 0 ? slides : [[]];
}

function columnName(index: number): string {
  let name = "";
  let n = index + 1;
  while (n > 0) {
    const rest = (n - 1) % 26;
    name = String.fromCharCode(65 + rest) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

const RELS_CT = "application/vnd.openxmlformats-package.relationships+xml";
const REL_OFFICE_DOCUMENT =
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function packageRels(target: string): string {
  return `${XML_HEADER}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_OFFICE_DOCUMENT}" Target="${target}"/></Relationships>`;
}

function partRels(relations: { id: string; type: string; target: string }[]): string {
  const items = relations
    .map((rel) => `<Relationship Id="${rel.id}" Type="${REL_NS}/${rel.type}" Target="${rel.target}"/>`)
    .join("");
  return `${XML_HEADER}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
}

function contentTypes(overrides: [string, string][]): string {
  const items = overrides
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join("");
  return `${XML_HEADER}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="${RELS_CT}"/><Default Extension="xml" ContentType="application/xml"/>${items}</Types>`;
}

// ---------------------------------------------------------------------------------------------- docx

export function docx(text: string): Buffer {
  const paragraphs = lines(text)
    .map((line) =>
      line === "" ? "<w:p/>" : `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(line)}</w:t></w:r></w:p>`,
    )
    .join("");
  const document = `${XML_HEADER}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`;
  return zip([
    {
      name: "[Content_Types].xml",
      data: contentTypes([
        [
          "/word/document.xml",
          "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        ],
      ]),
    },
    { name: "_rels/.rels", data: packageRels("word/document.xml") },
    { name: "word/document.xml", data: document },
  ]);
}

// ---------------------------------------------------------------------------------------------- xlsx

export function xlsx(text: string): Buffer {
  const rows = sheetRows(text)
    .map((cells, rowIndex) => {
      const row = rowIndex + 1;
      const xml = cells
        .map((cell, columnIndex) => {
          const ref = `${columnName(columnIndex)}${row}`;
          if (cell === "") return "";
          if (/^-?\d+(\.\d+)?$/.test(cell) && cell.length < 16) return `<c r="${ref}"><v>${cell}</v></c>`;
          return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlEscape(cell)}</t></is></c>`;
        })
        .join("");
      return `<row r="${row}">${xml}</row>`;
    })
    .join("");
  const sheet = `${XML_HEADER}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
  const workbook = `${XML_HEADER}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL_NS}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  return zip([
    {
      name: "[Content_Types].xml",
      data: contentTypes([
        ["/xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"],
        [
          "/xl/worksheets/sheet1.xml",
          "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml",
        ],
      ]),
    },
    { name: "_rels/.rels", data: packageRels("xl/workbook.xml") },
    { name: "xl/workbook.xml", data: workbook },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: partRels([{ id: "rId1", type: "worksheet", target: "worksheets/sheet1.xml" }]),
    },
    { name: "xl/worksheets/sheet1.xml", data: sheet },
  ]);
}

// ---------------------------------------------------------------------------------------------- pptx

const P_NS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL_NS}" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
const EMPTY_TREE =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

const THEME = `${XML_HEADER}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Simple"><a:themeElements><a:clrScheme name="Simple"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="1F497D"/></a:dk2><a:lt2><a:srgbClr val="EEECE1"/></a:lt2><a:accent1><a:srgbClr val="4F81BD"/></a:accent1><a:accent2><a:srgbClr val="C0504D"/></a:accent2><a:accent3><a:srgbClr val="9BBB59"/></a:accent3><a:accent4><a:srgbClr val="8064A2"/></a:accent4><a:accent5><a:srgbClr val="4BACC6"/></a:accent5><a:accent6><a:srgbClr val="F79646"/></a:accent6><a:hlink><a:srgbClr val="0000FF"/></a:hlink><a:folHlink><a:srgbClr val="800080"/></a:folHlink></a:clrScheme><a:fontScheme name="Simple"><a:majorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme><a:fmtScheme name="Simple"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst><a:lnStyleLst><a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="25400"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="38100"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst><a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst><a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>`;

function slideXml(paragraphs: string[]): string {
  const body = (paragraphs.length > 0 ? paragraphs : [""])
    .map((line) =>
      line === ""
        ? '<a:p><a:endParaRPr lang="en-US"/></a:p>'
        : `<a:p><a:r><a:rPr lang="en-US"/><a:t>${xmlEscape(line)}</a:t></a:r></a:p>`,
    )
    .join("");
  const shape = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text 1"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="457200"/><a:ext cx="8229600" cy="5943600"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr wrap="square"/><a:lstStyle/>${body}</p:txBody></p:sp>`;
  return `${XML_HEADER}<p:sld ${P_NS}><p:cSld><p:spTree>${EMPTY_TREE}${shape}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;
}

export function pptx(text: string): Buffer {
  const slides = slideTexts(text);
  const slideIds = slides.map((_, index) => `<p:sldId id="${256 + index}" r:id="rId${index + 2}"/>`).join("");
  const presentation = `${XML_HEADER}<p:presentation ${P_NS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>${slideIds}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000" type="screen4x3"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`;
  const presentationRels = partRels([
    { id: "rId1", type: "slideMaster", target: "slideMasters/slideMaster1.xml" },
    ...slides.map((_, index) => ({
      id: `rId${index + 2}`,
      type: "slide",
      target: `slides/slide${index + 1}.xml`,
    })),
    { id: `rId${slides.length + 2}`, type: "theme", target: "theme/theme1.xml" },
  ]);
  const master = `${XML_HEADER}<p:sldMaster ${P_NS}><p:cSld><p:spTree>${EMPTY_TREE}</p:spTree></p:cSld><p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>`;
  const layout = `${XML_HEADER}<p:sldLayout ${P_NS} type="blank"><p:cSld name="Blank"><p:spTree>${EMPTY_TREE}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`;
  const PML = "application/vnd.openxmlformats-officedocument.presentationml";
  return zip([
    {
      name: "[Content_Types].xml",
      data: contentTypes([
        ["/ppt/presentation.xml", `${PML}.presentation.main+xml`],
        ["/ppt/slideMasters/slideMaster1.xml", `${PML}.slideMaster+xml`],
        ["/ppt/slideLayouts/slideLayout1.xml", `${PML}.slideLayout+xml`],
        ["/ppt/theme/theme1.xml", "application/vnd.openxmlformats-officedocument.theme+xml"],
        ...slides.map((_, index): [string, string] => [
          `/ppt/slides/slide${index + 1}.xml`,
          `${PML}.slide+xml`,
        ]),
      ]),
    },
    { name: "_rels/.rels", data: packageRels("ppt/presentation.xml") },
    { name: "ppt/presentation.xml", data: presentation },
    { name: "ppt/_rels/presentation.xml.rels", data: presentationRels },
    { name: "ppt/slideMasters/slideMaster1.xml", data: master },
    {
      name: "ppt/slideMasters/_rels/slideMaster1.xml.rels",
      data: partRels([
        { id: "rId1", type: "slideLayout", target: "../slideLayouts/slideLayout1.xml" },
        { id: "rId2", type: "theme", target: "../theme/theme1.xml" },
      ]),
    },
    { name: "ppt/slideLayouts/slideLayout1.xml", data: layout },
    {
      name: "ppt/slideLayouts/_rels/slideLayout1.xml.rels",
      data: partRels([{ id: "rId1", type: "slideMaster", target: "../slideMasters/slideMaster1.xml" }]),
    },
    { name: "ppt/theme/theme1.xml", data: THEME },
    ...slides.flatMap((paragraphs, index) => [
      { name: `ppt/slides/slide${index + 1}.xml`, data: slideXml(paragraphs) },
      {
        name: `ppt/slides/_rels/slide${index + 1}.xml.rels`,
        data: partRels([{ id: "rId1", type: "slideLayout", target: "../slideLayouts/slideLayout1.xml" }]),
      },
    ]),
  ]);
}

// ----------------------------------------------------------------------------------------------- pdf

function pdfString(line: string): string {
  let out = "";
  for (const char of line) {
    const code = char.codePointAt(0) as number;
    if (char === "(" || char === ")" || char === "\\") out += `\\${char}`;
    else if (code >= 32 && code < 127) out += char;
    else if (code >= 160 && code <= 255) out += `\\${code.toString(8).padStart(3, "0")}`;
    else if (code === 9) out += "    ";
    else out += "?";
  }
  return out;
}

/** A PDF (Letter pages, Helvetica 11 pt) with the text, 60 lines a page; long lines are wrapped. */
export function pdf(pageLines: string[]): Buffer {
  const wrapped: string[] = [];
  for (const line of pageLines) {
    if (line.length === 0) wrapped.push("");
    for (let start = 0; start < line.length; start += 95) wrapped.push(line.slice(start, start + 95));
  }
  const pages: string[][] = [];
  for (let start = 0; start < Math.max(wrapped.length, 1); start += 60)
    pages.push(wrapped.slice(start, start + 60));
  const objects: string[] = [];
  // 1 catalog, 2 pages, 3 font, then per page: page, content
  const kids = pages.map((_, index) => `${4 + index * 2} 0 R`).join(" ");
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  pages.forEach((page, index) => {
    const text = page.map((line) => `(${pdfString(line)}) Tj T*`).join("\n");
    const stream = `BT\n/F1 11 Tf\n14 TL\n72 720 Td\n${text}\nET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`);
  });
  let body = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

// -------------------------------------------------------------------------------------------- export

function csvCell(cell: string): string {
  return /[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** The export of a Docs Editors file's text in `mimeType`, or undefined when Google offers no such format. */
export function exportDocument(docMimeType: string, text: string, mimeType: string): Buffer | undefined {
  if (!(EXPORT_FORMATS[docMimeType] ?? []).includes(mimeType)) return undefined;
  if (docMimeType === GOOGLE_DOC) {
    if (mimeType === DOCX) return docx(text);
    if (mimeType === PDF) return pdf(lines(text));
    if (mimeType === "text/plain") return Buffer.from(`\ufeff${text}`, "utf8");
    const body = lines(text)
      .map((line) => `<p>${xmlEscape(line)}</p>`)
      .join("");
    return Buffer.from(
      `<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type"></head><body>${body}</body></html>`,
    );
  }
  if (docMimeType === GOOGLE_SHEET) {
    const rows = sheetRows(text);
    if (mimeType === XLSX) return xlsx(text);
    if (mimeType === PDF) return pdf(rows.map((row) => row.join("    ")));
    if (mimeType === "text/csv")
      return Buffer.from(rows.map((row) => row.map(csvCell).join(",")).join("\r\n"));
    return Buffer.from(
      rows.map((row) => row.map((cell) => cell.replace(/[\t\n]/g, " ")).join("\t")).join("\r\n"),
    );
  }
  const slides = slideTexts(text);
  if (mimeType === PPTX) return pptx(text);
  if (mimeType === PDF) return pdf(slides.flatMap((slide, index) => (index > 0 ? ["", ...slide] : slide)));
  return Buffer.from(`\ufeff${slides.map((slide) => slide.join("\n")).join("\n\n")}`, "utf8");
}

// ------------------------------------------------------------------------------------------- import

const XML_ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&apos;": "'",
};

function xmlText(xml: string): string {
  return xml.replace(/&(amp|lt|gt|quot|apos);/g, (entity) => XML_ENTITIES[entity] ?? entity);
}

/** The texts of the `tag` elements inside `xml`, concatenated. */
function texts(xml: string, tag: string): string {
  const pattern = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "g");
  return [...xml.matchAll(pattern)].map((match) => xmlText(match[1] ?? "")).join("");
}

/** The paragraphs (`<w:p>` or `<a:p>`) of an Office XML part, as text lines. */
function paragraphs(xml: string, paragraph: string, run: string): string[] {
  const pattern = new RegExp(
    `<${paragraph}(?:\\s[^>]*)?/>|<${paragraph}(?:\\s[^>]*)?>([\\s\\S]*?)</${paragraph}>`,
    "g",
  );
  return [...xml.matchAll(pattern)].map((match) => texts(match[1] ?? "", run));
}

/**
 * Converting an upload into a Docs Editors file (`files.create`/`update` with a Google type and office or
 * text media), as Drive imports it: the document's text, in the model the exports use. Undefined when Drive
 * would refuse the conversion.
 */
export function importDocument(
  docMimeType: string,
  data: Buffer,
  contentType: string,
  unzipArchive: (archive: Buffer) => Map<string, Buffer>,
): string | undefined {
  const text = () => data.toString("utf8").replace(/^\ufeff/, "");
  if (docMimeType === GOOGLE_DOC) {
    if (contentType === DOCX) {
      const xml = unzipArchive(data).get("word/document.xml")?.toString("utf8");
      return xml === undefined ? undefined : paragraphs(xml, "w:p", "w:t").join("\n");
    }
    if (contentType === "text/plain") return text();
    if (contentType === "text/html") {
      return [...text().matchAll(/<p(?:\s[^>]*)?>([\s\S]*?)<\/p>/g)]
        .map((match) => xmlText((match[1] ?? "").replace(/<[^>]*>/g, "")))
        .join("\n");
    }
    return undefined;
  }
  if (docMimeType === GOOGLE_SHEET) {
    if (contentType === XLSX) {
      const xml = unzipArchive(data).get("xl/worksheets/sheet1.xml")?.toString("utf8");
      if (xml === undefined) return undefined;
      const rows = [...xml.matchAll(/<row(?:\s[^>]*)?>([\s\S]*?)<\/row>/g)].map((row) =>
        [...(row[1] ?? "").matchAll(/<c(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/c>)/g)].map((cell) => {
          const inner = cell[1] ?? "";
          return inner.includes("<is>") ? texts(inner, "t") : texts(inner, "v");
        }),
      );
      return rows.map((cells) => cells.join("\t")).join("\n");
    }
    if (contentType === "text/csv" || contentType === "text/tab-separated-values") return text();
    return undefined;
  }
  if (docMimeType === GOOGLE_SLIDES) {
    if (contentType === PPTX) {
      const parts = unzipArchive(data);
      const slides = [...parts.keys()]
        .map((name) => /^ppt\/slides\/slide(\d+)\.xml$/.exec(name))
        .filter((match): match is RegExpExecArray => match !== null)
        .sort((a, b) => Number(a[1]) - Number(b[1]))
        .map((match) =>
          paragraphs(parts.get(match[0])?.toString("utf8") ?? "", "a:p", "a:t").filter((line) => line !== ""),
        );
      return slides.map((lines) => lines.join("\n")).join("\n\n");
    }
    if (contentType === "text/plain") return text();
    return undefined;
  }
  return undefined;
}
