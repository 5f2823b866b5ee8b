import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { MAX_CHUNK_SIZE } from "./chunker";
import {
  HEADER_BYTES,
  chunkId,
  chunkObjectName,
  decodeChunk,
  decodeManifest,
  decodeManifestJson,
  encodeChunk,
  encodeManifest,
  manifestObjectName,
  readObjectHeader,
  type ObjectScope,
} from "./chunk-codec";
import { contentDigest, createContentDigester } from "./content-digest";
import { EncryptionError, FormatError } from "./errors";
import { dataKey, deriveKeys, newDataKey } from "./keys";
import { seededBytes, seededText } from "./testing";

const ORG = "org-1";
const scope: ObjectScope = { organizationId: ORG, keys: deriveKeys(newDataKey()) };

async function decodeError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected decoding to fail, but it succeeded.");
}

/** An object body built by hand from docs/backup-format.md §3, independently of the encoder. */
function handMade(options: {
  purpose: string;
  plaintext: Buffer;
  gzip: boolean;
  enc: Buffer;
  dataKeyId: string;
}): Buffer {
  const payload = options.gzip ? gzipSync(options.plaintext, { level: 6 }) : options.plaintext;
  const header = Buffer.concat([
    Buffer.from("AVC1"),
    Buffer.from([1, options.gzip ? 1 : 0]),
    Buffer.from(options.dataKeyId, "hex"),
  ]);
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", options.enc, nonce);
  cipher.setAAD(Buffer.concat([Buffer.from(options.purpose), header]));
  const ciphertext = Buffer.concat([cipher.update(payload), cipher.final()]);
  return Buffer.concat([header, nonce, ciphertext, cipher.getAuthTag()]);
}

