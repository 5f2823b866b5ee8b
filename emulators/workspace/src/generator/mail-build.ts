/**
 * One generated message's bytes: its MIME (text and HTML bodies, attachments with RFC 2231 names) from a
 * `MessageSpec`, and the attachment blobs themselves (PDF, images, CSV, text) at a drawn size.
 */
import {
  DOCUMENT_TITLES,
  csvOfSize,
  jpeg,
  pdf,
  png,
  sentences,
  textOfSize,
  type ContentLanguage,
} from "./content";
import {
  extendedParam,
  formatAddress,
  formatDate,
  quoteParam,
  encodeWords,
  writeMessage,
  type MimeLeaf,
  type MimePart,
} from "./mime";
import { Random } from "./random";
import type { Blob, Correspondent } from "./types";

export const DAY_MS = 86_400_000;

/** Everything a message says; `buildMessage` turns it into RFC 822 bytes. */
export interface MessageSpec {
  from: Correspondent;
  to: Correspondent[];
  cc: Correspondent[];
  subject: string;
  date: number;
  messageId: string;
  references: string[];
  textLines: string[];
  html: boolean;
  inlineImages: Blob[];
  attachments: Blob[];
  /** Body encoding for non-ASCII text. */
  textEncoding: "quoted-printable" | "base64";
  extraHeaders: Array<[string, string]>;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function textLeaf(contentType: string, text: string, encoding: MessageSpec["textEncoding"]): MimeLeaf {
  const body = Buffer.from(text.replace(/\r?\n/g, "\r\n"), "utf8");
  const ascii = /^[\t\r\n\x20-\x7e]*$/.test(text) && !text.split("\n").some((line) => line.length > 900);
  return {
    kind: "leaf",
    contentType: `${contentType}; charset="UTF-8"`,
    encoding: ascii ? "7bit" : encoding,
    body,
  };
}

export function attachmentLeaf(blob: Blob, index: number, rfc2231: boolean): MimeLeaf {
  const disposition = rfc2231
    ? `attachment; filename*=${extendedParam(blob.name)}`
    : `attachment; filename=${quoteParam(blob.name)}`;
  return {
    kind: "leaf",
    contentType: `${blob.mimeType}; name=${quoteParam(blob.name)}`,
    encoding: "base64",
    body: blob.content,
    headers: [
      ["Content-Disposition", disposition],
      ["X-Attachment-Id", `f_${index}`],
    ],
  };
}

/** The MIME tree: text, or alternative text+HTML, in related with inline images, in mixed with attachments. */
export function buildMessage(spec: MessageSpec, random: Random): Buffer {
  const text = spec.textLines.join("\n");
  const boundary = (): string => `000000000000${random.hex(16)}=_part`;
  const cids = spec.inlineImages.map((_, index) => `ii_${random.hex(10)}${index}`);
  let body: MimePart = textLeaf("text/plain", text, spec.textEncoding);
  if (spec.html) {
    const paragraphs = spec.textLines
      .map((line) => (line ? `<p>${escapeHtml(line)}</p>` : "<br>"))
      .join("\r\n");
    const images = cids.map(
      (cid, index) => `<img src="cid:${cid}" alt="${escapeHtml(spec.inlineImages[index]?.name ?? "")}">`,
    );
    const html = `<html><head><meta charset="utf-8"></head><body><div dir="ltr">\r\n${paragraphs}\r\n${images.join("\r\n")}\r\n</div></body></html>`;
    body = {
      kind: "multipart",
      subtype: "alternative",
      boundary: boundary(),
      parts: [body, textLeaf("text/html", html, spec.textEncoding)],
    };
    if (spec.inlineImages.length > 0) {
      body = {
        kind: "multipart",
        subtype: "related",
        boundary: boundary(),
        parts: [
          body,
          ...spec.inlineImages.map((image, index): MimeLeaf => ({
            kind: "leaf",
            contentType: `${image.mimeType}; name=${quoteParam(image.name)}`,
            encoding: "base64",
            body: image.content,
            headers: [
              ["Content-Disposition", `inline; filename=${quoteParam(image.name)}`],
              ["Content-ID", `<${cids[index]}>`],
            ],
          })),
        ],
      };
    }
  }
  if (spec.attachments.length > 0) {
    const rfc2231 = random.chance(0.3);
    body = {
      kind: "multipart",
      subtype: "mixed",
      boundary: boundary(),
      parts: [body, ...spec.attachments.map((blob, index) => attachmentLeaf(blob, index, rfc2231))],
    };
  }
  const list = (people: Correspondent[]): string =>
    people.map((p) => formatAddress(p.name, p.email)).join(", ");
  const headers: Array<[string, string]> = [
    ["Date", formatDate(spec.date)],
    ["From", formatAddress(spec.from.name, spec.from.email)],
    ["To", list(spec.to)],
  ];
  if (spec.cc.length > 0) headers.push(["Cc", list(spec.cc)]);
  headers.push(["Subject", encodeWords(spec.subject)], ["Message-ID", spec.messageId]);
  if (spec.references.length > 0) {
    headers.push(["In-Reply-To", spec.references[spec.references.length - 1] as string]);
    headers.push(["References", spec.references.join(" ")]);
  }
  headers.push(...spec.extraHeaders);
  return writeMessage(headers, body);
}

/** Attachment and inline-image sizes per profile: demo stays small, bench averages about 50 KB a message. */
export const SIZES = {
  demo: {
    attachmentChance: 0.22,
    min: 300,
    max: 250_000,
    largeChance: 0,
    inlineChance: 0.12,
    sharedChance: 0.06,
  },
  bench: {
    attachmentChance: 0.4,
    min: 500,
    max: 400_000,
    largeChance: 0.004,
    inlineChance: 0.15,
    sharedChance: 0.05,
  },
} as const;

/** A file of `kind` and about `size` bytes, named in `language`. */
export function makeBlob(
  random: Random,
  kind: "pdf" | "png" | "jpeg" | "csv" | "txt",
  size: number,
  language: ContentLanguage,
  date: number,
): Blob {
  const month = new Date(date).toISOString().slice(0, 7);
  const title = `${random.pick(DOCUMENT_TITLES[language])} ${month}`;
  switch (kind) {
    case "pdf":
      return {
        name: `${title}.pdf`,
        mimeType: "application/pdf",
        content: pdf(random, title, sentences(random, language, 12), size),
      };
    case "png":
      return {
        name: `Screenshot ${month}-${random.int(10, 28)}.png`,
        mimeType: "image/png",
        content: png(random, size),
      };
    case "jpeg":
      return {
        name: `IMG_${random.int(1000, 9999)}.jpg`,
        mimeType: "image/jpeg",
        content: jpeg(random, size),
      };
    case "csv":
      return { name: `${title}.csv`, mimeType: "text/csv", content: Buffer.from(csvOfSize(random, size)) };
    case "txt":
      return {
        name: `${title}.txt`,
        mimeType: "text/plain",
        content: Buffer.from(textOfSize(random, language, size)),
      };
  }
}

export function attachmentKind(random: Random): "pdf" | "png" | "jpeg" | "csv" | "txt" {
  return random.weighted([
    ["pdf", 4],
    ["jpeg", 3],
    ["png", 2],
    ["csv", 1],
    ["txt", 1],
  ] as const);
}

/** A time on a working day between `from` and `to` (Swiss office hours, some evenings and weekends). */
