/**
 * The Cloud Storage emulator on the wire: the JSON API's shapes, status codes and headers as the official
 * client relies on them (the client itself drives the emulator in tests/engine/blob-store.test.ts); and
 * where the bytes live: files in the blob directory, the state file holding metadata only.
 */
import { createCipheriv, createHash } from "node:crypto";
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { crc32c, crc32cBase64, crc32cUpdate, md5Base64 } from "./crc32c";
import { startStorageEmulator, storageBlobDir, type RunningStorageEmulator } from "./server";
import { type StorageSnapshot, type StoredObject } from "./store-model";

const BUCKET = "alpvault-demo-wire";

let emulator: RunningStorageEmulator;
const url = (path: string): string => `${emulator.url}${path}`;
const object = (name: string): string => `/storage/v1/b/${BUCKET}/o/${encodeURIComponent(name)}`;

async function upload(name: string, body: string | Buffer, query = ""): Promise<Response> {
  return fetch(
    url(`/upload/storage/v1/b/${BUCKET}/o?uploadType=media&name=${encodeURIComponent(name)}${query}`),
    {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body,
    },
  );
}

beforeAll(async () => {
  emulator = await startStorageEmulator({ port: 0 });
  const created = await fetch(url("/storage/v1/b?project=demo-alpvault"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: BUCKET }),
  });
  expect(created.status).toBe(200);
});

afterAll(() => emulator?.stop());

afterEach(() => emulator.emulator.faults.clear());

test("when CRC32C is computed, then it matches the Castagnoli check value and Cloud Storage's base64 form", () => {
  expect(crc32c(Buffer.from("123456789"))).toBe(0xe3069283);
  expect(crc32cBase64(Buffer.alloc(0))).toBe("AAAAAA==");
  const long = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
  let simple = 0xffffffff;
  for (const byte of long) {
    simple ^= byte;
    for (let bit = 0; bit < 8; bit += 1) simple = simple & 1 ? 0x82f63b78 ^ (simple >>> 1) : simple >>> 1;
  }
  expect(crc32c(long)).toBe((simple ^ 0xffffffff) >>> 0);
});

test("when an object is inserted, then its resource carries generation, size and base64 checksums", async () => {
  const response = await upload("o/a/first", "hello");
  expect(response.status).toBe(200);
  const resource = (await response.json()) as Record<string, string>;
  expect(resource).toMatchObject({
    kind: "storage#object",
    name: "o/a/first",
    bucket: BUCKET,
    size: "5",
    metageneration: "1",
    md5Hash: md5Base64(Buffer.from("hello")),
    crc32c: crc32cBase64(Buffer.from("hello")),
  });
  expect(Number(resource.generation)).toBeGreaterThan(0);
  const metadata = (await (await fetch(url(object("o/a/first")))).json()) as Record<string, string>;
  expect(metadata.generation).toBe(resource.generation);
});

test("when ifGenerationMatch=0 names an existing object, then the insert is 412 conditionNotMet and the object is unchanged", async () => {
  await upload("o/a/once", "first");
  const again = await upload("o/a/once", "second", "&ifGenerationMatch=0");
  expect(again.status).toBe(412);
  const body = (await again.json()) as {
    error: { code: number; message: string; errors: { reason: string }[] };
  };
  expect(body.error.code).toBe(412);
  expect(body.error.errors[0]?.reason).toBe("conditionNotMet");
  expect(await (await fetch(url(`${object("o/a/once")}?alt=media`))).text()).toBe("first");
});

test("when generations and metagenerations are matched, then only the matching ones pass", async () => {
  const resource = (await (await upload("o/a/gen", "v1")).json()) as { generation: string };
  expect((await upload("o/a/gen", "v2", `&ifGenerationMatch=${resource.generation}`)).status).toBe(200);
  expect((await upload("o/a/gen", "v3", `&ifGenerationMatch=${resource.generation}`)).status).toBe(412);
  const patched = await fetch(url(`${object("o/a/gen")}?ifMetagenerationMatch=1`), {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ metadata: { purpose: "test" } }),
  });
  expect(((await patched.json()) as { metageneration: string }).metageneration).toBe("2");
  const stale = await fetch(url(`${object("o/a/gen")}?ifMetagenerationMatch=1`), { method: "DELETE" });
  expect(stale.status).toBe(412);
  expect(
    (await fetch(url(`${object("o/a/gen")}?ifMetagenerationMatch=2`), { method: "DELETE" })).status,
  ).toBe(204);
});

