/**
 * Runs the BlobStore conformance suite for every implementation: the in-memory store, and the Cloud Storage
 * store (official client) against the Cloud Storage emulator started in this process. Then what only the
 * Cloud Storage store has: the client's retries, resumable uploads in chunks, and the objects as the bucket
 * holds them.
 */
import { createHash, randomBytes } from "node:crypto";
import { startStorageEmulator, type RunningStorageEmulator } from "../../emulators/storage/src/index";
import {
  GcsBlobStore,
  regionBucketName,
  toBlobStoreError,
  type GcsRetryOptions,
} from "../../functions/src/engine/blobstore/gcs-blob-store";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { describeBlobStore, type BlobStoreFixture } from "./blob-store-conformance";

const PROJECT_ID = "demo-alpvault";
const BUCKET = regionBucketName(PROJECT_ID, "ch");
/** The client's retries, with waits of at most a second between attempts. */
const SHORT_RETRY = { maxRetries: 2, maxRetryDelaySeconds: 1 };
/** The conformance suite sees every failure at once: no client retries. */
const NO_RETRY = { maxRetries: 0 };

async function admin(
  emulator: RunningStorageEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${emulator.url}/emulator/v1${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status}`);
  return response.json();
}

/** The emulator with the test bucket created through the official client (`buckets.insert`). */
async function startWithBucket(
  retry: GcsRetryOptions,
): Promise<{ emulator: RunningStorageEmulator; store: GcsBlobStore }> {
  const emulator = await startStorageEmulator({ port: 0 });
  const store = new GcsBlobStore({ bucket: BUCKET, projectId: PROJECT_ID, apiEndpoint: emulator.url, retry });
  await store.bucket.storage.createBucket(BUCKET);
  return { emulator, store };
}

describeBlobStore("memory", async (): Promise<BlobStoreFixture> => {
  const store = new MemoryBlobStore();
  return {
    store,
    makeUnavailable: async (count) => store.failNext(count),
    recover: async () => store.failNext(0),
    close: async () => undefined,
  };
});

describeBlobStore("Cloud Storage (emulator)", async (): Promise<BlobStoreFixture> => {
  const { emulator, store } = await startWithBucket(NO_RETRY);
  return {
    store,
    makeUnavailable: async (count, how) => {
      await admin(emulator, "POST", "/faults", { count, kind: how, status: 503 });
    },
    recover: async () => {
      await admin(emulator, "DELETE", "/faults");
    },
    close: () => emulator.stop(),
  };
});

describe("GcsBlobStore against the Cloud Storage emulator", () => {
  let emulator: RunningStorageEmulator;
  let store: GcsBlobStore;

  beforeAll(async () => {
    ({ emulator, store } = await startWithBucket(SHORT_RETRY));
  });

  afterAll(() => emulator?.stop());

  afterEach(() => emulator.emulator.faults.clear());

  test("when the store fails fewer times than the client retries, then the write succeeds once", async () => {
    // One failure, two retries allowed (each retry waits the client's floor of a second).
    await admin(emulator, "POST", "/faults", {
      count: 1,
      kind: "error",
      status: 503,
      operation: "storage.objects.insert",
    });
    expect(await store.putIfAbsent("o/retry/chunk", Buffer.from("through the outage"))).toBe(true);
    expect((await store.get("o/retry/chunk")).toString()).toBe("through the outage");
    expect(emulator.emulator.faults.list()).toEqual([]);
  });

  test("when a read meets a connection reset once, then the client retries and the bytes arrive", async () => {
    await store.putIfAbsent("o/retry/read", Buffer.from("read after a reset"));
    await admin(emulator, "POST", "/faults", { count: 1, kind: "reset", operation: "storage.objects.get" });
    expect((await store.get("o/retry/read")).toString()).toBe("read after a reset");
  });

  test("when a large object is written, then it goes through a resumable session and is stored with its checksums", async () => {
    const body = randomBytes(9 * 1024 * 1024);
    const sessionsBefore = emulator.emulator.stats.get("storage.objects.insert:resumable") ?? 0;
    expect(await store.putIfAbsent("o/large/one", body)).toBe(true);
    expect(emulator.emulator.stats.get("storage.objects.insert:resumable")).toBe(sessionsBefore + 1);
    const [metadata] = await store.bucket.file("o/large/one").getMetadata();
    expect(Number(metadata.size)).toBe(body.length);
    expect(metadata.md5Hash).toBe(createHash("md5").update(body).digest("base64"));
    expect(typeof metadata.crc32c).toBe("string");
    expect(emulator.emulator.store.bytes(BUCKET, "o/large/one").equals(body)).toBe(true);
  });

  test("when a write stream uploads in 256 KiB chunks, then each chunk is one PUT and the object is complete", async () => {
    const body = randomBytes(1024 * 1024 + 5);
    const chunksBefore = emulator.emulator.stats.get("storage.objects.insert:chunk") ?? 0;
    const file = store.bucket.file("o/chunked/object");
    await new Promise<void>((resolve, reject) => {
      const stream = file.createWriteStream({
        resumable: true,
        chunkSize: 256 * 1024,
        preconditionOpts: { ifGenerationMatch: 0 },
      });
      stream.on("error", reject).on("finish", resolve);
      stream.end(body);
    });
    expect((await store.get("o/chunked/object")).equals(body)).toBe(true);
    // 4 full chunks answered 308, then the 5-byte last one completes the object.
    expect(emulator.emulator.stats.get("storage.objects.insert:chunk")).toBe(chunksBefore + 5);
  });

  test("when a resumable upload of an existing name completes, then putIfAbsent answers false and the object is unchanged", async () => {
    const first = randomBytes(8 * 1024 * 1024 + 1);
    expect(await store.putIfAbsent("o/large/twice", first)).toBe(true);
    const generation = emulator.emulator.store.object(BUCKET, "o/large/twice").generation;
    expect(await store.putIfAbsent("o/large/twice", randomBytes(8 * 1024 * 1024 + 1))).toBe(false);
    const stored = emulator.emulator.store.object(BUCKET, "o/large/twice");
    expect(stored.generation).toBe(generation);
    expect(emulator.emulator.store.bytes(BUCKET, "o/large/twice").equals(first)).toBe(true);
  });

  test("when the bucket does not exist, then reads are not-found and writes fail without creating it", async () => {
    const missing = new GcsBlobStore({
      bucket: "alpvault-demo-missing",
      projectId: PROJECT_ID,
      apiEndpoint: emulator.url,
      retry: NO_RETRY,
    });
    await expect(missing.get("o/x")).rejects.toMatchObject({ kind: "not-found" });
    await expect(missing.putIfAbsent("o/x", Buffer.from("x"))).rejects.toMatchObject({ kind: "not-found" });
    expect(emulator.emulator.store.listBuckets().map((bucket) => bucket.name)).toEqual([BUCKET]);
  });

  test("when errors of the client are classified, then statuses and connection errors map to the kinds", () => {
    expect(toBlobStoreError({ code: 404 }).kind).toBe("not-found");
    expect(toBlobStoreError({ code: 412 }).kind).toBe("precondition");
    expect(toBlobStoreError({ code: 400 }).kind).toBe("invalid");
    expect(toBlobStoreError({ code: 416 }).kind).toBe("invalid");
    expect(toBlobStoreError({ code: 403 }).kind).toBe("unavailable");
    expect(toBlobStoreError({ code: 503 }).kind).toBe("unavailable");
    expect(toBlobStoreError({ response: { status: 502 } }).kind).toBe("unavailable");
    expect(toBlobStoreError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })).kind).toBe(
      "unavailable",
    );
  });
});
