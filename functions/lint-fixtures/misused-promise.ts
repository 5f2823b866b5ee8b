/** An async function where a callback's result is ignored: forEach neither waits nor hears a failure. */
async function write(document: string): Promise<void> {
  if (!document) throw new Error("Nothing to write");
}

export function saveAll(documents: string[]): void {
  documents.forEach(async (document) => {
    await write(document);
  });
}