test("when ranges are asked for, then 206 with Content-Range, or 416 past the end", async () => {
  await upload("o/a/range", "0123456789");
  const part = await fetch(url(`${object("o/a/range")}?alt=media`), { headers: { range: "bytes=2-5" } });
  expect(part.status).toBe(206);
  expect(part.headers.get("content-range")).toBe("bytes 2-5/10");
  expect(await part.text()).toBe("2345");
  const suffix = await fetch(url(`${object("o/a/range")}?alt=media`), { headers: { range: "bytes=-3" } });
  expect(await suffix.text()).toBe("789");
  const whole = await fetch(url(`${object("o/a/range")}?alt=media`));
  expect(whole.headers.get("x-goog-hash")).toBe(
    `crc32c=${crc32cBase64(Buffer.from("0123456789"))},md5=${md5Base64(Buffer.from("0123456789"))}`,
  );
  const past = await fetch(url(`${object("o/a/range")}?alt=media`), { headers: { range: "bytes=10-" } });
  expect(past.status).toBe(416);
});

test("when objects are listed with a delimiter and pages, then prefixes collapse and pages continue where they stopped", async () => {
  for (const name of ["d/1", "d/2", "d/x/1", "d/x/2", "d/y/1", "d/z"]) await upload(name, name);
  const seen: { items: string[]; prefixes: string[] } = { items: [], prefixes: [] };
  let token = "";
  let pages = 0;
  do {
    const page = (await (
      await fetch(
        url(`/b/${BUCKET}/o?prefix=d/&delimiter=/&maxResults=2${token ? `&pageToken=${token}` : ""}`),
      )
    ).json()) as { items?: { name: string }[]; prefixes?: string[]; nextPageToken?: string };
    seen.items.push(...(page.items ?? []).map((item) => item.name));
    seen.prefixes.push(...(page.prefixes ?? []));
    token = page.nextPageToken ?? "";
    pages += 1;
  } while (token);
  expect(seen).toEqual({ items: ["d/1", "d/2", "d/z"], prefixes: ["d/x/", "d/y/"] });
  expect(pages).toBe(3);
});

test("when a resumable upload arrives in chunks, then 308 reports the range received until the last chunk completes it", async () => {
  const opened = await fetch(
    url(`/upload/storage/v1/b/${BUCKET}/o?uploadType=resumable&name=o/r/obj&ifGenerationMatch=0`),
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-upload-content-length": "10" },
      body: "{}",
    },
  );
  expect(opened.status).toBe(200);
  const session = opened.headers.get("location") as string;
  expect(session).toContain("upload_id=");
  const first = await fetch(session, {
    method: "PUT",
    headers: { "content-range": "bytes 0-3/10" },
    body: "0123",
  });
  expect(first.status).toBe(308);
  expect(first.headers.get("range")).toBe("bytes=0-3");
  const status = await fetch(session, { method: "PUT", headers: { "content-range": "bytes */10" } });
  expect(status.status).toBe(308);
  expect(status.headers.get("range")).toBe("bytes=0-3");
  // A resent, overlapping chunk only adds what is new.
  const last = await fetch(session, {
    method: "PUT",
    headers: { "content-range": "bytes 2-9/10" },
    body: "23456789",
  });
  expect(last.status).toBe(200);
  expect(((await last.json()) as { size: string }).size).toBe("10");
  expect(await (await fetch(url(`${object("o/r/obj")}?alt=media`))).text()).toBe("0123456789");
});

test("when a resumable session would overwrite an existing object under ifGenerationMatch=0, then it is refused at once with 412", async () => {
  await upload("o/r/exists", "here");
  const opened = await fetch(
    url(`/upload/storage/v1/b/${BUCKET}/o?uploadType=resumable&name=o/r/exists&ifGenerationMatch=0`),
    {
      method: "POST",
      body: "{}",
    },
  );
  expect(opened.status).toBe(412);
});

test("when a multipart upload carries a wrong CRC32C, then it is 400 and nothing is stored", async () => {
  const boundary = "b0undary";
  const body = [
    `--${boundary}`,
    "content-type: application/json",
    "",
    JSON.stringify({ name: "o/m/bad", crc32c: crc32cBase64(Buffer.from("other")) }),
    `--${boundary}`,
    "content-type: application/octet-stream",
    "",
    "payload",
    `--${boundary}--`,
  ].join("\r\n");
  const response = await fetch(url(`/upload/storage/v1/b/${BUCKET}/o?uploadType=multipart`), {
    method: "POST",
    headers: { "content-type": `multipart/related; boundary=${boundary}` },
    body,
  });
  expect(response.status).toBe(400);
  expect((await fetch(url(object("o/m/bad")))).status).toBe(404);
});

