/** A write whose failure nobody hears: its rejection would end the worker's process. */
async function write(document: string): Promise<void> {
  if (!document) throw new Error("Nothing to write");
}

export function saveAll(documents: string[]): void {
  for (const document of documents) write(document);
}
