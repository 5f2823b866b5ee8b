/** Promises that are awaited, returned, or handed to an error handler: nothing to report. */
async function write(document: string): Promise<void> {
  if (!document) throw new Error("Nothing to write");
}

export async function saveAll(documents: string[]): Promise<void> {
  for (const document of documents) await write(document);
  await Promise.all(documents.map((document) => write(document)));
}

export function saveLater(document: string, failed: (error: unknown) => void): Promise<void> {
  write(document).catch(failed);
  return write(document);
}