test("when things are missing, then 404 notFound in Google's error shape", async () => {
  const response = await fetch(url(object("o/none")));
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ error: { code: 404, errors: [{ reason: "notFound" }] } });
  expect((await fetch(url("/storage/v1/b/alpvault-demo-nope/o"))).status).toBe(404);
});

test("when faults are injected through the admin API, then the next N calls fail and later ones pass", async () => {
  await upload("o/f/obj", "x");
  const added = await fetch(url("/emulator/v1/faults"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ count: 2, status: 503, operation: "storage.objects.get" }),
  });
  expect(added.status).toBe(200);
  expect((await fetch(url(object("o/f/obj")))).status).toBe(503);
  expect((await fetch(url(object("o/f/obj")))).status).toBe(503);
  expect((await fetch(url(object("o/f/obj")))).status).toBe(200);
  const bad = await fetch(url("/emulator/v1/faults"), { method: "POST", body: JSON.stringify({ count: 0 }) });
  expect(bad.status).toBe(400);
  await fetch(url("/emulator/v1/faults"), { method: "POST", body: JSON.stringify({ kind: "reset" }) });
  await expect(fetch(url(object("o/f/obj")))).rejects.toThrow();
});

test("when a hold is injected, then the next matching call waits until the rule is released, and the test hears when it is held", async () => {
  await upload("o/h/obj", "held");
  const added = await fetch(url("/emulator/v1/faults"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind: "hold", operation: "storage.objects.get" }),
  });
  const { id } = (await added.json()) as { id: string };
  let answered = false;
  const read = fetch(url(object("o/h/obj"))).then((response) => {
    answered = true;
    return response.status;
  });
  const held = await fetch(url(`/emulator/v1/faults/${id}/held?count=1`));
  expect(await held.json()).toEqual({ held: 1 });
  expect(answered).toBe(false);
  expect((await fetch(url(`/emulator/v1/faults/${id}`), { method: "DELETE" })).status).toBe(200);
  expect(await read).toBe(200);
  // Used up and released: a second release names nothing; no more is held within the time given.
  expect((await fetch(url(`/emulator/v1/faults/${id}`), { method: "DELETE" })).status).toBe(404);
  expect((await fetch(url(`/emulator/v1/faults/${id}/held?count=2&withinMs=0`))).status).toBe(408);
});

async function uploadTo(base: string, bucket: string, name: string, body: string): Promise<StoredObjectJson> {
  const response = await fetch(
    `${base}/upload/storage/v1/b/${bucket}/o?uploadType=media&name=${encodeURIComponent(name)}`,
    { method: "POST", body },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as StoredObjectJson;
}

async function readText(base: string, bucket: string, name: string): Promise<string | number> {
  const response = await fetch(`${base}/storage/v1/b/${bucket}/o/${encodeURIComponent(name)}?alt=media`);
  return response.status === 200 ? response.text() : response.status;
}

interface StoredObjectJson {
  generation: string;
  size: string;
  md5Hash: string;
  crc32c: string;
}

function readState(stateFile: string): StorageSnapshot {
  return JSON.parse(gunzipSync(readFileSync(stateFile)).toString("utf8")) as StorageSnapshot;
}

/** A folder with `storage/state.json.gz` inside, removed afterwards. */
async function withStateFolder(body: (stateFile: string, objects: string) => Promise<void>): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "storage-emulator-"));
  const stateFile = join(folder, "storage", "state.json.gz");
  try {
    await body(stateFile, storageBlobDir(stateFile));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Bytes of a deterministic stream (an AES-CTR keystream), from any offset: uploads need not keep them. */
function streamBytes(offset: number, length: number): Buffer {
  const aligned = offset - (offset % 16);
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(aligned / 16), 8);
  const cipher = createCipheriv("aes-128-ctr", Buffer.alloc(16, 7), iv);
  const bytes = cipher.update(Buffer.alloc(offset - aligned + length));
  return bytes.subarray(offset - aligned);
}

