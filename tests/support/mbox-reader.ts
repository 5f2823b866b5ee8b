/**
 * An MBOX reader written apart from the product's writer (functions/src/export/mbox.ts), so a test does not
 * check the writer with its own mirror: it reads a stream line by line (never the whole file), splits
 * messages at `From ` lines that follow a blank line (or start the file), drops the blank line that ends
 * each message, and undoes mboxrd quoting (`>From ` → `From `, one `>` less on `>>From `…).
 */
import type { Readable } from "node:stream";

/** Each message's bytes, in order, from an mboxrd stream. */
export async function* readMbox(source: Readable | AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let carry = Buffer.alloc(0);
  let message: Buffer[] | undefined;
  let previousBlank = true;
  const endMessage = (): Buffer | undefined => {
    if (!message) return undefined;
    // The separator's blank line is not the message's.
    const last = message[message.length - 1];
    if (last && last.length === 1 && last[0] === 0x0a) message.pop();
    return Buffer.concat(message);
  };
  const lineOf = function* (line: Buffer): Generator<Buffer> {
    const isSeparator = previousBlank && line.subarray(0, 5).toString("latin1") === "From ";
    if (isSeparator) {
      const done = endMessage();
      if (done) yield done;
      message = [];
    } else {
      if (!message) throw new Error("The MBOX does not start with a From line");
      let quotes = 0;
      while (line[quotes] === 0x3e) quotes++;
      const unquoted =
        quotes > 0 && line.subarray(quotes, quotes + 5).toString("latin1") === "From "
          ? line.subarray(1)
          : line;
      message.push(Buffer.from(unquoted));
    }
    previousBlank = line.length === 1 && line[0] === 0x0a;
  };
  for await (const piece of source as AsyncIterable<Buffer>) {
    let data = carry.length > 0 ? Buffer.concat([carry, piece]) : piece;
    let start = 0;
    for (let newline = data.indexOf(0x0a, start); newline !== -1; newline = data.indexOf(0x0a, start)) {
      yield* lineOf(data.subarray(start, newline + 1));
      start = newline + 1;
    }
    carry = Buffer.from(data.subarray(start));
    data = Buffer.alloc(0);
  }
  if (carry.length > 0) yield* lineOf(carry);
  const last = endMessage();
  if (last) yield last;
}
