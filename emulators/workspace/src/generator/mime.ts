/**
 * A small RFC 822 / MIME writer: header folding, RFC 2047 encoded words, quoted-printable and base64 bodies,
 * and multipart trees (alternative, related, mixed), written as CRLF-terminated bytes.
 */

export type TransferEncoding = "7bit" | "quoted-printable" | "base64";

export interface MimeLeaf {
  kind: "leaf";
  /** e.g. `text/plain; charset=UTF-8` or `image/png; name="logo.png"`. */
  contentType: string;
  encoding: TransferEncoding;
  body: Buffer;
  /** Further part headers, e.g. Content-ID, Content-Disposition. */
  headers?: Array<[string, string]>;
}

export interface MimeMultipart {
  kind: "multipart";
  subtype: "alternative" | "related" | "mixed";
  boundary: string;
  parts: MimePart[];
}

export type MimePart = MimeLeaf | MimeMultipart;

const CRLF = "\r\n";
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** RFC 2047 `=?UTF-8?B?...?=` words for non-ASCII text (split on characters, each word ≤ 75 chars). */
export function encodeWords(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  const words: string[] = [];
  let chunk = "";
  let chunkBytes = 0;
  for (const character of text) {
    const size = Buffer.byteLength(character);
    if (chunkBytes + size > 45) {
      words.push(chunk);
      chunk = "";
      chunkBytes = 0;
    }
    chunk += character;
    chunkBytes += size;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString("base64")}?=`).join(" ");
}

/** A parameter value (e.g. `name=`): quoted, non-ASCII as one RFC 2047 word, as Gmail writes file names. */
export function quoteParam(value: string): string {
  if (PRINTABLE_ASCII.test(value)) return `"${value.replace(/["\\]/g, "\\$&")}"`;
  return `"=?UTF-8?B?${Buffer.from(value).toString("base64")}?="`;
}

/** An RFC 2231 extended parameter value (`filename*=UTF-8''...`). */
export function extendedParam(value: string): string {
  return `UTF-8''${encodeURIComponent(value).replace(/['()*!]/g, (c) => qpByte(c.charCodeAt(0)).replace("=", "%"))}`;
}

/** `Name <email>`, with the name quoted or encoded as needed. */
export function formatAddress(name: string | undefined, email: string): string {
  if (!name) return `<${email}>`;
  if (!PRINTABLE_ASCII.test(name)) return `${encodeWords(name)} <${email}>`;
  if (/[()<>@,;:\\".[\]]/.test(name)) return `"${name.replace(/["\\]/g, "\\$&")}" <${email}>`;
  return `${name} <${email}>`;
}

/** A header line, folded at whitespace so lines stay within 78 characters where possible. */
export function foldHeader(name: string, value: string): string {
  const tokens = value.split(" ");
  let line = `${name}:`;
  const lines: string[] = [];
  for (const token of tokens) {
    if (line.length + 1 + token.length > 78 && line.length > name.length + 1) {
      lines.push(line);
      line = ` ${token}`;
    } else {
      line += ` ${token}`;
    }
  }
  lines.push(line);
  return lines.join(CRLF);
}

/** Base64 in lines of 76 characters. */
export function base64Lines(data: Buffer): string {
  const encoded = data.toString("base64");
  const lines: string[] = [];
  for (let offset = 0; offset < encoded.length; offset += 76) lines.push(encoded.slice(offset, offset + 76));
  return lines.join(CRLF);
}

function qpByte(byte: number): string {
  return `=${byte.toString(16).toUpperCase().padStart(2, "0")}`;
}

/** Quoted-printable (RFC 2045) of UTF-8 text; line breaks become CRLF hard breaks. */
export function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const sourceLine of text.split(/\r?\n/)) {
    const bytes = Buffer.from(sourceLine, "utf8");
    const tokens: string[] = [];
    for (let index = 0; index < bytes.length; index += 1) {
      const byte = bytes[index] as number;
      const last = index === bytes.length - 1;
      const plain = (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && !last);
      tokens.push(plain ? String.fromCharCode(byte) : qpByte(byte));
    }
    let line = "";
    for (const token of tokens) {
      if (line.length + token.length > 75) {
        out.push(`${line}=`);
        line = "";
      }
      line += token;
    }
    out.push(line);
  }
  return out.join(CRLF);
}

/** Encodes a leaf body for its transfer encoding. */
export function encodeBody(body: Buffer, encoding: TransferEncoding): string {
  if (encoding === "base64") return base64Lines(body);
  if (encoding === "quoted-printable") return quotedPrintable(body.toString("utf8"));
  return body.toString("latin1").replace(/\r?\n/g, CRLF);
}

function partHeaders(part: MimePart): string[] {
  if (part.kind === "multipart")
    return [foldHeader("Content-Type", `multipart/${part.subtype}; boundary="${part.boundary}"`)];
  return [
    foldHeader("Content-Type", part.contentType),
    `Content-Transfer-Encoding: ${part.encoding}`,
    ...(part.headers ?? []).map(([name, value]) => foldHeader(name, value)),
  ];
}

function writePartBody(part: MimePart, out: string[]): void {
  if (part.kind === "leaf") {
    out.push(encodeBody(part.body, part.encoding));
    return;
  }
  out.push("This is a multi-part message in MIME format.");
  for (const child of part.parts) {
    out.push(`--${part.boundary}`);
    out.push(...partHeaders(child), "");
    writePartBody(child, out);
  }
  out.push(`--${part.boundary}--`);
}

/** A whole message: the given headers, MIME-Version and the root part's headers, then its body. */
export function writeMessage(headers: Array<[string, string]>, root: MimePart): Buffer {
  const out: string[] = headers.map(([name, value]) => foldHeader(name, value));
  out.push("MIME-Version: 1.0", ...partHeaders(root), "");
  writePartBody(root, out);
  out.push("");
  return Buffer.from(out.join(CRLF), "latin1");
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Last Sunday of a month (UTC), at 01:00 UTC: when Europe/Zurich switches. */
function lastSundayOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0, 1));
  return lastDay.getTime() - lastDay.getUTCDay() * 86_400_000;
}

/** Offset of Europe/Zurich at an instant, in minutes (CET +60, CEST +120). */
export function zurichOffsetMinutes(epochMs: number): number {
  const year = new Date(epochMs).getUTCFullYear();
  const summer = epochMs >= lastSundayOneUtc(year, 2) && epochMs < lastSundayOneUtc(year, 9);
  return summer ? 120 : 60;
}

/** RFC 5322 date in Swiss local time, e.g. `Tue, 14 Oct 2025 09:12:03 +0200`. */
export function formatDate(epochMs: number, offsetMinutes = zurichOffsetMinutes(epochMs)): string {
  const local = new Date(epochMs + offsetMinutes * 60_000);
  const pad = (value: number): string => String(value).padStart(2, "0");
  const sign = offsetMinutes >= 0 ? "+" : "-";
  const offset = Math.abs(offsetMinutes);
  return (
    `${DAYS[local.getUTCDay()]}, ${pad(local.getUTCDate())} ${MONTHS[local.getUTCMonth()]} ` +
    `${local.getUTCFullYear()} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:` +
    `${pad(local.getUTCSeconds())} ${sign}${pad(Math.floor(offset / 60))}${pad(offset % 60)}`
  );
}
