import { MemoryBlobStore } from "../blobstore/memory-blob-store";
import { chunkObjectName, encodeChunk, encodeManifest } from "../format/chunk-codec";
import { contentDigest } from "../format/content-digest";
import { deriveKeys, newDataKey } from "../format/keys";
import { seededText } from "../format/testing";
import { checkItem, isDamaged, type ChunkMemory, type StoredVersion } from "./check";

const ORG = "org-check";
const keys = deriveKeys(newDataKey());
const scope = { organizationId: ORG, keys };
const resolve = () => Promise.resolve(keys);
const memory = (): ChunkMemory => ({ read: new Map(), fresh: new Set() });

/** Stores `parts` as chunks; returns an inline version naming them. */
async function stored(store: MemoryBlobStore, versionId: string, parts: Buffer[]): Promise<StoredVersion> {
  const chunks = [];
  for (const part of parts) {
    const encoded = await encodeChunk(scope, part);
    await store.putIfAbsent(encoded.objectName, encoded.body);
    chunks.push({ id: encoded.id, size: part.length });
  }
  return {
    versionId,
    dataKeyId: keys.dataKeyId,
    contentDigest: contentDigest(keys, Buffer.concat(parts)),
    chunks,
  };
}

test("when every chunk reads back and adds up to the digest, then the item is not damaged and its chunks are good", async () => {
  const store = new MemoryBlobStore();
  const version = await stored(store, "m1@1", [seededText(1, 20_000), seededText(2, 20_000)]);
  const check = await checkItem({
    blobStore: store,
    organizationId: ORG,
    keys: resolve,
    versions: [version],
    memory: memory(),
  });
  expect(isDamaged(check)).toBe(false);
  expect(check.goodChunks).toHaveLength(2);
  expect(check.objectsRead).toBe(2);
});

test("when a chunk is altered, missing, or its chunk list is wrong, then the item is damaged naming the object", async () => {
  const store = new MemoryBlobStore();
  const version = await stored(store, "m1@1", [seededText(3, 20_000), seededText(4, 20_000)]);
  const chunks = "chunks" in version ? version.chunks : [];
  const second = chunkObjectName(ORG, chunks[1]!.id);
  const body = await store.get(second);
  body.writeUInt8(body.readUInt8(body.length - 20) ^ 1, body.length - 20);
  await store.delete(second);
  await store.putIfAbsent(second, body);
  const altered = await checkItem({
    blobStore: store,
    organizationId: ORG,
    keys: resolve,
    versions: [version],
    memory: memory(),
  });
  expect(altered.brokenObjects).toEqual([second]);
  expect(altered.brokenChunks).toEqual([chunks[1]!.id]);

  await store.delete(second);
  const missing = await checkItem({
    blobStore: store,
    organizationId: ORG,
    keys: resolve,
    versions: [version],
    memory: memory(),
  });
  expect(missing.brokenObjects).toEqual([second]);

  const good = await stored(store, "m2@1", [seededText(3, 20_000)]);
  const wrongList = await checkItem({
    blobStore: store,
    organizationId: ORG,
    keys: resolve,
    versions: [{ ...good, contentDigest: version.contentDigest }],
    memory: memory(),
  });
  expect(wrongList.digestMismatches).toEqual(["m2@1"]);
  expect(isDamaged(wrongList)).toBe(true);
});

test("when a manifest object is damaged, then the item is damaged naming the manifest", async () => {
  const store = new MemoryBlobStore();
  const inline = await stored(store, "f1@1", [seededText(5, 20_000)]);
  const chunks = "chunks" in inline ? inline.chunks : [];
  const manifest = await encodeManifest(scope, "f1@1", { chunks });
  const truncated = manifest.body.subarray(0, manifest.body.length - 10);
  await store.putIfAbsent(manifest.objectName, Buffer.from(truncated));
  const version: StoredVersion = {
    versionId: "f1@1",
    dataKeyId: keys.dataKeyId,
    contentDigest: inline.contentDigest,
    manifestObject: manifest.objectName,
  };
  const check = await checkItem({
    blobStore: store,
    organizationId: ORG,
    keys: resolve,
    versions: [version],
    memory: memory(),
  });
  expect(check.brokenObjects).toEqual([manifest.objectName]);
});

test("when chunks were read already in the pass or within the day, then they are not read again", async () => {
  const store = new MemoryBlobStore();
  const shared = seededText(6, 20_000);
  const first = await stored(store, "a@1", [shared]);
  const second = await stored(store, "b@1", [shared, seededText(7, 20_000)]);
  const pass = memory();
  const one = await checkItem({
    blobStore: store,
    organizationId: ORG,
    keys: resolve,
    versions: [first, first],
    memory: pass,
  });
  expect(one.objectsRead).toBe(1); // two versions with one chunk list: read once
  const two = await checkItem({
    blobStore: store,
    organizationId: ORG,
    keys: resolve,
    versions: [second],
    memory: pass,
  });
  expect(two.objectsRead).toBe(1);
  expect(isDamaged(two)).toBe(false);
  const fresh = memory();
  for (const chunk of "chunks" in second ? second.chunks : []) fresh.fresh.add(chunk.id);
  const none = await checkItem({
    blobStore: store,
    organizationId: ORG,
    keys: resolve,
    versions: [second],
    memory: fresh,
  });
  expect(none.objectsRead).toBe(0);
});
