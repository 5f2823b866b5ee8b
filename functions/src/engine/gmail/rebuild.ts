/**
 * An RFC 822 message rebuilt from a `messages.get format=full` payload, for the messages Gmail keeps no raw
 * form of: old Hangouts/Talk chats (system label `CHAT`) answer `format=raw` without `raw` (Google's
 * [Format](https://developers.google.com/workspace/gmail/api/reference/rest/v1/Format) reference names
 * `raw` as the message's RFC 822 form; chats have none). The payload still has every part's headers and
 * its decoded body (inline `body.data`, or an `attachmentId` for `messages.attachments.get`).
 *
 * What is written: each part's headers as Gmail gives them, but its `Content-Transfer-Encoding` (bodies
 * are re-encoded: 7bit when they are short ASCII lines, else base64; `message/*` parts 8bit or binary,
 * never base64) and, for multiparts, a boundary of our own (a digest of the parts, so the same payload
 * always gives the same bytes). Gmail gives header values with RFC 2047 words decoded: non-ASCII values
 * are encoded again (unstructured ones as encoded words, display names of address lists as one encoded
 * word each; anything else is kept as UTF-8, RFC 6532). Rebuilt bytes are held in memory (a chat is small).
 */
import { createHash } from "node:crypto";
import type { gmail_v1 } from "@googleapis/gmail";
import { ItemNotReadError } from "../sources/source";

export type MessagePart = gmail_v1.Schema$MessagePart;

/** `ItemMetadata.rebuilt` of a version whose bytes were rebuilt from the payload. */
export const REBUILT_FROM_FULL = "from-full-format";

/** The item error's reason of a message Gmail answered with neither raw bytes nor a payload. */
export const NO_MESSAGE_CONTENT = "no-message-content";

/**
 * Gmail answered the message with neither its raw form nor a payload: there is nothing to keep. Recorded
 * on the item with the reason `no-message-content` (the run goes on, the next run tries the message
 * again), never as a 0-byte success.
 */
export class MessageWithoutContentError extends ItemNotReadError {
  constructor(itemKey: string) {
    super(itemKey, NO_MESSAGE_CONTENT);
    this.name = "MessageWithoutContentError";
  }
}

const CRLF = "\r\n";
const MAX_LINE = 998;
/** Header names a payload may carry that we write again ourselves. */
const REWRITTEN = new Set(["content-transfer-encoding"]);
const ADDRESS_HEADERS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "reply-to",
  "sender",
  "resent-from",
  "resent-to",
  "resent-cc",
  "resent-bcc",
  "resent-sender",
  "delivered-to",
]);
const UNSTRUCTURED_HEADERS = new Set([
  "subject",
  "comments",
  "keywords",
  "thread-topic",
  "content-description",
]);

