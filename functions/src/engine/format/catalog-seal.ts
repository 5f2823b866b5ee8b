/**
 * Catalog format v2 (docs/backup-format.md §9): sealed catalog fields and search tokens.
 *
 * - A sealed value is `<dataKeyId>.<base64url(nonce | ciphertext | tag)>` of the UTF-8 JSON it seals,
 *   AES-256-GCM under the data key's `catalog` key, the place it is stored at (organisation, resource,
 *   document, field) as associated data: moved anywhere else, it no longer opens.
 * - A search token is the first 16 base64url characters (96 bits) of HMAC-SHA256 under the `search` key of
 *   `field + "\u0000" + value`: equal values give equal tokens under one key, and nothing without it.
 * - A catalog document id of v2 is the item key itself when it is a plain Google id, else `%` and the hex
 *   HMAC-SHA256 of the key under the `name` key (never the key, nor its plain hash: a calendar's id is often
 *   an address, and a plain hash of a guessed address would confirm it).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { EncryptionError, FormatError } from "./errors";
import { ORGANIZATION_ID, type DerivedKeys } from "./keys";

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Characters of a search token: 96 bits of the HMAC. */
export const SEARCH_TOKEN_LENGTH = 16;
/** The largest sealed plaintext a reader opens (a catalog document is at most 1 MiB in Firestore). */
const MAX_SEALED_BYTES = 1024 * 1024;

/** Where a sealed value is stored: what its associated data names. */
export interface SealPlace {
  organizationId: string;
  resourceId: string;
  /** The item document's id, or `<item id>/<version id>` for a version. */
  documentId: string;
  /** The document field that holds the sealed value. */
  field: string;
}

const SEALED = /^([0-9a-f]{32})\.([A-Za-z0-9_-]+)$/;

function associatedData(place: SealPlace): Buffer {
  if (!ORGANIZATION_ID.test(place.organizationId)) throw new RangeError("Invalid organization id.");
  for (const part of [place.resourceId, place.documentId, place.field]) {
    if (part.length === 0) throw new RangeError("Invalid seal place.");
  }
  const { organizationId, resourceId, documentId, field } = place;
  // A JSON array: ids may hold any character (a calendar entry's key has ":" and "@"), and no two places
  // give one text.
  return Buffer.from(
    JSON.stringify(["alpvault:catalog:v2", organizationId, resourceId, documentId, field]),
    "utf8",
  );
}

/** Seals `value` (any JSON) for `place` under the `catalog` key of `keys`. */
export function sealValue(keys: DerivedKeys, place: SealPlace, value: unknown): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keys.catalog, nonce);
  cipher.setAAD(associatedData(place));
  const plaintext = Buffer.from(JSON.stringify(value), "utf8");
  const body = Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return `${keys.dataKeyId}.${body.toString("base64url")}`;
}

/** The data key id a sealed value names (which key opens it); a value not in the sealed form is a FormatError. */
export function sealedKeyId(sealed: string): string {
  const match = SEALED.exec(sealed);
  if (!match) throw new FormatError("A sealed catalog field is malformed.");
  return match[1] as string;
}

/**
 * The JSON a sealed value holds. `keys` must be the data key it names; a tag that fails (tampered, moved to
 * another place, or another key) is an EncryptionError, never a value.
 */
export function openValue(keys: DerivedKeys, place: SealPlace, sealed: string): unknown {
  const keyId = sealedKeyId(sealed);
  if (keyId !== keys.dataKeyId) throw new FormatError("A sealed catalog field names another data key.");
  const body = Buffer.from(sealed.slice(keyId.length + 1), "base64url");
  if (body.length < NONCE_BYTES + TAG_BYTES) throw new FormatError("A sealed catalog field is truncated.");
  if (body.length - NONCE_BYTES - TAG_BYTES > MAX_SEALED_BYTES)
    throw new FormatError("A sealed catalog field is too long.");
  const decipher = createDecipheriv("aes-256-gcm", keys.catalog, body.subarray(0, NONCE_BYTES));
  decipher.setAAD(associatedData(place));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  let plaintext: Buffer;
  try {
    plaintext = Buffer.concat([
      decipher.update(body.subarray(NONCE_BYTES, body.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new EncryptionError("A sealed catalog field does not authenticate.");
  }
  try {
    return JSON.parse(plaintext.toString("utf8")) as unknown;
  } catch {
    throw new FormatError("A sealed catalog field does not hold JSON.");
  }
}

/** The search token of `value` in `field` (a one-letter field name of §9.3) under the `search` key. */
export function searchToken(keys: DerivedKeys, field: string, value: string): string {
  return createHmac("sha256", keys.search)
    .update(`${field}\u0000${value}`, "utf8")
    .digest("base64url")
    .slice(0, SEARCH_TOKEN_LENGTH);
}

/** The distinct search tokens of `values` in `field`, in the order first seen. */
export function searchTokens(keys: DerivedKeys, field: string, values: readonly string[]): string[] {
  return [...new Set(values.map((value) => searchToken(keys, field, value)))];
}

/** A catalog document id a plain Google id may be as it is (as `catalogDocId`'s plain form). */
const PLAIN_ID = /^[A-Za-z0-9_.=~+-]{1,400}$/;
const RESERVED_ID = /^(\.|\.\.|__.*__)$/;

/**
 * The v2 catalog document id of an item key: the key when it is a plain id without any `@` or `:`
 * (a Gmail or Drive id), else `%` and its keyed HMAC in hex.
 */
export function sealedDocId(keys: DerivedKeys, itemKey: string): string {
  if (PLAIN_ID.test(itemKey) && !RESERVED_ID.test(itemKey)) return itemKey;
  return `%${createHmac("sha256", keys.name).update(`alpvault:item:v2\u0000${itemKey}`, "utf8").digest("hex")}`;
}
