/**
 * Reads a streamed `messages.get format=raw` answer without holding it whole: the JSON around `raw` is
 * kept (it is small) and parsed, while the `raw` string is base64url-decoded as it arrives. Peak memory is
 * the decoded message plus one network chunk, instead of the JSON text, the parsed string and the bytes
 * (about 4× the message) with a buffered response.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Incremental base64url (or base64) decoding: whole 4-character groups as they arrive. */
class Base64Decoder {
  private pending = "";
  readonly parts: Buffer[] = [];

  write(text: string): void {
    const all = this.pending + text.replace(/\s+/g, "");
    const whole = all.length - (all.length % 4);
    if (whole > 0) this.parts.push(Buffer.from(all.slice(0, whole), "base64url"));
    this.pending = all.slice(whole);
  }

  end(): void {
    if (this.pending) this.parts.push(Buffer.from(this.pending, "base64url"));
    this.pending = "";
  }
}

/**
 * Splits a message JSON stream into the message without `raw` (parsed) and the decoded `raw` bytes.
 * Only a top-level `"raw"` key is treated specially; JSON escapes inside it (`\/`, `\u…`) are honoured.
 */
export async function readRawMessage(
  stream: AsyncIterable<Buffer | Uint8Array | string>,
): Promise<{ message: Record<string, unknown>; raw: Buffer[]; rawLength: number }> {
  const kept: Buffer[] = [];
  const decoder = new Base64Decoder();
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** Text of the string being read at depth 1 (keys only need their first few characters). */
  let text = "";
  /** Whether the string being read at depth 1 is in a key position. */
  let keyPosition = false;
  /** After `{` or `,` at depth 1 the next string is a key. */
  let expectKey = false;
  /** 0 nothing, 1 read the key "raw", 2 read its colon. */
  let rawKey = 0;
  let inRaw = false;
  let rawEscape = "";

  for await (const piece of stream) {
    const chunk = typeof piece === "string" ? Buffer.from(piece) : Buffer.from(piece);
    let start = 0;
    let index = 0;
    while (index < chunk.length) {
      if (inRaw) {
        if (rawEscape) {
          // An escape inside raw (rare: `\/` from some serialisers, or `\uXXXX`).
          rawEscape += String.fromCharCode(chunk[index] as number);
          index += 1;
          if (rawEscape.startsWith("\\u") ? rawEscape.length === 6 : rawEscape.length === 2) {
            decoder.write(JSON.parse(`"${rawEscape}"`) as string);
            rawEscape = "";
          }
          start = index;
          continue;
        }
        const quote = chunk.indexOf(QUOTE, index);
        const slash = chunk.indexOf(BACKSLASH, index);
        const stop = [quote, slash].filter((at) => at >= 0).reduce((a, b) => Math.min(a, b), chunk.length);
        if (stop > index) decoder.write(chunk.toString("latin1", index, stop));
        index = stop;
        if (index >= chunk.length) break;
        if (chunk[index] === BACKSLASH) {
          rawEscape = "\\";
          index += 1;
          continue;
        }
        // The closing quote: the kept JSON gets `""` for raw.
        decoder.end();
        inRaw = false;
        start = index;
        index += 1;
        continue;
      }
      const byte = chunk[index] as number;
      index += 1;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          inString = false;
          if (depth === 1 && keyPosition) rawKey = text === "raw" ? 1 : 0;
        } else if (depth === 1 && keyPosition && text.length < 8) text += String.fromCharCode(byte);
        continue;
      }
      if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
      if (byte === QUOTE) {
        if (depth === 1 && rawKey === 2) {
          kept.push(chunk.subarray(start, index));
          start = index;
          inRaw = true;
          rawKey = 0;
          continue;
        }
        inString = true;
        keyPosition = depth === 1 && expectKey;
        expectKey = false;
        text = "";
        continue;
      }
      if (byte === 0x3a && depth === 1 && rawKey === 1) {
        rawKey = 2;
        continue;
      }
      rawKey = 0;
      if (byte === 0x7b || byte === 0x5b) {
        depth += 1;
        expectKey = depth === 1 && byte === 0x7b;
      } else if (byte === 0x7d || byte === 0x5d) depth -= 1;
      else if (byte === 0x2c) expectKey = depth === 1;
    }
    if (!inRaw && start < chunk.length) kept.push(chunk.subarray(start));
  }
  if (inRaw || inString || depth !== 0) throw new Error("The message answer ended early");
  const message = JSON.parse(Buffer.concat(kept).toString("utf8")) as Record<string, unknown>;
  const rawLength = decoder.parts.reduce((total, part) => total + part.length, 0);
  return { message, raw: decoder.parts, rawLength };
}