test("when the emulator stops with save, then the state file holds metadata only and a new emulator serves the bytes from the files it names", async () => {
  await withStateFolder(async (stateFile, objects) => {
    const first = await startStorageEmulator({ port: 0, stateFile, autoCreateBuckets: true });
    expect(first.emulator.store.blobDir).toBe(objects);
    await uploadTo(first.url, "alpvault-demo-saved", "o/kept", "kept bytes");
    const replaced = await uploadTo(first.url, "alpvault-demo-saved", "o/replaced", "first version");
    await uploadTo(first.url, "alpvault-demo-saved", "o/replaced", "second version");
    // Not saved yet: the file of the replaced version stays until the state no longer names it.
    expect(existsSync(join(objects, replaced.generation))).toBe(true);
    await first.stop({ save: true });
    expect(existsSync(join(objects, replaced.generation))).toBe(false);

    const saved = readState(stateFile);
    const objectsSaved = saved.buckets[0]?.objects as StoredObject[];
    expect(objectsSaved.map((object) => object.name)).toEqual(["o/kept", "o/replaced"]);
    for (const object of objectsSaved) {
      expect(object).not.toHaveProperty("data");
      expect(readFileSync(join(objects, object.blob)).length).toBe(object.size);
    }
    expect(readFileSync(join(objects, (objectsSaved[0] as StoredObject).blob), "utf8")).toBe("kept bytes");

    const second = await startStorageEmulator({ port: 0, stateFile });
    expect(await readText(second.url, "alpvault-demo-saved", "o/kept")).toBe("kept bytes");
    expect(await readText(second.url, "alpvault-demo-saved", "o/replaced")).toBe("second version");
    expect(second.emulator.store.bytes("alpvault-demo-saved", "o/kept").toString()).toBe("kept bytes");
    await second.stop();
  });
});

test("when the emulator ends without saving, then the next start serves the saved objects and removes the files nobody names", async () => {
  await withStateFolder(async (stateFile, objects) => {
    const bucket = "alpvault-demo-crash";
    const first = await startStorageEmulator({ port: 0, stateFile, autoCreateBuckets: true });
    await uploadTo(first.url, bucket, "o/a", "a saved");
    await uploadTo(first.url, bucket, "o/b", "b saved");
    await first.stop({ save: true });
    const savedBlobs = (readState(stateFile).buckets[0]?.objects as StoredObject[]).map((o) => o.blob);

    // Changes that are never saved: an overwrite, a delete, a new object, a half-done resumable upload,
    // and a stray file.
    const second = await startStorageEmulator({ port: 0, stateFile, autoCreateBuckets: true });
    await uploadTo(second.url, bucket, "o/a", "a changed");
    expect((await fetch(`${second.url}/storage/v1/b/${bucket}/o/o%2Fb`, { method: "DELETE" })).status).toBe(
      204,
    );
    await uploadTo(second.url, bucket, "o/c", "c new");
    for (const blob of savedBlobs) expect(existsSync(join(objects, blob))).toBe(true);
    const opened = await fetch(
      `${second.url}/upload/storage/v1/b/${bucket}/o?uploadType=resumable&name=o/d`,
      {
        method: "POST",
        body: "{}",
      },
    );
    const session = opened.headers.get("location") as string;
    const chunk = await fetch(session, {
      method: "PUT",
      headers: { "content-range": "bytes 0-3/8" },
      body: "half",
    });
    expect(chunk.status).toBe(308);
    const sessionFile = second.emulator.uploads.sessionFile(
      new URL(session).searchParams.get("upload_id") ?? "",
    );
    expect(readFileSync(sessionFile, "utf8")).toBe("half");
    writeFileSync(join(objects, "stray"), "nobody's");
    await second.stop({ save: false });

    const third = await startStorageEmulator({ port: 0, stateFile });
    expect(await readText(third.url, bucket, "o/a")).toBe("a saved");
    expect(await readText(third.url, bucket, "o/b")).toBe("b saved");
    expect(await readText(third.url, bucket, "o/c")).toBe(404);
    expect(readdirSync(objects).sort()).toEqual([...savedBlobs, "uploads"].sort());
    expect(readdirSync(join(objects, "uploads"))).toEqual([]);
    await third.stop();
  });
});

