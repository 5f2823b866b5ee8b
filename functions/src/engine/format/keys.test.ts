import { createHmac, randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { EncryptionError, FormatError } from "./errors";
import {
  dataKey,
  dataKeyAad,
  decodeDataKeyRecord,
  defaultKeyWrapper,
  deriveKeys,
  newDataKey,
  rewrapDataKey,
  unwrapDataKey,
  wrapDataKey,
  type DataKeyRecord,
} from "./keys";

const ORG = "org-1";

/** RFC 5869 HKDF-SHA256 for one 32-byte block, written out independently of Node's hkdf. */
function hkdf32(key: Buffer, info: string): Buffer {
  const prk = createHmac("sha256", Buffer.alloc(32)).update(key).digest();
  return createHmac("sha256", prk)
    .update(Buffer.concat([Buffer.from(info, "utf8"), Buffer.from([1])]))
    .digest();
}

describe("data keys", () => {
  it("when a data key is made, then it has 32 random bytes and a 32-hex-character id", () => {
    const first = newDataKey();
    const second = newDataKey();
    expect(first.key).toHaveLength(32);
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(second.id).not.toBe(first.id);
    expect(second.key.equals(first.key)).toBe(false);
  });

  it("when keys are derived, then they are HKDF-SHA256 with the documented info strings, and differ", () => {
    const key = newDataKey();
    const derived = deriveKeys(key);
    expect(derived.dataKeyId).toBe(key.id);
    expect(derived.enc.equals(hkdf32(key.key, "alpvault:dk:v1:enc"))).toBe(true);
    expect(derived.name.equals(hkdf32(key.key, "alpvault:dk:v1:name"))).toBe(true);
    expect(derived.catalog.equals(hkdf32(key.key, "alpvault:dk:v2:catalog"))).toBe(true);
    expect(derived.search.equals(hkdf32(key.key, "alpvault:dk:v2:search"))).toBe(true);
    const all = [derived.enc, derived.name, derived.catalog, derived.search].map((bytes) =>
      bytes.toString("hex"),
    );
    expect(new Set(all).size).toBe(4);
    expect(deriveKeys(dataKey(key.id, key.key)).name.equals(derived.name)).toBe(true);
  });

  it("when a data key or its derived keys are printed or serialised, then no key bytes appear", () => {
    const key = newDataKey();
    const derived = deriveKeys(key);
    const shown = [
      inspect(key),
      inspect(derived),
      JSON.stringify({ key, derived }),
      `${String(key)} ${String(derived)}`,
      inspect({ nested: { key } }, { depth: 5, showHidden: true }),
    ].join("\n");
    expect(shown).toContain(key.id);
    for (const secret of [key.key, derived.enc, derived.name, derived.catalog, derived.search]) {
      expect(shown).not.toContain(secret.toString("hex"));
      expect(shown).not.toContain(secret.toString("base64"));
    }
    expect(shown).not.toMatch(/<Buffer/);
  });

  it("when a data key is built from a wrong-sized key or id, then it is refused", () => {
    expect(() => dataKey("0".repeat(32), Buffer.alloc(31))).toThrow(RangeError);
    expect(() => dataKey("xyz", Buffer.alloc(32))).toThrow(RangeError);
  });

  it("when the AAD of a wrapped key is built, then it is the documented string", () => {
    expect(dataKeyAad(ORG, "ab".repeat(16)).toString("utf8")).toBe(`alpvault:dk:v1:org-1:${"ab".repeat(16)}`);
    expect(() => dataKeyAad("org:1", "ab".repeat(16))).toThrow(RangeError);
  });
});

describe("the built-in default key wrapper", () => {
  const kek = randomBytes(32);
  const wrapper = defaultKeyWrapper(kek);

  it("when a data key is wrapped and unwrapped, then the record is as documented and the key comes back", async () => {
    const key = newDataKey();
    const now = new Date("2026-11-22T10:00:00.000Z");
    const record = await wrapDataKey(wrapper, {
      organizationId: ORG,
      secretId: "default",
      dataKey: key,
      now,
    });
    expect(record).toEqual({
      dataKeyId: key.id,
      secretId: "default",
      wrappedKey: expect.stringMatching(/^[A-Za-z0-9+/]+={0,2}$/),
      createdAt: "2026-11-22T10:00:00.000Z",
      formatVersion: 1,
      state: "active",
    });
    const wrapped = Buffer.from(record.wrappedKey, "base64");
    expect(wrapped).toHaveLength(12 + 32 + 16);
    expect(wrapped.includes(key.key)).toBe(false);
    const unwrapped = await unwrapDataKey(wrapper, ORG, record);
    expect(unwrapped.id).toBe(key.id);
    expect(unwrapped.key.equals(key.key)).toBe(true);
  });

  it("when the same key is wrapped twice, then the wrapped keys differ (random nonce) and both unwrap", async () => {
    const key = newDataKey();
    const first = await wrapDataKey(wrapper, { organizationId: ORG, secretId: "default", dataKey: key });
    const second = await wrapDataKey(wrapper, { organizationId: ORG, secretId: "default", dataKey: key });
    expect(second.wrappedKey).not.toBe(first.wrappedKey);
    expect((await unwrapDataKey(wrapper, ORG, second)).key.equals(key.key)).toBe(true);
  });

  it("when a record is unwrapped for another organisation or under another id, then it is an encryption error", async () => {
    const record = await wrapDataKey(wrapper, {
      organizationId: ORG,
      secretId: "default",
      dataKey: newDataKey(),
    });
    await expect(unwrapDataKey(wrapper, "org-2", record)).rejects.toBeInstanceOf(EncryptionError);
    const renamed = { ...record, dataKeyId: newDataKey().id };
    await expect(unwrapDataKey(wrapper, ORG, renamed)).rejects.toBeInstanceOf(EncryptionError);
  });

  it("when any byte of a wrapped key is altered, or it is cut short, then unwrapping is an encryption error", async () => {
    const record = await wrapDataKey(wrapper, {
      organizationId: ORG,
      secretId: "default",
      dataKey: newDataKey(),
    });
    const wrapped = Buffer.from(record.wrappedKey, "base64");
    for (let index = 0; index < wrapped.length; index++) {
      const altered = Buffer.from(wrapped);
      altered[index]! ^= 0x01;
      const tampered = { ...record, wrappedKey: altered.toString("base64") };
      await expect(unwrapDataKey(wrapper, ORG, tampered)).rejects.toBeInstanceOf(EncryptionError);
    }
    const short = { ...record, wrappedKey: wrapped.subarray(1).toString("base64") };
    await expect(unwrapDataKey(wrapper, ORG, short)).rejects.toBeInstanceOf(EncryptionError);
  });

  it("when a record is unwrapped under another key-encryption key, then it is an encryption error", async () => {
    const record = await wrapDataKey(wrapper, {
      organizationId: ORG,
      secretId: "default",
      dataKey: newDataKey(),
    });
    await expect(unwrapDataKey(defaultKeyWrapper(randomBytes(32)), ORG, record)).rejects.toBeInstanceOf(
      EncryptionError,
    );
  });

  it("when the key-encryption key is not 32 bytes, then the wrapper is refused", () => {
    expect(() => defaultKeyWrapper(randomBytes(16))).toThrow(RangeError);
  });

  it("when a data key is re-wrapped under another secret, then the same key comes back from the new record only", async () => {
    const key = newDataKey();
    const other = defaultKeyWrapper(randomBytes(32));
    const record = await wrapDataKey(wrapper, { organizationId: ORG, secretId: "default", dataKey: key });
    const moved = await rewrapDataKey(wrapper, other, ORG, record, "customer-key");
    expect(moved).toMatchObject({ dataKeyId: key.id, secretId: "customer-key", createdAt: record.createdAt });
    expect((await unwrapDataKey(other, ORG, moved)).key.equals(key.key)).toBe(true);
    await expect(unwrapDataKey(wrapper, ORG, moved)).rejects.toBeInstanceOf(EncryptionError);
  });
});

describe("decodeDataKeyRecord", () => {
  const valid: DataKeyRecord = {
    dataKeyId: "ab".repeat(16),
    secretId: "default",
    wrappedKey: randomBytes(60).toString("base64"),
    createdAt: "2026-11-22T10:00:00.000Z",
    formatVersion: 1,
    state: "retired",
  };

  it("when a stored record is valid, then it is returned field for field, without extra fields", () => {
    expect(decodeDataKeyRecord({ ...valid, extra: true })).toEqual(valid);
  });

  it.each([
    ["not an object", null],
    ["a bad dataKeyId", { ...valid, dataKeyId: "AB".repeat(16) }],
    ["no secretId", { ...valid, secretId: "" }],
    ["a wrappedKey that is not base64", { ...valid, wrappedKey: "not base64!" }],
    ["a bad createdAt", { ...valid, createdAt: "yesterday" }],
    ["another formatVersion", { ...valid, formatVersion: 2 }],
    ["an unknown state", { ...valid, state: "deleted" }],
  ])("when a stored record has %s, then it is a format error", (_case, value) => {
    expect(() => decodeDataKeyRecord(value)).toThrow(FormatError);
  });

  it("when a record of another format version is unwrapped, then it is a format error", async () => {
    const record = { ...valid, formatVersion: 2 } as unknown as DataKeyRecord;
    await expect(unwrapDataKey(defaultKeyWrapper(randomBytes(32)), ORG, record)).rejects.toBeInstanceOf(
      FormatError,
    );
  });
});