describe("chunk objects", () => {
  it("when random data is encoded and decoded, then it comes back, stored without compression", async () => {
    const plaintext = seededBytes(1, 100_000);
    const chunk = await encodeChunk(scope, plaintext);
    expect(chunk.compression).toBe("none");
    expect(chunk.size).toBe(plaintext.length);
    expect(chunk.storedSize).toBe(chunk.body.length);
    expect(chunk.body.length).toBe(plaintext.length + 22 + 12 + 16);
    expect(readObjectHeader(chunk.body)).toEqual({
      formatVersion: 1,
      compression: "none",
      dataKeyId: scope.keys.dataKeyId,
    });
    expect((await decodeChunk(scope, chunk.id, chunk.body)).equals(plaintext)).toBe(true);
  });

  it("when compressible data is encoded, then it is gzipped, smaller, unreadable in the body, and comes back", async () => {
    const plaintext = seededText(2, MAX_CHUNK_SIZE);
    const chunk = await encodeChunk(scope, plaintext);
    expect(chunk.compression).toBe("gzip");
    expect(chunk.storedSize).toBeLessThan(plaintext.length / 2);
    expect(chunk.body.includes(Buffer.from("invoice"))).toBe(false);
    expect((await decodeChunk(scope, chunk.id, chunk.body)).equals(plaintext)).toBe(true);
  });

  it("when a chunk is half incompressible and half text, then it is still gzipped and comes back", async () => {
    const plaintext = Buffer.concat([seededBytes(15, 100_000), seededText(16, 100_000)]);
    const chunk = await encodeChunk(scope, plaintext);
    expect(chunk.compression).toBe("gzip");
    expect(chunk.storedSize).toBeLessThan(plaintext.length);
    expect((await decodeChunk(scope, chunk.id, chunk.body)).equals(plaintext)).toBe(true);
  });

  it("when an empty chunk is encoded, then it decodes to nothing", async () => {
    const chunk = await encodeChunk(scope, Buffer.alloc(0));
    expect(await decodeChunk(scope, chunk.id, chunk.body)).toHaveLength(0);
  });

  it("when a chunk is larger than the maximum, then it is refused", async () => {
    await expect(encodeChunk(scope, Buffer.alloc(MAX_CHUNK_SIZE + 1))).rejects.toThrow(RangeError);
  });

  it("when a chunk is encoded, then its id is the keyed HMAC of the plaintext and its name is documented", async () => {
    const plaintext = seededText(3, 5000);
    const chunk = await encodeChunk(scope, plaintext);
    expect(chunk.id).toBe(createHmac("sha256", scope.keys.name).update(plaintext).digest("hex"));
    expect(chunk.objectName).toBe(`o/${ORG}/c/${chunk.id.slice(0, 2)}/${chunk.id}`);
    expect(chunkObjectName(ORG, chunk.id)).toBe(chunk.objectName);
    expect(() => chunkObjectName("org/2", chunk.id)).toThrow(RangeError);
    expect(() => chunkObjectName(ORG, "../x")).toThrow(RangeError);
  });

  it("when the same plaintext is encoded twice in one organisation, then the id and name are the same and the bodies differ", async () => {
    const plaintext = seededText(4, 20_000);
    const first = await encodeChunk(scope, plaintext);
    const second = await encodeChunk(scope, plaintext);
    expect(second.id).toBe(first.id);
    expect(second.objectName).toBe(first.objectName);
    expect(second.body.equals(first.body)).toBe(false);
  });

  it("when the same plaintext is encoded for two organisations, then the ids differ", async () => {
    const plaintext = seededText(5, 20_000);
    const other: ObjectScope = { organizationId: "org-2", keys: deriveKeys(newDataKey()) };
    const mine = await encodeChunk(scope, plaintext);
    const theirs = await encodeChunk(other, plaintext);
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.objectName.startsWith("o/org-2/c/")).toBe(true);
  });

  it("when a chunk is decoded as another organisation's (same data key), then it is an encryption error", async () => {
    const chunk = await encodeChunk(scope, seededText(6, 30_000));
    const moved: ObjectScope = { organizationId: "org-2", keys: scope.keys };
    expect(await decodeError(decodeChunk(moved, chunk.id, chunk.body))).toBeInstanceOf(EncryptionError);
  });

  it("when a chunk is read under another chunk's id (renamed or swapped), then it is an encryption error", async () => {
    const chunk = await encodeChunk(scope, seededText(7, 30_000));
    const other = await encodeChunk(scope, seededText(8, 30_000));
    expect(await decodeError(decodeChunk(scope, other.id, chunk.body))).toBeInstanceOf(EncryptionError);
  });

  it("when a chunk is decoded with another data key, then it is an encryption error", async () => {
    const chunk = await encodeChunk(scope, seededText(9, 30_000));
    const otherKey: ObjectScope = { organizationId: ORG, keys: deriveKeys(newDataKey()) };
    expect(await decodeError(decodeChunk(otherKey, chunk.id, chunk.body))).toBeInstanceOf(EncryptionError);
    // Same id, other bytes: only the tag can tell.
    const impostor: ObjectScope = {
      organizationId: ORG,
      keys: deriveKeys(dataKey(scope.keys.dataKeyId, randomBytes(32))),
    };
    expect(await decodeError(decodeChunk(impostor, chunk.id, chunk.body))).toBeInstanceOf(EncryptionError);
  });

  it.each([
    ["random (stored as is)", seededBytes(10, 600)],
    ["compressible (gzipped)", seededText(11, 3000)],
  ])(
    "when any byte of a %s chunk object is flipped, then decoding fails with a format or encryption error",
    async (_kind, plaintext) => {
      const chunk = await encodeChunk(scope, plaintext);
      for (let index = 0; index < chunk.body.length; index++) {
        for (const mask of [0x01, 0x80, 0xff]) {
          const tampered = Buffer.from(chunk.body);
          tampered[index]! ^= mask;
          const error = await decodeError(decodeChunk(scope, chunk.id, tampered));
          expect(error instanceof EncryptionError || error instanceof FormatError).toBe(true);
        }
      }
    },
  );

  it("when the header is altered, then magic and version are format errors and the rest encryption errors", async () => {
    const chunk = await encodeChunk(scope, seededText(12, 3000));
    const flip = async (index: number, value: number) => {
      const tampered = Buffer.from(chunk.body);
      tampered[index] = value;
      return decodeError(decodeChunk(scope, chunk.id, tampered));
    };
    expect(await flip(0, 0x42)).toBeInstanceOf(FormatError); // magic
    expect(await flip(4, 2)).toBeInstanceOf(FormatError); // version
    expect(await flip(5, 7)).toBeInstanceOf(FormatError); // unknown compression
    expect(await flip(5, 0)).toBeInstanceOf(EncryptionError); // compression claimed none
    expect(await flip(6, chunk.body[6]! ^ 1)).toBeInstanceOf(EncryptionError); // data key id
    expect(await flip(HEADER_BYTES, chunk.body[HEADER_BYTES]! ^ 1)).toBeInstanceOf(EncryptionError); // nonce
    expect(await flip(chunk.body.length - 1, chunk.body.at(-1)! ^ 1)).toBeInstanceOf(EncryptionError); // tag
  });

  it("when an object is cut short or has bytes appended, then decoding fails", async () => {
    const chunk = await encodeChunk(scope, seededText(13, 3000));
    for (const length of [0, 3, HEADER_BYTES, HEADER_BYTES + 12 + 15, chunk.body.length - 1]) {
      const error = await decodeError(decodeChunk(scope, chunk.id, chunk.body.subarray(0, length)));
      expect(error instanceof EncryptionError || error instanceof FormatError).toBe(true);
    }
    const longer = Buffer.concat([chunk.body, Buffer.from([0])]);
    expect(await decodeError(decodeChunk(scope, chunk.id, longer))).toBeInstanceOf(EncryptionError);
  });

  it("when an object is built by hand from the documented layout, then it decodes (and the encoder's output is read by hand)", async () => {
    const plaintext = seededText(14, 10_000);
    const id = chunkId(scope.keys, plaintext);
    const purpose = `alpvault:chunk:v1:${ORG}:${id}`;
    for (const gzip of [false, true]) {
      const body = handMade({
        purpose,
        plaintext,
        gzip,
        enc: scope.keys.enc,
        dataKeyId: scope.keys.dataKeyId,
      });
      expect((await decodeChunk(scope, id, body)).equals(plaintext)).toBe(true);
    }
    const encoded = await encodeChunk(scope, plaintext);
    const nonce = encoded.body.subarray(HEADER_BYTES, HEADER_BYTES + 12);
    const decipher = createDecipheriv("aes-256-gcm", scope.keys.enc, nonce);
    decipher.setAAD(Buffer.concat([Buffer.from(purpose), encoded.body.subarray(0, HEADER_BYTES)]));
    decipher.setAuthTag(encoded.body.subarray(encoded.body.length - 16));
    const payload = Buffer.concat([
      decipher.update(encoded.body.subarray(HEADER_BYTES + 12, -16)),
      decipher.final(),
    ]);
    expect(gunzipSync(payload).equals(plaintext)).toBe(true);
  });

  it("when an authentic object's plaintext does not match its chunk id, then it is an encryption error", async () => {
    const id = chunkId(scope.keys, Buffer.from("the real content"));
    const body = handMade({
      purpose: `alpvault:chunk:v1:${ORG}:${id}`,
      plaintext: Buffer.from("other content"),
      gzip: false,
      enc: scope.keys.enc,
      dataKeyId: scope.keys.dataKeyId,
    });
    expect(await decodeError(decodeChunk(scope, id, body))).toBeInstanceOf(EncryptionError);
  });
});

