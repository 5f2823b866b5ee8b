/**
 * The mboxrd format (RFC 4155 and the "mboxrd" quoting): each message is a `From ` separator line, its
 * bytes with every line that starts with zero or more ">" followed by "From " quoted by one more ">", and a
 * blank line. Readers undo the quoting, so every message comes back byte for byte (line endings kept).
 */

/** The separator line of a message: `From <sender or MAILER-DAEMON> <asctime date>`. */
export function separator(sender: string, date: Date): string {
  const asctime = date
    .toUTCString()
    .replace(/^(\w{3}), (\d{2}) (\w{3}) (\d{4}) (\S+) GMT$/, "$1 $3 $2 $5 $4");
  const address = /^[^\s@]+@[^\s@]+$/.test(sender) ? sender : "MAILER-DAEMON";
  return `From ${address} ${asctime}\n`;
}

const FROM_LINE = /^(>*From )/gm;

/** One message as an mboxrd entry. */
export function mboxEntry(raw: Buffer, sender: string, date: Date): Buffer {
  // latin1 maps every byte to one code unit and back: the message's bytes are kept exactly.
  const quoted = raw.toString("latin1").replace(FROM_LINE, ">$1");
  const ending = quoted.endsWith("\n") ? "" : "\n";
  return Buffer.from(`${separator(sender, date)}${quoted}${ending}\n`, "latin1");
}

/** Reads an mboxrd file back into its messages (tests and tools). */
export function parseMbox(mbox: Buffer): Buffer[] {
  const text = mbox.toString("latin1");
  const starts = [...text.matchAll(/^From [^\n]*\n/gm)].map((match) => ({
    at: match.index ?? 0,
    length: match[0].length,
  }));
  return starts.map((start, index) => {
    const end = index + 1 < starts.length ? starts[index + 1]!.at : text.length;
    let body = text.slice(start.at + start.length, end);
    body = body.endsWith("\n\n") ? body.slice(0, -1) : body;
    return Buffer.from(body.replace(/^>(>*From )/gm, "$1"), "latin1");
  });
}
