/**
 * Customer-managed encryption keys (CMEK) in the Cloud Storage emulator, against a KMS emulator of its own:
 * an object uploaded under a key names the key version that wrapped its data key, its bytes at rest are
 * sealed, and every read unwraps the data key again, so the object is unreadable while that version is
 * disabled or destroyed (JSON media and signed XML reads alike) and readable again once it is enabled; its
 * metadata stays readable. Unknown, versioned, malformed and misplaced keys are refused with Cloud Storage's
 * errors, a bucket's default key applies, and a saved state keeps the wrapped keys.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Storage } from "@google-cloud/storage";
import { startKmsEmulator, type RunningKmsEmulator } from "../../kms/src/index";
import { crc32cBase64, md5Base64 } from "./crc32c";
import { SEGMENT_BYTES, sealedLength } from "./sealed-blobs";
import { startStorageEmulator, type RunningStorageEmulator } from "./server";
import { type StorageSnapshot, type StoredObject } from "./store-model";

const BUCKET = "alpvault-demo-cmek";
const LOCATION = "projects/alpvault-customer/locations/europe-west6";
const SIGNER = "signer@demo-alpvault.iam.gserviceaccount.com";
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

let kms: RunningKmsEmulator;
let storage: RunningStorageEmulator;

/** Plaintext that is easy to look for on disk: a marker line repeated past several segments. */
function marked(label: string, bytes = 3 * SEGMENT_BYTES + 1234): Buffer {
  const line = Buffer.from(`PLAINTEXT ${label} — Ada's mailbox, not for the disk.\n`);
  return Buffer.concat(Array.from({ length: Math.ceil(bytes / line.length) }, () => line)).subarray(0, bytes);
}