/** Whether a payload has anything to rebuild a message from. */
export function hasContent(payload: MessagePart | null | undefined): payload is MessagePart {
  if (!payload) return false;
  return (
    (payload.headers?.length ?? 0) > 0 ||
    (payload.parts?.length ?? 0) > 0 ||
    !!payload.body?.data ||
    !!payload.body?.attachmentId
  );
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** RFC 2047 B-encoded words of `text`, each within 75 characters, split between code points. */
function encodedWords(text: string): string {
  const words: string[] = [];
  let chunk = "";
  for (const char of text) {
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString("base64")}?=`).join(`${CRLF} `);
}

/** An address list with each non-ASCII display name as encoded words (`"Zoë" <z@x>` → `=?UTF-8?B?…?= <z@x>`). */
function encodeAddressList(value: string): string {
  return value.replace(
    /(^|,)(\s*)("(?:[^"\\]|\\.)*"|[^,<"]*?)(\s*<[^<>]*>)/g,
    (match, lead: string, space: string, phrase: string, address: string) => {
      if (!NON_ASCII.test(phrase)) return match;
      const name = phrase.startsWith('"') ? phrase.slice(1, -1).replace(/\\(.)/g, "$1") : phrase.trim();
      return `${lead}${space}${encodedWords(name)}${address}`;
    },
  );
}

/** A header line as written: one line (Gmail's values are unfolded), non-ASCII encoded where it can be. */
function headerLine(name: string, value: string): string {
  const single = value.replace(/\r\n|\r|\n/g, " ");
  const lower = name.toLowerCase();
  if (!NON_ASCII.test(single)) return `${name}: ${single}`;
  if (UNSTRUCTURED_HEADERS.has(lower)) return `${name}: ${encodedWords(single)}`;
  if (ADDRESS_HEADERS.has(lower)) return `${name}: ${encodeAddressList(single)}`;
  return `${name}: ${single}`;
}

/** The part's own headers (names RFC 5322 allows), without those we write ourselves. */
function headersOf(part: MessagePart, drop: ReadonlySet<string>): { name: string; value: string }[] {
  return (part.headers ?? []).flatMap((header) =>
    header.name && /^[\x21-\x39\x3b-\x7e]+$/.test(header.name) && !drop.has(header.name.toLowerCase())
      ? [{ name: header.name, value: header.value ?? "" }]
      : [],
  );
}

function hasHeader(headers: { name: string }[], name: string): boolean {
  return headers.some((header) => header.name.toLowerCase() === name);
}

/** Bytes that go as they are under 7bit (or 8bit when `eightBit`): no NUL, no bare CR, short lines. */
function fitsLines(data: Buffer, eightBit: boolean): boolean {
  let line = 0;
  for (let index = 0; index < data.length; index += 1) {
    const byte = data[index] as number;
    if (byte === 0 || (byte > 0x7f && !eightBit)) return false;
    if (byte === 0x0d && data[index + 1] !== 0x0a) return false;
    if (byte === 0x0a) line = 0;
    else if (++line > MAX_LINE) return false;
  }
  return true;
}

function base64Lines(data: Buffer): string {
  return data.toString("base64").replace(/.{1,76}/g, `$&${CRLF}`);
}

/** A leaf's body and the transfer encoding it is written in. */
function encodeBody(data: Buffer, mimeType: string): { encoding: string; body: Buffer } {
  if (fitsLines(data, false)) return { encoding: "7bit", body: data };
  // RFC 2046: a message/* part is never base64 or quoted-printable.
  if (mimeType.startsWith("message/")) {
    return { encoding: fitsLines(data, true) ? "8bit" : "binary", body: data };
  }
  return { encoding: "base64", body: Buffer.from(base64Lines(data), "latin1") };
}

function withBoundary(contentType: string | undefined, mimeType: string, boundary: string): string {
  const kept = (contentType ?? mimeType).replace(/;\s*boundary\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/gi, "");
  return `${kept}; boundary="${boundary}"`;
}

/** A boundary that none of the parts' bytes hold, from their digest (the same parts give the same one). */
function boundaryFor(children: Buffer[]): string {
  const hash = createHash("sha256");
  for (const child of children) hash.update(child);
  const base = `rebuilt-${hash.digest("hex").slice(0, 32)}`;
  for (let suffix = 0; ; suffix += 1) {
    const boundary = suffix === 0 ? base : `${base}-${suffix}`;
    if (!children.some((child) => child.includes(`--${boundary}`))) return boundary;
  }
}

/** Reads an attachment's bytes (`messages.attachments.get`, through the caller). */
export type AttachmentReader = (attachmentId: string) => Promise<Buffer>;

async function partBytes(part: MessagePart, attachment: AttachmentReader, top: boolean): Promise<Buffer> {
  const mimeType = (part.mimeType ?? "text/plain").toLowerCase();
  const contentType = (part.headers ?? []).find((header) => header.name?.toLowerCase() === "content-type");
  const headers = headersOf(
    part,
    new Set([...REWRITTEN, ...(mimeType.startsWith("multipart/") ? ["content-type"] : [])]),
  );
  if (top && !hasHeader(headers, "mime-version")) headers.push({ name: "MIME-Version", value: "1.0" });
  let body: Buffer;
  if (mimeType.startsWith("multipart/")) {
    const children: Buffer[] = [];
    for (const child of part.parts ?? []) children.push(await partBytes(child, attachment, false));
    const boundary = boundaryFor(children);
    headers.push({
      name: "Content-Type",
      value: withBoundary(contentType?.value ?? undefined, mimeType, boundary),
    });
    body = Buffer.concat([
      ...children.flatMap((child) => [Buffer.from(`--${boundary}${CRLF}`), child, Buffer.from(CRLF)]),
      Buffer.from(`--${boundary}--${CRLF}`),
    ]);
  } else if (mimeType.startsWith("message/") && part.parts?.[0]) {
    // An attached message Gmail parsed into its own part: rebuilt as a message of its own.
    body = await partBytes(part.parts[0], attachment, false);
    headers.push({ name: "Content-Transfer-Encoding", value: fitsLines(body, false) ? "7bit" : "8bit" });
  } else {
    const data = part.body?.data
      ? Buffer.from(part.body.data, "base64url")
      : part.body?.attachmentId
        ? await attachment(part.body.attachmentId)
        : Buffer.alloc(0);
    const encoded = encodeBody(data, mimeType);
    if (!hasHeader(headers, "content-type")) headers.push({ name: "Content-Type", value: mimeType });
    headers.push({ name: "Content-Transfer-Encoding", value: encoded.encoding });
    body = encoded.body;
  }
  const head = headers.map((header) => headerLine(header.name, header.value)).join(CRLF);
  return Buffer.concat([Buffer.from(`${head}${CRLF}${CRLF}`, "utf8"), body]);
}

/**
 * The RFC 822 bytes of message `id` from its `format=full` payload; attachments Gmail serves apart are
 * read with `attachment`. Throws `MessageWithoutContentError` when the payload has nothing to rebuild from.
 */
export async function rebuildMessage(
  id: string,
  payload: MessagePart | null | undefined,
  attachment: AttachmentReader,
): Promise<Buffer> {
  if (!hasContent(payload)) throw new MessageWithoutContentError(id);
  return partBytes(payload, attachment, true);
}
