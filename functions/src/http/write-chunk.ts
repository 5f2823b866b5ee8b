import type { Writable } from "node:stream";

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
