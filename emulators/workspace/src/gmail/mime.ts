/**
 * RFC 822 / MIME parsing for Gmail: headers (unfolded, RFC 2047 words decoded), the part tree with
 * Gmail's part ids, transfer decoding, filenames, the text a snippet and a search are built from, and the
 * `payload` JSON `messages.get` answers with.
 */

export interface MimeHeader {
  name: string;
  value: string;
}

export interface MimePart {
  /** Gmail's part id: "" for the message, "0", "1", "1.0"... below it. */
  partId: string;
  headers: MimeHeader[];
  /** Lower-case `type/subtype`. */
  mimeType: string;
  params: Record<string, string>;
  filename: string;
  /** The body as it is in the message (still transfer-encoded); empty for multiparts. */
  encodedBody: Buffer;
  transferEncoding: string;
  parts: MimePart[];
}

const CRLFCRLF = Buffer.from("\r\n\r\n");
const LFLF = Buffer.from("\n\n");

/** Splits header block and body at the first empty line. */
function splitHead(bytes: Buffer): { head: string; body: Buffer } {
  const crlf = bytes.indexOf(CRLFCRLF);
  const lf = bytes.indexOf(LFLF);
  if (crlf >= 0 && (lf < 0 || crlf < lf)) {
    return { head: bytes.subarray(0, crlf).toString("latin1"), body: bytes.subarray(crlf + 4) };
  }
  if (lf >= 0) return { head: bytes.subarray(0, lf).toString("latin1"), body: bytes.subarray(lf + 2) };
  // Only headers (or only a body when the first line is not a header).
  const text = bytes.toString("latin1");
  if (/^[\x21-\x39\x3b-\x7e]+:/.test(text)) return { head: text, body: Buffer.alloc(0) };
  return { head: "", body: bytes };
}

/** Headers as written, unfolded; 8-bit bytes are read as UTF-8 (RFC 6532). */
export function parseHeaders(head: string): MimeHeader[] {
  const headers: MimeHeader[] = [];
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && headers.length > 0) {
      const last = headers[headers.length - 1] as MimeHeader;
      last.value += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
  }
  for (const header of headers) header.value = latin1ToUtf8(header.value);
  return headers;
}

function latin1ToUtf8(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(value)) return value;
  const decoded = Buffer.from(value, "latin1").toString("utf8");
  return decoded.includes("\ufffd") ? value : decoded;
}

