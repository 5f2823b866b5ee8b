/**
 * RFC 5322 header parsing for the mail search fields: the header block of a raw message (never its body),
 * unfolded headers, RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?ISO-8859-1?Q?…?=`) and address lists
 * with display names (quoted strings, comments, groups).
 */

/** Longest header block read (Gmail refuses far smaller header sections). */
export const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * The header block: everything before the first empty line (or the whole text when there is none), read
 * from the leading parts of a message that may arrive in several buffers, at most `MAX_HEADER_BYTES`.
 */
export function headerBlock(raw: Buffer | Buffer[]): string {
  const parts = Array.isArray(raw) ? raw : [raw];
  const leading: Buffer[] = [];
  let length = 0;
  for (const part of parts) {
    if (length >= MAX_HEADER_BYTES) break;
    leading.push(part);
    length += part.length;
    if (part.includes("\n\n") || part.includes("\n\r\n")) break;
  }
  const head = Buffer.concat(leading).subarray(0, MAX_HEADER_BYTES);
  let end = head.length;
  for (let index = 0; index < head.length - 1; index += 1) {
    if (head[index] !== 0x0a) continue;
    const next = head[index + 1];
    if (next === 0x0a || (next === 0x0d && head[index + 2] === 0x0a)) {
      end = index;
      break;
    }
  }
  // Headers are ASCII; raw UTF-8 (RFC 6532) is read as UTF-8.
  return head.subarray(0, end).toString("utf8");
}

/** Unfolded headers, names lower-cased, in order. */
export function parseHeaders(block: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const line of block.split(/\r?\n/)) {
    const last = out[out.length - 1];
    if (/^[ \t]/.test(line) && last) {
      last.value += line.replace(/^[ \t]+/, " ");
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    out.push({ name: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() });
  }
  return out;
}

function decodeCharset(bytes: Buffer, charset: string): string {
  const label = charset.toLowerCase().replace(/\*.*$/, ""); // RFC 2231 language suffix
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}

function decodeWord(charset: string, encoding: string, text: string): string {
  if (encoding.toUpperCase() === "B") return decodeCharset(Buffer.from(text, "base64"), charset);
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === "_") bytes.push(0x20);
    else if (char === "=" && /^[0-9a-f]{2}$/i.test(text.slice(index + 1, index + 3))) {
      bytes.push(parseInt(text.slice(index + 1, index + 3), 16));
      index += 2;
    } else bytes.push(char.charCodeAt(0) & 0xff);
  }
  return decodeCharset(Buffer.from(bytes), charset);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=/gi;

/** Decodes RFC 2047 encoded words; whitespace between two adjacent encoded words is dropped. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?\s]+\?[bq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[bq]\?[^?\s]*\?=)/gi, "$1")
    .replace(ENCODED_WORD, (_match, charset: string, encoding: string, text: string) =>
      decodeWord(charset, encoding, text),
    );
}

export interface Mailbox {
  name: string;
  email: string;
}

type Token = { kind: "word" | "quoted" | "special" | "comment"; text: string };

function tokenize(value: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < value.length) {
    const char = value[index] as string;
    if (/\s/.test(char)) {
      index += 1;
    } else if (char === '"') {
      let text = "";
      index += 1;
      while (index < value.length && value[index] !== '"') {
        if (value[index] === "\\" && index + 1 < value.length) index += 1;
        text += value[index];
        index += 1;
      }
      index += 1;
      tokens.push({ kind: "quoted", text });
    } else if (char === "(") {
      // Comments (nested): kept as a name for `a@b (Name)`, dropped elsewhere.
      let depth = 0;
      let text = "";
      while (index < value.length) {
        const current = value[index] as string;
        if (current === "\\") {
          index += 1;
          text += value[index] ?? "";
        } else if (current === "(") {
          if (depth > 0) text += current;
          depth += 1;
        } else if (current === ")") {
          depth -= 1;
          if (depth === 0) {
            index += 1;
            break;
          }
          text += current;
        } else text += current;
        index += 1;
      }
      tokens.push({ kind: "comment", text });
    } else if ("<>,:;@".includes(char)) {
      tokens.push({ kind: "special", text: char });
      index += 1;
    } else {
      let text = "";
      while (index < value.length && !/[\s"(<>,:;@]/.test(value[index] as string)) {
        text += value[index];
        index += 1;
      }
      tokens.push({ kind: "word", text });
    }
  }
  return tokens;
}

/** Joins display-name tokens: words with spaces, encoded words decoded. */
function displayName(tokens: Token[]): string {
  const parts = tokens.filter((token) => token.kind !== "comment").map((token) => token.text);
  return decodeEncodedWords(parts.join(" ")).replace(/\s+/g, " ").trim();
}

/**
 * Parses an address list (`From`, `To`, `Cc`): `Name <a@b>`, `"Last, First" <a@b>`, `a@b (Name)`,
 * `=?UTF-8?B?…?= <a@b>`, groups `Team: a@b, c@d;`. Entries without an address are skipped.
 */
export function parseAddressList(value: string): Mailbox[] {
  const out: Mailbox[] = [];
  const tokens = tokenize(value);
  let current: Token[] = [];
  const flush = (): void => {
    const entry = current;
    current = [];
    if (entry.length === 0) return;
    const open = entry.findIndex((token) => token.kind === "special" && token.text === "<");
    if (open >= 0) {
      const close = entry.findIndex((token, index) => index > open && token.text === ">");
      const address = entry
        .slice(open + 1, close < 0 ? undefined : close)
        .map((token) => token.text)
        .join("");
      const email = address.replace(/^.*:/, ""); // obsolete source routes
      if (email.includes("@"))
        out.push({ name: displayName(entry.slice(0, open)), email: email.toLowerCase() });
      return;
    }
    const email = entry
      .filter((token) => token.kind !== "comment")
      .map((token) => token.text)
      .join("");
    const comment = entry.find((token) => token.kind === "comment");
    const name = comment ? decodeEncodedWords(comment.text).trim() : "";
    if (email.includes("@")) out.push({ name, email: email.toLowerCase() });
  };
  let inAngle = false;
  for (const token of tokens) {
    if (token.kind === "special") {
      if (token.text === "<") inAngle = true;
      if (token.text === ">") inAngle = false;
      if (!inAngle && token.text === ",") {
        flush();
        continue;
      }
      if (!inAngle && token.text === ":") {
        current = []; // group name
        continue;
      }
      if (!inAngle && token.text === ";") {
        flush();
        continue;
      }
    }
    current.push(token);
  }
  flush();
  return out;
}
