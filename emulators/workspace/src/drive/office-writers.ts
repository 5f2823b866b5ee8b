/**
 * The export packages of Docs Editors text: minimal but valid docx, xlsx and pptx (Office Open XML) and a
 * PDF with the text. Output depends only on the text, so it is repeatable.
 */
import {
  REL_NS,
  XML_HEADER,
  columnName,
  contentTypes,
  lines,
  packageRels,
  partRels,
  sheetRows,
  slideTexts,
  xmlEscape,
  zip,
} from "./office-xml";

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

export const P_NS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL_NS}" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
export const EMPTY_TREE =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

export const THEME = `${XML_HEADER}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Simple"><a:themeElements><a:clrScheme name="Simple"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="1F497D"/></a:dk2><a:lt2><a:srgbClr val="EEECE1"/></a:lt2><a:accent1><a:srgbClr val="4F81BD"/></a:accent1><a:accent2><a:srgbClr val="C0504D"/></a:accent2><a:accent3><a:srgbClr val="9BBB59"/></a:accent3><a:accent4><a:srgbClr val="8064A2"/></a:accent4><a:accent5><a:srgbClr val="4BACC6"/></a:accent5><a:accent6><a:srgbClr val="F79646"/></a:accent6><a:hlink><a:srgbClr val="0000FF"/></a:hlink><a:folHlink><a:srgbClr val="800080"/></a:folHlink></a:clrScheme><a:fontScheme name="Simple"><a:majorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme><a:fmtScheme name="Simple"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst><a:lnStyleLst><a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="25400"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="38100"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst><a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst><a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>`;

export function slideXml(paragraphs: string[]): string {
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

export function pdfString(line: string): string {
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