describe("manifest objects", () => {
  const manifest = {
    chunks: Array.from({ length: 500 }, (_, index) => ({
      id: chunkId(scope.keys, Buffer.from(`chunk ${index}`)),
      size: 60_000 + index,
    })),
  };
  const versionId = `18c2f0a1b2c3d4e5@${"ab".repeat(32)}`;

  it("when a manifest is encoded and decoded, then the chunk list comes back under the documented name", async () => {
    const encoded = await encodeManifest(scope, versionId, manifest);
    expect(encoded.objectName).toBe(`o/${ORG}/m/${versionId}`);
    expect(manifestObjectName(ORG, versionId)).toBe(encoded.objectName);
    expect(readObjectHeader(encoded.body).compression).toBe("gzip");
    expect(await decodeManifest(scope, versionId, encoded.body)).toEqual(manifest);
  });

  it("when a manifest is read for another version, organisation or data key, then it is an encryption error", async () => {
    const encoded = await encodeManifest(scope, versionId, manifest);
    const otherVersion = decodeManifest(scope, `other@${"cd".repeat(32)}`, encoded.body);
    expect(await decodeError(otherVersion)).toBeInstanceOf(EncryptionError);
    const otherOrg = decodeManifest({ ...scope, organizationId: "org-2" }, versionId, encoded.body);
    expect(await decodeError(otherOrg)).toBeInstanceOf(EncryptionError);
    const otherKey = decodeManifest({ ...scope, keys: deriveKeys(newDataKey()) }, versionId, encoded.body);
    expect(await decodeError(otherKey)).toBeInstanceOf(EncryptionError);
  });

  it("when a chunk object is read as a manifest, or a manifest as a chunk, then it is an encryption error", async () => {
    const chunk = await encodeChunk(scope, Buffer.from(JSON.stringify(manifest)).subarray(0, 1000));
    expect(await decodeError(decodeManifest(scope, versionId, chunk.body))).toBeInstanceOf(EncryptionError);
    const encoded = await encodeManifest(scope, versionId, manifest);
    expect(await decodeError(decodeChunk(scope, chunk.id, encoded.body))).toBeInstanceOf(EncryptionError);
  });

  it("when any byte of a manifest object is flipped, then decoding fails with a format or encryption error", async () => {
    const encoded = await encodeManifest(scope, versionId, { chunks: manifest.chunks.slice(0, 3) });
    for (let index = 0; index < encoded.body.length; index++) {
      const tampered = Buffer.from(encoded.body);
      tampered[index]! ^= 0x10;
      const error = await decodeError(decodeManifest(scope, versionId, tampered));
      expect(error instanceof EncryptionError || error instanceof FormatError).toBe(true);
    }
  });

  it("when an authentic manifest holds a malformed list, then it is a format error", async () => {
    const purpose = `alpvault:manifest:v1:${ORG}:${versionId}`;
    for (const plaintext of [
      "not json",
      '{"chunks":[{"id":"xyz","size":1}]}',
      '{"chunks":[{"id":"' + "a".repeat(64) + '","size":-1}]}',
      "{}",
    ]) {
      const body = handMade({
        purpose,
        plaintext: Buffer.from(plaintext),
        gzip: false,
        enc: scope.keys.enc,
        dataKeyId: scope.keys.dataKeyId,
      });
      expect(await decodeError(decodeManifest(scope, versionId, body))).toBeInstanceOf(FormatError);
    }
  });

  it("when an inline chunk list is checked, then valid entries pass without extra fields and invalid ones are format errors", () => {
    const entry = { id: "f".repeat(64), size: 10 };
    expect(decodeManifestJson({ chunks: [{ ...entry, extra: 1 }] })).toEqual({ chunks: [entry] });
    expect(() => decodeManifestJson({ chunks: [{ id: "F".repeat(64), size: 10 }] })).toThrow(FormatError);
    expect(() => decodeManifestJson({ chunks: [{ id: entry.id, size: 1.5 }] })).toThrow(FormatError);
    expect(() => decodeManifestJson(null)).toThrow(FormatError);
  });

  it("when a version id holds a slash or is a dot path, then no manifest name is made", () => {
    expect(() => manifestObjectName(ORG, "a/b")).toThrow(RangeError);
    expect(() => manifestObjectName(ORG, "..")).toThrow(RangeError);
  });
});

describe("contentDigest", () => {
  it("when content is digested, then it is the keyed HMAC, equal for equal content, different across data keys", () => {
    const content = seededBytes(20, 300_000);
    const digest = contentDigest(scope.keys, content);
    expect(digest).toBe(createHmac("sha256", scope.keys.name).update(content).digest("hex"));
    expect(contentDigest(scope.keys, Buffer.from(content))).toBe(digest);
    expect(contentDigest(deriveKeys(newDataKey()), content)).not.toBe(digest);
    expect(digest).not.toBe(chunkId(scope.keys, content.subarray(1)));
  });

  it("when content arrives in pieces, then the streamed digest equals the whole-content digest", () => {
    const content = seededBytes(21, 300_000);
    const digester = createContentDigester(scope.keys);
    for (let offset = 0; offset < content.length; offset += 70_001)
      digester.update(content.subarray(offset, offset + 70_001));
    expect(digester.digest()).toBe(contentDigest(scope.keys, content));
  });
});
