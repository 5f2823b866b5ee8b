import {
  DOCX,
  GOOGLE_DOC,
  GOOGLE_SHEET,
  GOOGLE_SLIDES,
  PDF,
  PPTX,
  XLSX,
  exportDocument,
  importDocument,
} from "./office";
import { pdf } from "./office-writers";
import { unzip } from "./unzip";

const TEXT = "Quarterly plan\nÄrger & <tags>\n\nSecond slide line";

function text(buffer: Buffer | undefined): string {
  return (buffer ?? Buffer.alloc(0)).toString("utf8");
}

test("when a document is exported as docx, then the package holds content types, rels and the document part", () => {
  const entries = unzip(exportDocument(GOOGLE_DOC, TEXT, DOCX) as Buffer);
  expect([...entries.keys()]).toEqual(["[Content_Types].xml", "_rels/.rels", "word/document.xml"]);
  expect(text(entries.get("[Content_Types].xml"))).toContain('PartName="/word/document.xml"');
  expect(text(entries.get("_rels/.rels"))).toContain('Target="word/document.xml"');
  expect(text(entries.get("word/document.xml"))).toContain("Ärger &amp; &lt;tags&gt;");
});

test("when a spreadsheet is exported as xlsx, then the workbook, its rels and sheet1 with the cells are there", () => {
  const entries = unzip(exportDocument(GOOGLE_SHEET, "name,amount\nalpha,12\n", XLSX) as Buffer);
  expect([...entries.keys()]).toEqual(
    expect.arrayContaining(["xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/worksheets/sheet1.xml"]),
  );
  const sheet = text(entries.get("xl/worksheets/sheet1.xml"));
  expect(sheet).toContain('<c r="A2" t="inlineStr"><is><t xml:space="preserve">alpha</t></is></c>');
  expect(sheet).toContain('<c r="B2"><v>12</v></c>');
});

test("when slides are exported as pptx, then each blank-line block is a slide with master, layout and theme", () => {
  const entries = unzip(exportDocument(GOOGLE_SLIDES, TEXT, PPTX) as Buffer);
  expect([...entries.keys()]).toEqual(
    expect.arrayContaining([
      "ppt/presentation.xml",
      "ppt/slideMasters/slideMaster1.xml",
      "ppt/slideLayouts/slideLayout1.xml",
      "ppt/theme/theme1.xml",
      "ppt/slides/slide1.xml",
      "ppt/slides/slide2.xml",
    ]),
  );
  expect(entries.has("ppt/slides/slide3.xml")).toBe(false);
  expect(text(entries.get("ppt/slides/slide2.xml"))).toContain("Second slide line");
});

test("when the same text is exported twice, then the bytes are identical", () => {
  for (const [type, format] of [
    [GOOGLE_DOC, DOCX],
    [GOOGLE_SHEET, XLSX],
    [GOOGLE_SLIDES, PPTX],
    [GOOGLE_DOC, PDF],
  ] as const) {
    expect(exportDocument(type, TEXT, format)?.equals(exportDocument(type, TEXT, format) as Buffer)).toBe(
      true,
    );
  }
});

test("when a PDF is generated, then it starts with %PDF, ends with %%EOF and its xref points at the objects", () => {
  const bytes = pdf(Array.from({ length: 130 }, (_, index) => `Line ${index} (with parens)`));
  const body = bytes.toString("latin1");
  expect(body.startsWith("%PDF-1.4")).toBe(true);
  expect(body.trimEnd().endsWith("%%EOF")).toBe(true);
  expect(body).toContain("/Count 3");
  const xref = Number(/startxref\n(\d+)/.exec(body)?.[1]);
  expect(body.slice(xref, xref + 4)).toBe("xref");
  const offsets = [...body.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
  offsets.forEach((offset, index) => expect(body.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true));
  expect(body).toContain("(Line 0 \\(with parens\\)) Tj");
});

test("when a format Google does not offer is asked for, then there is no export", () => {
  expect(exportDocument(GOOGLE_DOC, TEXT, XLSX)).toBeUndefined();
  expect(text(exportDocument(GOOGLE_SHEET, 'a,"b,c"\n1,2', "text/csv"))).toBe('a,"b,c"\r\n1,2');
  expect(text(exportDocument(GOOGLE_DOC, "hi", "text/plain"))).toBe("\ufeffhi");
});

test("when an export is uploaded back as its Google type, then Drive's conversion gives the same text (documents, sheets, slides)", () => {
  const roundTrip = (type: string, format: string, text: string) =>
    importDocument(type, exportDocument(type, text, format) as Buffer, format, unzip);
  expect(roundTrip(GOOGLE_DOC, DOCX, TEXT)).toBe(TEXT);
  expect(roundTrip(GOOGLE_SHEET, XLSX, "Name\tAmount\nRent\t1200\nÄrger & co\t3.5")).toBe(
    "Name\tAmount\nRent\t1200\nÄrger & co\t3.5",
  );
  expect(roundTrip(GOOGLE_SLIDES, PPTX, "Title one\nPoint\n\nSecond slide")).toBe(
    "Title one\nPoint\n\nSecond slide",
  );
  expect(importDocument(GOOGLE_DOC, Buffer.from("\ufeffplain text"), "text/plain", unzip)).toBe("plain text");
  expect(importDocument(GOOGLE_DOC, Buffer.from("%PDF-1.4"), PDF, unzip)).toBeUndefined();
});
