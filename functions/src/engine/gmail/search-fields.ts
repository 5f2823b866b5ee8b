/** The mail search fields of a message, from its raw header block (docs/backup-format.md §5). */
import { decodeEncodedWords, headerBlock, parseAddressList, parseHeaders } from "./mail-headers";
import { MAX_RECIPIENTS, bounded, displayText, keywordsOf } from "../sources/search-text";
import type { MailSearchFields } from "../sources/source";

/** The mail search fields of a raw message, from its header block only. */
export function mailSearchFields(
  raw: Buffer | Buffer[],
  size: number,
  options: { labels: string[]; internalDate?: number },
): MailSearchFields {
  const headers = parseHeaders(headerBlock(raw));
  const first = (name: string): string => headers.find((header) => header.name === name)?.value ?? "";
  const all = (name: string): string =>
    headers
      .filter((header) => header.name === name)
      .map((header) => header.value)
      .join(", ");
  const subject = decodeEncodedWords(first("subject"));
  const from = parseAddressList(first("from"))[0] ?? { name: "", email: "" };
  const to = parseAddressList(all("to"));
  const cc = parseAddressList(all("cc"));
  const parsedDate = Date.parse(
    first("date")
      .replace(/\([^)]*\)/g, "")
      .trim(),
  );
  const date = Number.isFinite(parsedDate) ? new Date(parsedDate) : new Date(options.internalDate ?? 0);
  const recipients = [...to, ...cc];
  return {
    kind: "mail",
    display: { subject: displayText(subject), fromName: displayText(from.name) },
    subject: bounded(subject),
    fromName: bounded(from.name),
    fromEmail: bounded(from.email),
    to: [...new Set(to.map((address) => bounded(address.email)))].slice(0, MAX_RECIPIENTS),
    date: date.toISOString(),
    labels: options.labels.map((label) => bounded(label)),
    size,
    keywords: keywordsOf([
      subject,
      from.name,
      from.email,
      ...recipients.flatMap((address) => [address.name, address.email]),
    ]),
  };
}