export function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const label = (charset ?? "utf-8").trim().toLowerCase();
  if (label === "utf-8" || label === "utf8" || label === "us-ascii" || label === "ascii") {
    return bytes.toString("utf8");
  }
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`), as Gmail shows header values. */
export function decodeWords(value: string): string {
  if (!value.includes("=?")) return value;
  return value
    .replace(/(=\?[^?]+\?[bBqQ]\?[^?]*\?=)\s+(?==\?[^?]+\?[bBqQ]\?[^?]*\?=)/g, "$1")
    .replace(
      /=\?([^?*]+)(?:\*[^?]*)?\?([bBqQ])\?([^?]*)\?=/g,
      (_all, charset: string, kind: string, text: string) => {
        const bytes =
          kind.toUpperCase() === "B"
            ? Buffer.from(text, "base64")
            : decodeQuotedPrintable(Buffer.from(text.replace(/_/g, " "), "latin1"));
        return decodeCharset(bytes, charset);
      },
    );
}

export function decodeQuotedPrintable(bytes: Buffer): Buffer {
  const out = Buffer.alloc(bytes.length);
  let length = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index] as number;
    if (byte !== 0x3d) {
      out[length++] = byte;
      continue;
    }
    const next = bytes[index + 1];
    if (next === 0x0d && bytes[index + 2] === 0x0a) {
      index += 2;
      continue;
    }
    if (next === 0x0a) {
      index += 1;
      continue;
    }
    const hex = bytes.subarray(index + 1, index + 3).toString("latin1");
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out[length++] = parseInt(hex, 16);
      index += 2;
    } else {
      out[length++] = byte;
    }
  }
  return out.subarray(0, length);
}

/** `type/subtype; a=b; c="d"` (with RFC 2231 `name*=utf-8''...` and continuations). */
export function parseParameterized(value: string): { value: string; params: Record<string, string> } {
  const segments: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    if (char === ";" && !quoted) {
      segments.push(current);
      current = "";
    } else current += char;
  }
  segments.push(current);
  const params: Record<string, string> = {};
  const continued: Record<string, { index: number; text: string; encoded: boolean }[]> = {};
  for (const segment of segments.slice(1)) {
    const equals = segment.indexOf("=");
    if (equals < 0) continue;
    const key = segment.slice(0, equals).trim().toLowerCase();
    let text = segment.slice(equals + 1).trim();
    if (text.startsWith('"') && text.endsWith('"') && text.length >= 2)
      text = text.slice(1, -1).replace(/\\(.)/g, "$1");
    const extended = /^([^*]+)\*(?:(\d+)\*?)?$/.exec(key);
    if (extended) {
      (continued[extended[1] as string] ??= []).push({
        index: Number(extended[2] ?? 0),
        text,
        encoded: key.endsWith("*"),
      });
    } else params[key] = text;
  }
  for (const [key, pieces] of Object.entries(continued)) {
    pieces.sort((a, b) => a.index - b.index);
    const first = pieces[0];
    let charset = "utf-8";
    const texts = pieces.map((piece, position) => {
      let text = piece.text;
      if (position === 0 && first?.encoded) {
        const match = /^([^']*)'[^']*'(.*)$/.exec(text);
        if (match) {
          charset = match[1] || "utf-8";
          text = match[2] as string;
        }
      }
      return piece.encoded ? percentDecode(text) : Buffer.from(text, "latin1");
    });
    params[key] = decodeCharset(Buffer.concat(texts), charset);
  }
  return { value: (segments[0] ?? "").trim(), params };
}

function percentDecode(text: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    const hex = text.slice(index + 1, index + 3);
    if (char === "%" && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else bytes.push(char.charCodeAt(0) & 0xff);
  }
  return Buffer.from(bytes);
}

export function header(headers: MimeHeader[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((item) => item.name.toLowerCase() === lower)?.value;
}

/** Parses a message (or a part) into Gmail's part tree. */
export function parseMime(bytes: Buffer, partId = "", defaultType = "text/plain", depth = 0): MimePart {
  const { head, body } = splitHead(bytes);
  const headers = parseHeaders(head);
  const contentType = parseParameterized(header(headers, "content-type") ?? defaultType);
  let mimeType = contentType.value.toLowerCase() || defaultType;
  if (!mimeType.includes("/")) mimeType = "text/plain";
  const disposition = parseParameterized(header(headers, "content-disposition") ?? "");
  const filename = decodeWords(disposition.params.filename ?? contentType.params.name ?? "");
  const part: MimePart = {
    partId,
    headers,
    mimeType,
    params: contentType.params,
    filename,
    encodedBody: body,
    transferEncoding: (header(headers, "content-transfer-encoding") ?? "7bit").trim().toLowerCase(),
    parts: [],
  };
  const boundary = contentType.params.boundary;
  if (mimeType.startsWith("multipart/") && boundary && depth < 20) {
    const childDefault = mimeType === "multipart/digest" ? "message/rfc822" : "text/plain";
    part.parts = splitMultipart(body, boundary).map((child, index) =>
      parseMime(child, partId === "" ? String(index) : `${partId}.${index}`, childDefault, depth + 1),
    );
    part.encodedBody = Buffer.alloc(0);
  }
  return part;
}

function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let position = body.indexOf(delimiter);
  // A delimiter must start a line.
  while (position > 0 && body[position - 1] !== 0x0a) position = body.indexOf(delimiter, position + 1);
  if (position < 0) return parts;
  for (;;) {
    let start = position + delimiter.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break;
    while (start < body.length && body[start] !== 0x0a) start += 1;
    start += 1;
    let next = body.indexOf(delimiter, start);
    while (next > 0 && body[next - 1] !== 0x0a) next = body.indexOf(delimiter, next + 1);
    if (next < 0) {
      if (start < body.length) parts.push(body.subarray(start));
      break;
    }
    let end = next;
    if (body[end - 1] === 0x0a) end -= 1;
    if (body[end - 1] === 0x0d) end -= 1;
    parts.push(body.subarray(start, Math.max(start, end)));
    position = next;
  }
  return parts;
}

/** The body bytes with the transfer encoding undone. */
export function decodedBody(part: MimePart): Buffer {
  switch (part.transferEncoding) {
    case "base64":
      return Buffer.from(part.encodedBody.toString("latin1").replace(/[^A-Za-z0-9+/=_-]/g, ""), "base64");
    case "quoted-printable":
      return decodeQuotedPrintable(part.encodedBody);
    default:
      return part.encodedBody;
  }
}

/** Parts Gmail serves through `attachments.get` rather than inline `body.data`. */
export function isAttachment(part: MimePart): boolean {
  if (part.mimeType.startsWith("multipart/")) return false;
  if (part.filename !== "") return true;
  return !part.mimeType.startsWith("text/") && part.partId !== "";
}

export function walkParts(part: MimePart, visit: (part: MimePart) => void): void {
  visit(part);
  for (const child of part.parts) walkParts(child, visit);
}

export function findPart(root: MimePart, partId: string): MimePart | undefined {
  let found: MimePart | undefined;
  walkParts(root, (part) => {
    if (part.partId === partId) found = part;
  });
  return found;
}

/** The message's readable text: its first text/plain part, else its first text/html part without tags. */
export function bodyText(root: MimePart): string {
  let plain: MimePart | undefined;
  let html: MimePart | undefined;
  walkParts(root, (part) => {
    if (part.filename !== "") return;
    if (!plain && part.mimeType === "text/plain") plain = part;
    if (!html && part.mimeType === "text/html") html = part;
  });
  if (plain) return decodeCharset(decodedBody(plain), plain.params.charset);
  if (html) return htmlToText(decodeCharset(decodedBody(html), html.params.charset));
  return "";
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Gmail's snippet: the start of the text, whitespace collapsed, HTML-escaped. */
export function snippetOf(text: string): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  let cut = collapsed.slice(0, 200);
  if (collapsed.length > 200) {
    const space = cut.lastIndexOf(" ");
    if (space > 150) cut = cut.slice(0, space);
  }
  return cut
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export interface PayloadJson {
  partId?: string;
  mimeType: string;
  filename?: string;
  headers: MimeHeader[];
  body?: { size: number; data?: string; attachmentId?: string };
  parts?: PayloadJson[];
}

/** Gmail's `payload` for `format=full`. `attachmentId(part)` names the parts served by attachments.get. */
export function payloadJson(part: MimePart, attachmentId: (part: MimePart) => string): PayloadJson {
  const headers = part.headers.map((item) => ({ name: item.name, value: decodeWords(item.value) }));
  const json: PayloadJson = {
    partId: part.partId,
    mimeType: part.mimeType,
    filename: part.filename,
    headers,
  };
  if (part.mimeType.startsWith("multipart/")) {
    json.body = { size: 0 };
    json.parts = part.parts.map((child) => payloadJson(child, attachmentId));
    return json;
  }
  const data = decodedBody(part);
  if (isAttachment(part)) json.body = { attachmentId: attachmentId(part), size: data.length };
  else json.body = data.length > 0 ? { size: data.length, data: data.toString("base64url") } : { size: 0 };
  return json;
}

/** Gmail's `payload` for `format=metadata`: the top-level type and the (selected) headers. */
export function metadataPayloadJson(part: MimePart, only: string[]): PayloadJson {
  const wanted = new Set(only.map((name) => name.toLowerCase()));
  const headers = part.headers
    .filter((item) => wanted.size === 0 || wanted.has(item.name.toLowerCase()))
    .map((item) => ({ name: item.name, value: decodeWords(item.value) }));
  return { mimeType: part.mimeType, headers };
}

/** Addresses (`a@b`) in an address-list header value. */
export function addresses(value: string | undefined): string[] {
  if (!value) return [];
  return [...value.matchAll(/[^\s<>,;"()]+@[^\s<>,;"()]+/g)].map((match) => match[0].toLowerCase());
}

/** Message-IDs (`<...>`) in a Message-ID, References or In-Reply-To header. */
export function messageIds(value: string | undefined): string[] {
  if (!value) return [];
  const found = [...value.matchAll(/<([^<>\s]+)>/g)].map((match) => match[1] as string);
  if (found.length === 0 && value.trim() && !/\s/.test(value.trim())) return [value.trim()];
  return found;
}
