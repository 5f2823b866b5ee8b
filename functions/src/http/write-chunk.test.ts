import { Writable } from "node:stream";
import { writeChunk } from "./write-chunk";

/** A response whose connection takes nothing more until `drain()` (a client that stopped reading). */
function stalledResponse(): { response: Writable; written: Buffer[]; drain(): void } {
  const written: Buffer[] = [];
  const pending: (() => void)[] = [];
  const response = new Writable({
    highWaterMark: 4,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk);
      pending.push(() => callback());
    },
  });
  return { response, written, drain: () => pending.splice(0).forEach((done) => done()) };
}

test("when the connection closes while a write waits for the buffer to drain, then the write answers false instead of waiting for good", async () => {
  const { response } = stalledResponse();
  const waiting = writeChunk(response, Buffer.from("first chunk"));
  response.destroy();
  await expect(waiting).resolves.toBe(false);
  await expect(writeChunk(response, Buffer.from("next chunk"))).resolves.toBe(false);
  expect(response.listenerCount("drain")).toBe(0);
});

test("when the buffer drains, then a write that waited answers true", async () => {
  const { response, written, drain } = stalledResponse();
  const waiting = writeChunk(response, Buffer.from("first chunk"));
  drain();
  await expect(waiting).resolves.toBe(true);
  expect(Buffer.concat(written).toString()).toBe("first chunk");
  expect(response.listenerCount("close")).toBe(0);
});

test("when the buffer has room, then a write answers true at once", async () => {
  const response = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  await expect(writeChunk(response, "line\n")).resolves.toBe(true);
});
