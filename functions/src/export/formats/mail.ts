/**
 * Gmail's export formats: one MBOX file (mboxrd, mbox.ts), or a ZIP of one .eml file per message named by
 * its subject and id. A message's date is its search date (the Date header, else Gmail's internal date).
 */
import type { CatalogItem } from "../../engine/runner/catalog";
import { mboxEntry } from "../mbox";
import { entryDate, itemName, safeFileName, type FormatWriter } from "./format";

function mailFacts(item: CatalogItem): { sender: string; date: Date } {
  const search = item.search as { fromEmail?: string; date?: string };
  return { sender: search.fromEmail ?? "", date: entryDate(search.date) };
}

/** An .eml entry's name: the subject made safe for a file name, with the message id to keep it unique. */
function emlPath(item: CatalogItem): string {
  const subject = safeFileName(itemName(item)).slice(0, 80);
  return `${subject || "(no subject)"} - ${item.itemKey}.eml`;
}

export const MBOX: FormatWriter = {
  contentType: "application/mbox",
  extension: "mbox",
  zip: false,
  async write(file, item, read) {
    const raw = await read.content();
    const { sender, date } = mailFacts(item);
    await file.output.write(mboxEntry(raw, sender, date));
  },
};

export const EML: FormatWriter = {
  contentType: "application/zip",
  extension: "zip",
  zip: true,
  async write(file, item, read) {
    const raw = await read.content();
    for await (const piece of file.zip!.entry(emlPath(item), [raw], mailFacts(item).date, raw.length))
      await file.output.write(piece);
  },
};