test("when a state file from before the blob directory carries inline bytes, then they are written to files and served", async () => {
  await withStateFolder(async (stateFile, objects) => {
    const bytes = Buffer.from("legacy inline bytes");
    const legacy = {
      buckets: [
        {
          name: "alpvault-demo-legacy",
          location: "US",
          timeCreated: "2026-01-02T03:04:05.000Z",
          objects: [
            {
              bucket: "alpvault-demo-legacy",
              name: "o/old",
              generation: 1767323045000000,
              metageneration: 2,
              contentType: "application/octet-stream",
              metadata: { purpose: "legacy" },
              data: bytes.toString("base64"),
              md5Hash: md5Base64(bytes),
              crc32c: crc32cBase64(bytes),
              timeCreated: "2026-01-02T03:04:05.000Z",
              updated: "2026-01-02T03:04:06.000Z",
            },
          ],
        },
      ],
    };
    mkdirSync(join(stateFile, ".."), { recursive: true });
    writeFileSync(stateFile, gzipSync(JSON.stringify(legacy)));

    const emulator = await startStorageEmulator({ port: 0, stateFile });
    const resource = (await (
      await fetch(`${emulator.url}/storage/v1/b/alpvault-demo-legacy/o/o%2Fold`)
    ).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({
      generation: "1767323045000000",
      metageneration: "2",
      size: String(bytes.length),
      md5Hash: md5Base64(bytes),
      metadata: { purpose: "legacy" },
    });
    const whole = await fetch(`${emulator.url}/storage/v1/b/alpvault-demo-legacy/o/o%2Fold?alt=media`);
    expect(whole.headers.get("x-goog-hash")).toBe(`crc32c=${crc32cBase64(bytes)},md5=${md5Base64(bytes)}`);
    expect(await whole.text()).toBe("legacy inline bytes");
    expect(readFileSync(join(objects, "1767323045000000"), "utf8")).toBe("legacy inline bytes");
    await emulator.stop({ save: true });

    const saved = readState(stateFile).buckets[0]?.objects[0];
    expect(saved).not.toHaveProperty("data");
    expect(saved).toMatchObject({ size: bytes.length, blob: "1767323045000000" });
  });
});

test("when the emulator has no state file, then its files live in a temporary directory that reset empties and stop removes", async () => {
  const own = await startStorageEmulator({ port: 0, autoCreateBuckets: true });
  const dir = own.emulator.store.blobDir;
  expect(dir.startsWith(tmpdir())).toBe(true);
  const first = await uploadTo(own.url, "alpvault-demo-temp", "o/x", "one");
  await uploadTo(own.url, "alpvault-demo-temp", "o/x", "two");
  // Without a state file nothing can name an old file: it goes at once.
  expect(existsSync(join(dir, first.generation))).toBe(false);
  expect(readdirSync(dir).length).toBe(2); // the live file and uploads/
  expect((await fetch(`${own.url}/emulator/v1/reset`, { method: "POST" })).status).toBe(200);
  expect(readdirSync(dir)).toEqual(["uploads"]);
  await own.stop();
  expect(existsSync(dir)).toBe(false);
});

test("when a session PUT's body does not match its Content-Range, then it is 400 and the session stays where it was", async () => {
  const opened = await fetch(url(`/upload/storage/v1/b/${BUCKET}/o?uploadType=resumable&name=o/r/mismatch`), {
    method: "POST",
    body: "{}",
  });
  const session = opened.headers.get("location") as string;
  expect(
    (await fetch(session, { method: "PUT", headers: { "content-range": "bytes 0-3/8" }, body: "0123" }))
      .status,
  ).toBe(308);
  const wrong = await fetch(session, {
    method: "PUT",
    headers: { "content-range": "bytes 4-7/8" },
    body: "45",
  });
  expect(wrong.status).toBe(400);
  const status = await fetch(session, { method: "PUT", headers: { "content-range": "bytes */8" } });
  expect(status.headers.get("range")).toBe("bytes=0-3");
  const last = await fetch(session, {
    method: "PUT",
    headers: { "content-range": "bytes 4-7/8" },
    body: "4567",
  });
  expect(last.status).toBe(200);
  expect((await last.json()) as StoredObjectJson).toMatchObject({
    size: "8",
    md5Hash: md5Base64(Buffer.from("01234567")),
    crc32c: crc32cBase64(Buffer.from("01234567")),
  });
});

test("when a 72 MiB object arrives by resumable upload in 8 MiB chunks, then it goes to disk chunk by chunk and full and Range reads stream it back", async () => {
  const CHUNK = 8 * 1024 * 1024;
  const TOTAL = 9 * CHUNK;
  const rssBefore = process.memoryUsage().rss;
  const opened = await fetch(url(`/upload/storage/v1/b/${BUCKET}/o?uploadType=resumable&name=o/big/one`), {
    method: "POST",
    headers: { "content-type": "application/json", "x-upload-content-length": String(TOTAL) },
    body: "{}",
  });
  const session = opened.headers.get("location") as string;
  const uploadId = new URL(session).searchParams.get("upload_id") as string;
  const md5 = createHash("md5");
  let crc = 0;
  let resource: StoredObjectJson | undefined;
  for (let start = 0; start < TOTAL; start += CHUNK) {
    const chunk = streamBytes(start, CHUNK);
    md5.update(chunk);
    crc = crc32cUpdate(crc, chunk);
    const answer = await fetch(session, {
      method: "PUT",
      headers: { "content-range": `bytes ${start}-${start + CHUNK - 1}/${TOTAL}` },
      body: chunk,
    });
    if (start + CHUNK < TOTAL) {
      expect(answer.status).toBe(308);
      expect(answer.headers.get("range")).toBe(`bytes=0-${start + CHUNK - 1}`);
      // What arrived so far is on disk, in the session's file.
      expect(statSync(emulator.emulator.uploads.sessionFile(uploadId)).size).toBe(start + CHUNK);
    } else {
      expect(answer.status).toBe(200);
      resource = (await answer.json()) as StoredObjectJson;
    }
  }
  const crcBytes = Buffer.alloc(4);
  crcBytes.writeUInt32BE(crc);
  const expected = {
    size: String(TOTAL),
    md5Hash: md5.digest("base64"),
    crc32c: crcBytes.toString("base64"),
  };
  expect(resource).toMatchObject(expected);
  console.log(
    `72 MiB resumable upload: RSS of the test process (emulator and client) grew by ${Math.round(
      (process.memoryUsage().rss - rssBefore) / 2 ** 20,
    )} MiB (informational)`,
  );

  // The session's file was moved into place; the store keeps metadata, no bytes.
  expect(existsSync(emulator.emulator.uploads.sessionFile(uploadId))).toBe(false);
  const stored = emulator.emulator.store.object(BUCKET, "o/big/one");
  expect(Object.values(stored).some((value) => value instanceof Uint8Array)).toBe(false);
  expect(stored.size).toBe(TOTAL);
  const onDisk = createHash("md5");
  for await (const piece of createReadStream(emulator.emulator.store.blobPath(stored)))
    onDisk.update(piece as Buffer);
  expect(onDisk.digest("base64")).toBe(expected.md5Hash);

  const whole = await fetch(url(`${object("o/big/one")}?alt=media`));
  expect(whole.headers.get("content-length")).toBe(String(TOTAL));
  expect(whole.headers.get("x-goog-hash")).toBe(`crc32c=${expected.crc32c},md5=${expected.md5Hash}`);
  const downloaded = createHash("md5");
  for await (const piece of whole.body as unknown as AsyncIterable<Uint8Array>) downloaded.update(piece);
  expect(downloaded.digest("base64")).toBe(expected.md5Hash);

  // Across the boundary of the first two chunks, the last bytes, and from an offset to the end.
  const across = await fetch(url(`${object("o/big/one")}?alt=media`), {
    headers: { range: `bytes=${CHUNK - 100}-${CHUNK + 99}` },
  });
  expect(across.status).toBe(206);
  expect(across.headers.get("content-range")).toBe(`bytes ${CHUNK - 100}-${CHUNK + 99}/${TOTAL}`);
  expect(across.headers.get("content-length")).toBe("200");
  expect(Buffer.from(await across.arrayBuffer()).equals(streamBytes(CHUNK - 100, 200))).toBe(true);
  const suffix = await fetch(url(`${object("o/big/one")}?alt=media`), { headers: { range: "bytes=-1000" } });
  expect(suffix.headers.get("content-range")).toBe(`bytes ${TOTAL - 1000}-${TOTAL - 1}/${TOTAL}`);
  expect(Buffer.from(await suffix.arrayBuffer()).equals(streamBytes(TOTAL - 1000, 1000))).toBe(true);
  const tail = await fetch(url(`${object("o/big/one")}?alt=media`), {
    headers: { range: `bytes=${TOTAL - 7}-` },
  });
  expect(tail.status).toBe(206);
  expect(Buffer.from(await tail.arrayBuffer()).equals(streamBytes(TOTAL - 7, 7))).toBe(true);

  expect((await fetch(url(object("o/big/one")), { method: "DELETE" })).status).toBe(204);
  expect(existsSync(emulator.emulator.store.blobPath(stored))).toBe(false);
}, 120_000);
