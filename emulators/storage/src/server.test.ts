/**
 * The Cloud Storage emulator on the wire: the JSON API's shapes, status codes and headers as the official
 * client relies on them (the client itself drives the emulator in tests/engine/blob-store.test.ts).
 */
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32c, crc32cBase64, md5Base64 } from "./crc32c";
import { startStorageEmulator, type RunningStorageEmulator } from "./server";

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

test("when the emulator stops with save, then a new one restores its objects from the state file", async () => {
  const folder = mkdtempSync(join(tmpdir(), "storage-emulator-"));
  const stateFile = join(folder, "storage", "state.json.gz");
  try {
    const first = await startStorageEmulator({ port: 0, stateFile, autoCreateBuckets: true });
    await fetch(`${first.url}/upload/storage/v1/b/alpvault-demo-saved/o?uploadType=media&name=o/kept`, {
      method: "POST",
      body: "kept bytes",
    });
    await first.stop({ save: true });
    expect(existsSync(stateFile)).toBe(true);
    const second = await startStorageEmulator({ port: 0, stateFile });
    const read = await fetch(`${second.url}/storage/v1/b/alpvault-demo-saved/o/o%2Fkept?alt=media`);
    expect(await read.text()).toBe("kept bytes");
    await second.stop();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
