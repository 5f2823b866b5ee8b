import { createHash, createHmac } from "node:crypto";
import { EncryptionError, FormatError } from "./errors";
import { dataKey, deriveKeys, newDataKey } from "./keys";
import {
  SEARCH_TOKEN_LENGTH,
  openValue,
  sealValue,
  sealedDocId,
  sealedKeyId,
  searchToken,
  searchTokens,
  type SealPlace,
} from "./catalog-seal";

const PLACE: SealPlace = {
  organizationId: "org-1",
  resourceId: "user-1",
  documentId: "18c2f0a1b2c3d4e5",
  field: "sealed",
};
const MARKER = "zq7-marker Ünïcode 😀 vreni@example.ch";

describe("sealed catalog fields", () => {
  const keys = deriveKeys(newDataKey());

  it("when a value is sealed, then it opens to the same JSON at its place, names its data key, and shows nothing of it", () => {
    const value = { subject: MARKER, to: ["vreni@example.ch"], size: 12, nested: { ok: true } };
    const sealed = sealValue(keys, PLACE, value);
    expect(sealedKeyId(sealed)).toBe(keys.dataKeyId);
    expect(openValue(keys, PLACE, sealed)).toEqual(value);
    expect(sealed).not.toContain("zq7");
    expect(sealed).not.toContain("vreni");
    expect(Buffer.from(sealed.split(".")[1]!, "base64url").toString("latin1")).not.toContain("zq7");
    // A fresh nonce each time: the same value seals differently.
    expect(sealValue(keys, PLACE, value)).not.toBe(sealed);
  });

  it("when a sealed value is read at another organisation, resource, document or field, then it does not authenticate", () => {
    const sealed = sealValue(keys, PLACE, { name: MARKER });
    for (const moved of [
      { ...PLACE, organizationId: "org-2" },
      { ...PLACE, resourceId: "user-2" },
      { ...PLACE, documentId: "18c2f0a1b2c3d4e6" },
      { ...PLACE, field: "current" },
    ]) {
      expect(() => openValue(keys, moved, sealed)).toThrow(EncryptionError);
    }
  });

  it("when a sealed value is changed, truncated or malformed, or opened with another key, then it is refused, never read", () => {
    const sealed = sealValue(keys, PLACE, { name: MARKER });
    const [id, body] = sealed.split(".") as [string, string];
    const bytes = Buffer.from(body, "base64url");
    bytes[20] = bytes[20]! ^ 1;
    expect(() => openValue(keys, PLACE, `${id}.${bytes.toString("base64url")}`)).toThrow(EncryptionError);
    expect(() => openValue(keys, PLACE, `${id}.${body.slice(0, 20)}`)).toThrow(FormatError);
    for (const malformed of [
      "",
      "nothing",
      `${id}`,
      `${id}.`,
      `${id.toUpperCase()}.${body}`,
      `${id}.${body}!`,
    ]) {
      expect(() => openValue(keys, PLACE, malformed)).toThrow(FormatError);
    }
    // Another data key: refused by its id; a forged id on another key's bytes: the tag fails.
    expect(() => openValue(deriveKeys(newDataKey()), PLACE, sealed)).toThrow(FormatError);
    const forged = deriveKeys(dataKey(keys.dataKeyId, newDataKey().key));
    expect(() => openValue(forged, PLACE, sealed)).toThrow(EncryptionError);
  });

  it("when a place has an empty part or a bad organisation id, then nothing is sealed", () => {
    for (const place of [
      { ...PLACE, resourceId: "" },
      { ...PLACE, documentId: "" },
      { ...PLACE, field: "" },
      { ...PLACE, organizationId: "org/1" },
    ]) {
      expect(() => sealValue(keys, place, 1)).toThrow(RangeError);
    }
  });

  it("when ids hold colons (a calendar entry's key), then places that would join to one text stay apart", () => {
    const joined = { ...PLACE, resourceId: "a:b", documentId: "c" };
    const shifted = { ...PLACE, resourceId: "a", documentId: "b:c" };
    const sealed = sealValue(keys, joined, "x");
    expect(openValue(keys, joined, sealed)).toBe("x");
    expect(() => openValue(keys, shifted, sealed)).toThrow(EncryptionError);
  });
});

describe("search tokens", () => {
  const keys = deriveKeys(newDataKey());

  it("when a word is tokenised, then the token is the documented truncated HMAC, the same each time, and hides the word", () => {
    const token = searchToken(keys, "w", "budget");
    const expected = createHmac("sha256", keys.search)
      .update("w\u0000budget")
      .digest("base64url")
      .slice(0, 16);
    expect(token).toBe(expected);
    expect(token).toHaveLength(SEARCH_TOKEN_LENGTH);
    expect(token).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(searchToken(keys, "w", "budget")).toBe(token);
  });

  it("when the field, the value or the key differs, then the token differs", () => {
    const token = searchToken(keys, "w", "budget");
    expect(searchToken(keys, "l", "budget")).not.toBe(token);
    expect(searchToken(keys, "w", "budgets")).not.toBe(token);
    expect(searchToken(deriveKeys(newDataKey()), "w", "budget")).not.toBe(token);
    // The separator keeps field and value apart: ("wb", "udget") is not ("w", "budget").
    expect(searchToken(keys, "wb", "udget")).not.toBe(token);
  });

  it("when a list of values is tokenised, then each distinct value gives one token, in first-seen order", () => {
    const tokens = searchTokens(keys, "w", ["budget", "plan", "budget"]);
    expect(tokens).toEqual([searchToken(keys, "w", "budget"), searchToken(keys, "w", "plan")]);
  });
});

describe("v2 catalog document ids", () => {
  const keys = deriveKeys(newDataKey());

  it("when an item key is a plain Google id, then it is its own document id", () => {
    expect(sealedDocId(keys, "18c2f0a1b2c3d4e5")).toBe("18c2f0a1b2c3d4e5");
    expect(sealedDocId(keys, "1AbC_dEf-123")).toBe("1AbC_dEf-123");
  });

  it("when an item key carries an address or a separator, then its id is a keyed digest: no address, not its plain hash, another per key", () => {
    const key = "calendar:vreni@example.ch";
    const id = sealedDocId(keys, key);
    expect(id).toMatch(/^%[0-9a-f]{64}$/);
    expect(id).not.toContain("vreni");
    expect(id).not.toContain(createHash("sha256").update(key).digest("hex"));
    expect(sealedDocId(deriveKeys(newDataKey()), key)).not.toBe(id);
    expect(sealedDocId(keys, key)).toBe(id);
    for (const reserved of ["..", "__name__", "event:cal/1"])
      expect(sealedDocId(keys, reserved)).toMatch(/^%/);
  });
});
