import { Writable } from "node:stream";
import express, { type Response } from "express";
import request from "supertest";
import { sendDownload, writeChunk } from "./write-chunk";

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

describe("sendDownload", () => {
  function app(content: () => AsyncIterable<Buffer>) {
    const server = express();
    server.get("/file", async (_request, response) => {
      await sendDownload(response, {
        fileName: "anna.mbox",
        contentType: "application/mbox",
        content: content(),
      });
    });
    return server;
  }

  test("when the content is read to its end, then the answer is 200 with the file's headers and every chunk", async () => {
    const answer = await request(
      app(async function* () {
        yield Buffer.from("From a\n");
        yield Buffer.from("From b\n");
      }),
    ).get("/file");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/mbox");
    expect(answer.headers["content-disposition"]).toBe('attachment; filename="anna.mbox"');
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.text).toBe("From a\nFrom b\n");
  });

  test("when the content fails midway, then the download is cut short instead of ending as if complete", async () => {
    const answer = request(
      app(async function* () {
        yield Buffer.from("From a\n");
        throw new Error("damaged chunk");
      }),
    ).get("/file");
    await expect(answer).rejects.toThrow();
  });

  test("when the connection closes while a chunk waits, then no further chunk is read", async () => {
    const { response } = stalledResponse();
    const fake = Object.assign(response, {
      status: () => fake,
      setHeader: () => fake,
    }) as unknown as Response;
    let pulled = 0;
    const sending = sendDownload(fake, {
      fileName: "anna.mbox",
      contentType: "application/mbox",
      content: (async function* () {
        pulled += 1;
        yield Buffer.from("first chunk");
        pulled += 1;
        yield Buffer.from("second chunk");
      })(),
    });
    await new Promise((resolve) => setImmediate(resolve));
    response.destroy();
    await sending;
    expect(pulled).toBe(1);
  });
});
