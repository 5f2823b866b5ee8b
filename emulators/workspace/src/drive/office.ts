/**
 * Google's Docs Editors types and their Office counterparts: the formats each exports to and converts
 * from, and the conversions themselves (exports written by `office-writers.ts`, imports read here, both on
 * the building blocks of `office-xml.ts`). Output depends only on the document's text, so it is repeatable.
 */
import { docx, pdf, pptx, xlsx } from "./office-writers";
import { lines, sheetRows, slideTexts, xmlEscape } from "./office-xml";

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
