import type { Writable } from "node:stream";
import type { Response } from "express";

/**
 * Writes one chunk of a streamed response (an export, a report) and, when the connection's buffer is full,
 * waits until it has drained. Answers false, without writing, once the connection is closed (the client
 * went away or the download was cut): a closed response never drains, and waiting for it would hold the
 * request open for good.
 */
export function writeChunk(response: Writable, chunk: Buffer | string): Promise<boolean> {
  return new Promise((resolve) => {
    if (response.destroyed || response.writableEnded) {
      resolve(false);
      return;
    }
    if (response.write(chunk)) {
      resolve(true);
      return;
    }
    const settle = (written: boolean) => (): void => {
      response.off("drain", onDrain);
      response.off("close", onClose);
      resolve(written);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    response.once("drain", onDrain);
    response.once("close", onClose);
  });
}

/** A file to send as a download: its name, its type and its bytes, read as they are pulled. */
export interface Download {
  fileName: string;
  contentType: string;
  content: AsyncIterable<Buffer>;
}

/**
 * Answers 200 with the download's headers, then writes its content chunk by chunk, pulling the next chunk
 * only once the connection took the last one. Headers are out before the content is read: a failure midway,
 * or a closed connection, can only cut the download short (the client sees an incomplete file, never a
 * wrong one), and stops reading the content.
 */
export async function sendDownload(response: Response, download: Download): Promise<void> {
  response.status(200);
  response.setHeader("Content-Type", download.contentType);
  response.setHeader("Content-Disposition", `attachment; filename="${download.fileName}"`);
  response.setHeader("Cache-Control", "no-store");
  try {
    for await (const chunk of download.content) {
      if (!(await writeChunk(response, chunk))) throw new Error("The download was closed");
    }
    response.end();
  } catch {
    response.destroy();
  }
}

/**
 * Answers 200 with a CSV report as an attachment named `fileName`, line by line as the connection takes
 * them; when the client goes away nobody is left to answer, so it stops.
 */
export async function sendCsvReport(
  response: Response,
  fileName: string,
  lines: AsyncIterable<string>,
): Promise<void> {
  response.status(200);
  response.setHeader("Content-Type", "text/csv; charset=utf-8");
  response.setHeader("Content-Disposition", `attachment; filename="${fileName}"`);
  response.setHeader("Cache-Control", "no-store");
  for await (const line of lines) {
    if (!(await writeChunk(response, line))) return;
  }
  response.end();
}