async function kmsCall(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${kms.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`KMS ${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

let rings = 0;
/** A new key ring with one symmetric key (version 1 enabled and primary); its name. */
async function newKey(location = LOCATION): Promise<string> {
  rings += 1;
  await kmsCall("POST", `/v1/${location}/keyRings?keyRingId=ring-${rings}`, {});
  const key = await kmsCall("POST", `/v1/${location}/keyRings/ring-${rings}/cryptoKeys?cryptoKeyId=backups`, {
    purpose: "ENCRYPT_DECRYPT",
  });
  return key.name as string;
}

/** What a customer does in Cloud KMS: PATCH the version's state (DESTROYED through the emulator's admin API). */
async function setVersionState(version: string, state: "ENABLED" | "DISABLED" | "DESTROYED"): Promise<void> {
  if (state === "DESTROYED") await kmsCall("POST", `/emulator/v1/${version}:setState`, { state });
  else await kmsCall("PATCH", `/v1/${version}?updateMask=state`, { state });
}

const objectPath = (name: string, bucket = BUCKET): string =>
  `${storage.url}/storage/v1/b/${bucket}/o/${encodeURIComponent(name)}`;

async function upload(name: string, body: Buffer, query = "", bucket = BUCKET): Promise<Response> {
  return fetch(
    `${storage.url}/upload/storage/v1/b/${bucket}/o?uploadType=media&name=${encodeURIComponent(name)}${query}`,
    { method: "POST", headers: { "content-type": "application/octet-stream" }, body },
  );
}

async function uploadUnder(key: string, name: string, body: Buffer): Promise<Record<string, string>> {
  const response = await upload(name, body, `&kmsKeyName=${encodeURIComponent(key)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, string>;
}

async function download(name: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${objectPath(name)}?alt=media`, { headers });
}

/** Google's JSON error of a response: its status, reason and message. */
async function jsonError(response: Response): Promise<{ status: number; reason?: string; message?: string }> {
  const body = (await response.json()) as {
    error: { code: number; message: string; errors: { reason: string; message: string; domain: string }[] };
  };
  expect(body.error.code).toBe(response.status);
  expect(body.error.errors[0]?.message).toBe(body.error.message);
  expect(body.error.errors[0]?.domain).toBe("global");
  return { status: response.status, reason: body.error.errors[0]?.reason, message: body.error.message };
}

function signer(): Storage {
  return new Storage({
    projectId: "demo-alpvault",
    apiEndpoint: storage.url,
    useAuthWithCustomEndpoint: false,
    credentials: { client_email: SIGNER, private_key: privateKey },
  });
}

async function signedUrl(name: string): Promise<string> {
  const [url] = await signer()
    .bucket(BUCKET)
    .file(name)
    .getSignedUrl({ version: "v4", action: "read", expires: Date.now() + 15 * 60_000 });
  return url;
}

beforeAll(async () => {
  kms = await startKmsEmulator({ port: 0 });
  storage = await startStorageEmulator({
    port: 0,
    kmsEndpoint: kms.url,
    signingAccounts: () => [{ clientEmail: SIGNER, key: privateKey }],
  });
  const created = await fetch(`${storage.url}/storage/v1/b?project=demo-alpvault`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: BUCKET, location: "europe-west6" }),
  });
  expect(created.status).toBe(200);
});

afterAll(async () => {
  await storage?.stop();
  await kms?.stop();
});

test("when an object is uploaded with kmsKeyName, then its resource names the key version, its file holds no plaintext and reads (whole and ranged) give the bytes back", async () => {
  const key = await newKey();
  const plaintext = marked("one");
  const resource = await uploadUnder(key, "o/org/x/one", plaintext);
  expect(resource).toMatchObject({
    kmsKeyName: `${key}/cryptoKeyVersions/1`,
    size: String(plaintext.length),
    md5Hash: md5Base64(plaintext),
    crc32c: crc32cBase64(plaintext),
  });
  const metadata = (await (await fetch(objectPath("o/org/x/one"))).json()) as Record<string, string>;
  expect(metadata).toMatchObject({ kmsKeyName: `${key}/cryptoKeyVersions/1`, md5Hash: md5Base64(plaintext) });
  const listed = (await (
    await fetch(`${storage.url}/storage/v1/b/${BUCKET}/o?prefix=o/org/x/one`)
  ).json()) as {
    items: Record<string, string>[];
  };
  expect(listed.items[0]?.kmsKeyName).toBe(`${key}/cryptoKeyVersions/1`);

  // At rest: sealed segments, not one line of the plaintext.
  const atRest = storage.emulator.store.bytes(BUCKET, "o/org/x/one");
  expect(atRest.length).toBe(sealedLength(plaintext.length));
  expect(atRest.includes(Buffer.from("PLAINTEXT"))).toBe(false);
  expect(atRest.includes(plaintext.subarray(0, 32))).toBe(false);

  const whole = await download("o/org/x/one");
  expect(whole.status).toBe(200);
  expect(whole.headers.get("x-goog-hash")).toBe(
    `crc32c=${crc32cBase64(plaintext)},md5=${md5Base64(plaintext)}`,
  );
  expect(whole.headers.get("x-goog-encryption-kms-key-name")).toBe(`${key}/cryptoKeyVersions/1`);
  expect(Buffer.from(await whole.arrayBuffer()).equals(plaintext)).toBe(true);
  // Across the first segment boundary, and the last bytes.
  const across = await download("o/org/x/one", { range: `bytes=${SEGMENT_BYTES - 10}-${SEGMENT_BYTES + 9}` });
  expect(across.status).toBe(206);
  expect(Buffer.from(await across.arrayBuffer())).toEqual(
    plaintext.subarray(SEGMENT_BYTES - 10, SEGMENT_BYTES + 10),
  );
  const tail = await download("o/org/x/one", { range: "bytes=-5" });
  expect(Buffer.from(await tail.arrayBuffer())).toEqual(plaintext.subarray(-5));
});

test("when the key version is disabled, then JSON and signed downloads are refused with Cloud Storage's error while metadata stays readable without checksums; enabled again, they read", async () => {
  const key = await newKey();
  const version = `${key}/cryptoKeyVersions/1`;
  const plaintext = marked("disabled");
  await uploadUnder(key, "o/org/x/disabled", plaintext);
  const link = await signedUrl("o/org/x/disabled");
  expect((await fetch(link)).status).toBe(200);

  await setVersionState(version, "DISABLED");
  const refused = await jsonError(await download("o/org/x/disabled"));
  expect(refused).toEqual({
    status: 400,
    reason: "invalid",
    message: `${version} is not enabled, current state is: DISABLED.`,
  });
  const ranged = await download("o/org/x/disabled", { range: "bytes=0-9" });
  expect(ranged.status).toBe(400);
  await ranged.body?.cancel();
  const signed = await fetch(link);
  expect(signed.status).toBe(400);
  expect(await signed.text()).toBe(
    `<?xml version='1.0' encoding='UTF-8'?><Error><Code>InvalidArgument</Code>` +
      `<Message>${version} is not enabled, current state is: DISABLED.</Message></Error>`,
  );
  // Metadata, listing and a metadata patch work; the checksums, encrypted under the key, are left out.
  const metadata = await fetch(objectPath("o/org/x/disabled"));
  expect(metadata.status).toBe(200);
  const resource = (await metadata.json()) as Record<string, string>;
  expect(resource).toMatchObject({ kmsKeyName: version, size: String(plaintext.length) });
  expect(resource).not.toHaveProperty("md5Hash");
  expect(resource).not.toHaveProperty("crc32c");
  const patched = await fetch(objectPath("o/org/x/disabled"), {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ metadata: { note: "while disabled" } }),
  });
  expect(patched.status).toBe(200);
  // A new object under a key whose primary version is disabled cannot be written.
  const blocked = await upload("o/org/x/blocked", Buffer.from("x"), `&kmsKeyName=${encodeURIComponent(key)}`);
  expect(await jsonError(blocked)).toMatchObject({ status: 400, reason: "invalid" });
  expect((await fetch(objectPath("o/org/x/blocked"))).status).toBe(404);

  await setVersionState(version, "ENABLED");
  expect(Buffer.from(await (await download("o/org/x/disabled")).arrayBuffer()).equals(plaintext)).toBe(true);
  expect(Buffer.from(await (await fetch(link)).arrayBuffer()).equals(plaintext)).toBe(true);
  const again = (await (await fetch(objectPath("o/org/x/disabled"))).json()) as Record<string, string>;
  expect(again).toMatchObject({ md5Hash: md5Base64(plaintext), crc32c: crc32cBase64(plaintext) });
});

test("when a key is rotated, then new objects name the new primary and each object follows the state of its own version; a destroyed version never reads again", async () => {
  const key = await newKey();
  const before = marked("before rotation", 100);
  await uploadUnder(key, "o/org/x/v1", before);
  await kmsCall("POST", `/v1/${key}/cryptoKeyVersions`, {});
  await kmsCall("POST", `/v1/${key}:updatePrimaryVersion`, { cryptoKeyVersionId: "2" });
  const after = marked("after rotation", 100);
  expect((await uploadUnder(key, "o/org/x/v2", after)).kmsKeyName).toBe(`${key}/cryptoKeyVersions/2`);

  await setVersionState(`${key}/cryptoKeyVersions/1`, "DISABLED");
  expect((await download("o/org/x/v1")).status).toBe(400);
  expect(Buffer.from(await (await download("o/org/x/v2")).arrayBuffer())).toEqual(after);

  await setVersionState(`${key}/cryptoKeyVersions/1`, "DESTROYED");
  expect(await jsonError(await download("o/org/x/v1"))).toEqual({
    status: 400,
    reason: "invalid",
    message: `${key}/cryptoKeyVersions/1 is not enabled, current state is: DESTROYED.`,
  });
  expect((await fetch(objectPath("o/org/x/v1"))).status).toBe(200);
  // Deleting needs no key.
  expect((await fetch(objectPath("o/org/x/v1"), { method: "DELETE" })).status).toBe(204);
});

test("when kmsKeyName names an unknown key, a key version, a malformed name or a key in another location, then the upload is refused with Cloud Storage's error and nothing is stored", async () => {
  const unknown = `${LOCATION}/keyRings/nowhere/cryptoKeys/none`;
  expect(await jsonError(await upload("o/bad/unknown", Buffer.from("x"), `&kmsKeyName=${unknown}`))).toEqual({
    status: 403,
    reason: "forbidden",
    message:
      "Permission denied on Cloud KMS key. Please ensure that your Cloud Storage service account has been authorized to use this key.",
  });
  const key = await newKey();
  for (const name of [`${key}/cryptoKeyVersions/1`, "backups", `${LOCATION}/keyRings/ring/cryptoKeys/`]) {
    const response = await upload("o/bad/name", Buffer.from("x"), `&kmsKeyName=${encodeURIComponent(name)}`);
    expect(await jsonError(response)).toEqual({
      status: 400,
      reason: "invalid",
      message: `Bad Cloud KMS crypto key: ${name}`,
    });
  }
  const elsewhere = await newKey("projects/alpvault-customer/locations/us-central1");
  expect(
    await jsonError(await upload("o/bad/elsewhere", Buffer.from("x"), `&kmsKeyName=${elsewhere}`)),
  ).toEqual({
    status: 400,
    reason: "invalid",
    message: "Cloud KMS region 'us-central1' not available for use with GCS region 'EUROPE-WEST6'.",
  });
  for (const name of ["o/bad/unknown", "o/bad/name", "o/bad/elsewhere"]) {
    expect((await fetch(objectPath(name))).status).toBe(404);
  }
});

test("when a resumable upload names a key, then its chunks are sealed as they arrive, a chunk is refused while the version is disabled, and the upload completes once it is enabled", async () => {
  const key = await newKey();
  const version = `${key}/cryptoKeyVersions/1`;
  const plaintext = marked("resumable", 5 * SEGMENT_BYTES + 77);
  const opened = await fetch(
    `${storage.url}/upload/storage/v1/b/${BUCKET}/o?uploadType=resumable&name=o/r/cmek&kmsKeyName=${encodeURIComponent(key)}`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-upload-content-length": String(plaintext.length) },
      body: "{}",
    },
  );
  expect(opened.status).toBe(200);
  const session = opened.headers.get("location") as string;
  const sessionFile = storage.emulator.uploads.sessionFile(
    new URL(session).searchParams.get("upload_id") ?? "",
  );
  // Chunks that end inside segments.
  const cuts = [0, 100_000, 200_000, plaintext.length];
  const put = (index: number) =>
    fetch(session, {
      method: "PUT",
      headers: {
        "content-range": `bytes ${cuts[index]}-${(cuts[index + 1] as number) - 1}/${plaintext.length}`,
      },
      body: plaintext.subarray(cuts[index], cuts[index + 1]),
    });
  expect((await put(0)).status).toBe(308);
  const partial = readFileSync(sessionFile);
  expect(partial.length).toBe(Math.floor(100_000 / SEGMENT_BYTES) * (SEGMENT_BYTES + 16));
  expect(partial.includes(Buffer.from("PLAINTEXT"))).toBe(false);

  await setVersionState(version, "DISABLED");
  expect(await jsonError(await put(1))).toMatchObject({ status: 400, reason: "invalid" });
  const status = await fetch(session, {
    method: "PUT",
    headers: { "content-range": `bytes */${plaintext.length}` },
  });
  expect(status.status).toBe(308);
  expect(status.headers.get("range")).toBe("bytes=0-99999");

  await setVersionState(version, "ENABLED");
  expect((await put(1)).status).toBe(308);
  const last = await put(2);
  expect(last.status).toBe(200);
  expect(await last.json()).toMatchObject({ kmsKeyName: version, md5Hash: md5Base64(plaintext) });
  const atRest = storage.emulator.store.bytes(BUCKET, "o/r/cmek");
  expect(atRest.length).toBe(sealedLength(plaintext.length));
  expect(atRest.includes(Buffer.from("PLAINTEXT"))).toBe(false);
  expect(Buffer.from(await (await download("o/r/cmek")).arrayBuffer()).equals(plaintext)).toBe(true);
});

test("when the official client saves with kmsKeyName (single request and resumable), then the objects are under the key and read back through it", async () => {
  const key = await newKey();
  const client = signer();
  const plaintext = marked("client", 70_000);
  for (const resumable of [false, true]) {
    const file = client
      .bucket(BUCKET)
      .file(`o/client/${resumable ? "resumable" : "single"}`, { kmsKeyName: key });
    await file.save(plaintext, { resumable });
    const [metadata] = await file.getMetadata();
    expect(metadata.kmsKeyName).toBe(`${key}/cryptoKeyVersions/1`);
    const [bytes] = await file.download();
    expect(bytes.equals(plaintext)).toBe(true);
  }
});

test("when a multipart upload names a key in its metadata, then the query parameter overrides it", async () => {
  const metadataKey = await newKey();
  const queryKey = await newKey();
  const multipart = (name: string, query: string) => {
    const boundary = "cmek-boundary";
    return fetch(`${storage.url}/upload/storage/v1/b/${BUCKET}/o?uploadType=multipart${query}`, {
      method: "POST",
      headers: { "content-type": `multipart/related; boundary=${boundary}` },
      body: [
        `--${boundary}`,
        "content-type: application/json",
        "",
        JSON.stringify({ name, kmsKeyName: metadataKey }),
        `--${boundary}`,
        "content-type: text/plain",
        "",
        "PLAINTEXT multipart",
        `--${boundary}--`,
      ].join("\r\n"),
    });
  };
  const fromMetadata = (await (await multipart("o/m/metadata", "")).json()) as Record<string, string>;
  expect(fromMetadata.kmsKeyName).toBe(`${metadataKey}/cryptoKeyVersions/1`);
  const fromQuery = (await (
    await multipart("o/m/query", `&kmsKeyName=${encodeURIComponent(queryKey)}`)
  ).json()) as Record<string, string>;
  expect(fromQuery.kmsKeyName).toBe(`${queryKey}/cryptoKeyVersions/1`);
  expect(storage.emulator.store.bytes(BUCKET, "o/m/query").includes(Buffer.from("PLAINTEXT"))).toBe(false);
});

test("when a bucket has a default key, then objects that name none are under it; a default key Cloud KMS does not know refuses the bucket", async () => {
  const key = await newKey();
  const create = (name: string, defaultKmsKeyName: string) =>
    fetch(`${storage.url}/storage/v1/b?project=demo-alpvault`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name, location: "EUROPE-WEST6", encryption: { defaultKmsKeyName } }),
    });
  const created = await create("alpvault-demo-cmek-default", key);
  expect(created.status).toBe(200);
  expect(await created.json()).toMatchObject({ encryption: { defaultKmsKeyName: key } });
  const resource = (await (
    await upload("o/default", Buffer.from("PLAINTEXT default"), "", "alpvault-demo-cmek-default")
  ).json()) as Record<string, string>;
  expect(resource.kmsKeyName).toBe(`${key}/cryptoKeyVersions/1`);

  const refused = await create("alpvault-demo-cmek-unknown", `${LOCATION}/keyRings/nowhere/cryptoKeys/none`);
  expect(await jsonError(refused)).toMatchObject({ status: 403, reason: "forbidden" });
  expect((await fetch(`${storage.url}/storage/v1/b/alpvault-demo-cmek-unknown`)).status).toBe(404);
});

test("when an object names no key, then it is stored and read as before: no kmsKeyName, and its file its plain bytes", async () => {
  await setVersionState(`${await newKey()}/cryptoKeyVersions/1`, "DISABLED"); // no effect without a key
  const resource = (await (await upload("o/plain", Buffer.from("plain bytes"))).json()) as Record<
    string,
    string
  >;
  expect(resource).not.toHaveProperty("kmsKeyName");
  expect(storage.emulator.store.bytes(BUCKET, "o/plain").toString()).toBe("plain bytes");
  expect(await (await download("o/plain")).text()).toBe("plain bytes");
});

test("when the emulator is restarted from its saved state, then the objects keep their wrapped keys and read through Cloud KMS as before", async () => {
  const folder = mkdtempSync(join(tmpdir(), "storage-cmek-"));
  const stateFile = join(folder, "storage", "state.json.gz");
  try {
    const key = await newKey();
    const plaintext = marked("saved", 2 * SEGMENT_BYTES);
    const first = await startStorageEmulator({
      port: 0,
      stateFile,
      autoCreateBuckets: true,
      kmsEndpoint: kms.url,
    });
    const uploaded = await fetch(
      `${first.url}/upload/storage/v1/b/alpvault-demo-saved/o?uploadType=media&name=o/kept&kmsKeyName=${encodeURIComponent(key)}`,
      { method: "POST", body: plaintext },
    );
    expect(uploaded.status).toBe(200);
    await first.stop({ save: true });

    const saved = JSON.parse(gunzipSync(readFileSync(stateFile)).toString("utf8")) as StorageSnapshot;
    const object = saved.buckets[0]?.objects[0] as StoredObject;
    expect(object.encryption?.kmsKeyName).toBe(`${key}/cryptoKeyVersions/1`);
    expect(object.encryption?.wrappedKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(saved.buckets[0]?.autoCreated).toBe(true);
    const objects = join(folder, "storage", "objects");
    for (const file of readdirSync(objects).filter((name) => name !== "uploads")) {
      expect(readFileSync(join(objects, file)).includes(Buffer.from("PLAINTEXT"))).toBe(false);
    }

    const second = await startStorageEmulator({ port: 0, stateFile, kmsEndpoint: kms.url });
    const read = await fetch(`${second.url}/storage/v1/b/alpvault-demo-saved/o/o%2Fkept?alt=media`);
    expect(Buffer.from(await read.arrayBuffer()).equals(plaintext)).toBe(true);
    await setVersionState(`${key}/cryptoKeyVersions/1`, "DISABLED");
    expect((await fetch(`${second.url}/storage/v1/b/alpvault-demo-saved/o/o%2Fkept?alt=media`)).status).toBe(
      400,
    );
    await second.stop();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("when the emulator was started without kmsEndpoint, then an upload naming a key fails and says why", async () => {
  const alone = await startStorageEmulator({ port: 0, autoCreateBuckets: true });
  try {
    const response = await fetch(
      `${alone.url}/upload/storage/v1/b/alpvault-demo-alone/o?uploadType=media&name=o/x&kmsKeyName=${encodeURIComponent(`${LOCATION}/keyRings/r/cryptoKeys/k`)}`,
      { method: "POST", body: "x" },
    );
    expect(response.status).toBe(500);
    expect((await response.json()) as unknown).toMatchObject({
      error: { message: expect.stringContaining("without kmsEndpoint") as unknown },
    });
  } finally {
    await alone.stop();
  }
});

test("when buckets created on first use are given their location, then a key in another location is refused there as at Cloud Storage, and one in the same location is taken", async () => {
  const located = await startStorageEmulator({
    port: 0,
    kmsEndpoint: kms.url,
    autoCreateBuckets: (bucket) => (bucket === "alpvault-demo-ch" ? "europe-west6" : undefined),
  });
  try {
    const put = async (bucket: string, key: string) =>
      fetch(
        `${located.url}/upload/storage/v1/b/${bucket}/o?uploadType=media&name=o/x&kmsKeyName=${encodeURIComponent(key)}`,
        { method: "POST", headers: { "content-type": "application/octet-stream" }, body: "x" },
      );
    const elsewhere = await put(
      "alpvault-demo-ch",
      await newKey("projects/alpvault-customer/locations/us-central1"),
    );
    expect(elsewhere.status).toBe(400);
    expect((await elsewhere.json()) as unknown).toMatchObject({
      error: {
        message: "Cloud KMS region 'us-central1' not available for use with GCS region 'EUROPE-WEST6'.",
      },
    });
    expect((await put("alpvault-demo-ch", await newKey())).status).toBe(200);
    // A bucket the function gives no location: nobody chose one, so no key's location is compared.
    const unnamed = await put(
      "alpvault-demo-other",
      await newKey("projects/alpvault-customer/locations/us-central1"),
    );
    expect(unnamed.status).toBe(200);
  } finally {
    await located.stop();
  }
});
