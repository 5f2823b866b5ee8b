/**
 * A strict little MIME reader, the counterpart of `mime.ts`: parses RFC 822 bytes into headers and a part
 * tree, decodes RFC 2047 words, RFC 2231 parameters, quoted-printable and base64, and throws on anything
 * malformed (bare LF, missing header/body separator, unbalanced boundaries, bad base64 or QP).
 */

export interface ParsedPart {
  /** Unfolded headers in order, names as written. */
  headers: Array<[string, string]>;
  /** Lowercase `type/subtype`. */
  mimeType: string;
  params: Record<string, string>;
  /** Decoded body of a leaf. */
  body?: Buffer;
  children?: ParsedPart[];
}

export function header(part: ParsedPart, name: string): string | undefined {
  return part.headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
}

/** Decodes RFC 2047 encoded words (B and Q), dropping whitespace between adjacent words. */
export function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, text: string) => {
      if (charset.toLowerCase() !== "utf-8") throw new Error(`Unexpected charset ${charset}`);
      if (encoding.toUpperCase() === "B") {
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0)
          throw new Error(`Bad encoded word ${text}`);
        return Buffer.from(text, "base64").toString("utf8");
      }
      const bytes = text
        .replace(/_/g, " ")
        .replace(/=([0-9A-F]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return Buffer.from(bytes, "latin1").toString("utf8");
    });
}

function parseParams(value: string): { mimeType: string; params: Record<string, string> } {
  const first = value.split(";")[0] ?? "";
  const params: Record<string, string> = {};
  const pattern = /;\s*([A-Za-z0-9*_-]+)=("((?:[^"\\]|\\.)*)"|[^;\s]+)/g;
  for (const match of value.matchAll(pattern)) {
    const name = (match[1] as string).toLowerCase();
    const raw = match[3] !== undefined ? match[3].replace(/\\(.)/g, "$1") : (match[2] as string);
    if (name.endsWith("*")) {
      const [, , encoded = ""] = raw.split("'");
      params[name.slice(0, -1)] = decodeURIComponent(encoded);
    } else {
      params[name] = decodeWords(raw);
    }
  }
  return { mimeType: first.trim().toLowerCase(), params };
}

function decodeQuotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  const lines = text.split("\r\n");
  lines.forEach((line, index) => {
    if (line.length > 76) throw new Error("Quoted-printable line longer than 76 characters");
    let soft = false;
    for (let position = 0; position < line.length; position += 1) {
      const character = line[position] as string;
      if (character === "=") {
        if (position === line.length - 1) {
          soft = true;
          break;
        }
        const hex = line.slice(position + 1, position + 3);
        if (!/^[0-9A-F]{2}$/.test(hex)) throw new Error(`Bad quoted-printable escape =${hex}`);
        bytes.push(parseInt(hex, 16));
        position += 2;
      } else {
        const code = character.charCodeAt(0);
        if (code > 126) throw new Error("Unencoded 8-bit byte in quoted-printable");
        bytes.push(code);
      }
    }
    if (!soft && index < lines.length - 1) bytes.push(13, 10);
  });
  return Buffer.from(bytes);
}

function decodeBody(text: string, encoding: string): Buffer {
  switch (encoding) {
    case "base64": {
      const lines = text.split("\r\n").filter((line) => line.length > 0);
      for (const line of lines) {
        if (line.length > 76 || !/^[A-Za-z0-9+/]*={0,2}$/.test(line)) throw new Error("Bad base64 line");
      }
      const joined = lines.join("");
      if (joined.length % 4 !== 0) throw new Error("Base64 length is not a multiple of 4");
      return Buffer.from(joined, "base64");
    }
    case "quoted-printable":
      return decodeQuotedPrintable(text);
    case "7bit":
      if (/[^\t\r\n\x20-\x7e]/.test(text)) throw new Error("8-bit data in a 7bit part");
      return Buffer.from(text, "latin1");
    default:
      throw new Error(`Unexpected transfer encoding ${encoding}`);
  }
}

/** Parses one entity (message or part) given as latin1 text with CRLF line ends. */
function parseEntity(text: string): ParsedPart {
  const split = text.indexOf("\r\n\r\n");
  const headerText = split === -1 && text.endsWith("\r\n") ? text.slice(0, -2) : text.slice(0, split);
  if (split === -1 && !text.endsWith("\r\n")) throw new Error("No blank line between headers and body");
  const bodyText = split === -1 ? "" : text.slice(split + 4);
  const headers: Array<[string, string]> = [];
  for (const line of headerText.split("\r\n")) {
    if (line.length > 998) throw new Error("Header line longer than 998 characters");
    if (/^[ \t]/.test(line)) {
      const last = headers[headers.length - 1];
      if (!last) throw new Error("Continuation line before any header");
      last[1] += line;
    } else {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new Error(`Malformed header line: ${line.slice(0, 40)}`);
      headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
    }
  }
  const part: ParsedPart = { headers, mimeType: "text/plain", params: {} };
  const contentType = header(part, "Content-Type");
  if (contentType) Object.assign(part, parseParams(contentType));
  if (part.mimeType.startsWith("multipart/")) {
    const boundary = part.params.boundary;
    if (!boundary) throw new Error("Multipart without boundary");
    const lines = bodyText.split("\r\n");
    const children: string[][] = [];
    let current: string[] | undefined;
    let closed = false;
    for (const line of lines) {
      if (closed) continue;
      if (line === `--${boundary}`) {
        if (current) children.push(current);
        current = [];
      } else if (line === `--${boundary}--`) {
        if (!current) throw new Error("Closing boundary before any part");
        children.push(current);
        current = undefined;
        closed = true;
      } else if (current) {
        current.push(line);
      }
    }
    if (!closed) throw new Error(`Boundary ${boundary} is never closed`);
    if (children.length === 0) throw new Error("Multipart without parts");
    part.children = children.map((childLines) => parseEntity(childLines.join("\r\n")));
  } else {
    const encoding = (header(part, "Content-Transfer-Encoding") ?? "7bit").toLowerCase();
    part.body = decodeBody(bodyText.replace(/\r\n$/, ""), encoding);
  }
  return part;
}

/** Parses a whole message; throws when it is not well-formed MIME. */
export function parseMessage(raw: Buffer): ParsedPart {
  const text = raw.toString("latin1");
  if (/[^\r]\n/.test(text)) throw new Error("Bare LF in message");
  return parseEntity(text);
}

/** Leaves of a part tree, depth first. */
export function leaves(part: ParsedPart): ParsedPart[] {
  return part.children ? part.children.flatMap(leaves) : [part];
}
