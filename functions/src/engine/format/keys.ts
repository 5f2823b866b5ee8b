/**
 * Data keys (docs/backup-format.md §2): an organisation's 32 random bytes per key generation, the two keys
 * derived from them (`enc` encrypts content, `name` names it), and their wrapping by the organisation's
 * secret — the built-in default key or a customer's Cloud KMS key — into a data-key record. No storage
 * here: the caller keeps records in Firestore and passes them back.
 *
 * Key bytes never leave the process unwrapped: the objects holding them print and serialise as their id.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { z } from "zod/mini";
import { EncryptionError, FormatError } from "./errors";

export const DATA_KEY_BYTES = 32;
/** A data key's id: 16 random bytes as 32 lower-case hex characters (the bytes go into object headers). */
export const DATA_KEY_ID = /^[0-9a-f]{32}$/;
/** What may appear in object names and AAD as an organisation id (no `:` or `/`, so both stay unambiguous). */
export const ORGANIZATION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** HKDF-SHA256 `info` of each derived key (no salt, 32 bytes each). */
export const HKDF_INFO = {
  enc: "alpvault:dk:v1:enc",
  name: "alpvault:dk:v1:name",
  catalog: "alpvault:dk:v2:catalog",
  search: "alpvault:dk:v2:search",
} as const;

export interface DataKey {
  /** 32 hex characters. */
  readonly id: string;
  /** 32 bytes. */
  readonly key: Buffer;
}

/** The keys every object (`enc`, `name`) and catalog document (`catalog`, `search`) of a data key is written with. */
export interface DerivedKeys {
  readonly dataKeyId: string;
  /** AES-256-GCM content key. */
  readonly enc: Buffer;
  /** HMAC-SHA256 key for chunk ids and content digests. */
  readonly name: Buffer;
  /** AES-256-GCM key of sealed catalog fields (format v2, §9.2). */
  readonly catalog: Buffer;
  /** HMAC-SHA256 key of search tokens (format v2, §9.3). */
  readonly search: Buffer;
}

/** Key bytes live in private fields: printing or serialising shows the id only. */
class SecretDataKey implements DataKey {
  readonly #key: Buffer;

  constructor(
    readonly id: string,
    key: Buffer,
  ) {
    this.#key = key;
  }

  get key(): Buffer {
    return this.#key;
  }

  toJSON(): string {
    return `DataKey(${this.id})`;
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

class SecretDerivedKeys implements DerivedKeys {
  readonly #keys: Readonly<Record<keyof typeof HKDF_INFO, Buffer>>;

  constructor(
    readonly dataKeyId: string,
    keys: Readonly<Record<keyof typeof HKDF_INFO, Buffer>>,
  ) {
    this.#keys = keys;
  }

  get enc(): Buffer {
    return this.#keys.enc;
  }

  get name(): Buffer {
    return this.#keys.name;
  }

  get catalog(): Buffer {
    return this.#keys.catalog;
  }

  get search(): Buffer {
    return this.#keys.search;
  }

  toJSON(): string {
    return `DerivedKeys(${this.dataKeyId})`;
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

function checkOrganizationId(organizationId: string): void {
  if (!ORGANIZATION_ID.test(organizationId)) throw new RangeError("Invalid organization id.");
}

function checkDataKeyId(dataKeyId: string): void {
  if (!DATA_KEY_ID.test(dataKeyId)) throw new RangeError("Invalid data key id.");
}

/** A data key from its id and bytes (an unwrapped record). */
export function dataKey(id: string, key: Buffer): DataKey {
  checkDataKeyId(id);
  if (key.length !== DATA_KEY_BYTES) throw new RangeError(`A data key has ${DATA_KEY_BYTES} bytes.`);
  return new SecretDataKey(id, Buffer.from(key));
}

/** A new data key: 32 random bytes and a random id. */
export function newDataKey(): DataKey {
  return dataKey(randomBytes(16).toString("hex"), randomBytes(DATA_KEY_BYTES));
}

/** The keys derived from a data key (HKDF-SHA256, empty salt, `HKDF_INFO`). */
export function deriveKeys(key: DataKey): DerivedKeys {
  const derive = (info: string) => Buffer.from(hkdfSync("sha256", key.key, Buffer.alloc(0), info, 32));
  return new SecretDerivedKeys(key.id, {
    enc: derive(HKDF_INFO.enc),
    name: derive(HKDF_INFO.name),
    catalog: derive(HKDF_INFO.catalog),
    search: derive(HKDF_INFO.search),
  });
}

/** Additional authenticated data of a wrapped data key: `alpvault:dk:v1:<organizationId>:<dataKeyId>`. */
export function dataKeyAad(organizationId: string, dataKeyId: string): Buffer {
  checkOrganizationId(organizationId);
  checkDataKeyId(dataKeyId);
  return Buffer.from(`alpvault:dk:v1:${organizationId}:${dataKeyId}`, "utf8");
}

/** Encrypts and decrypts data keys with one secret. */
export interface KeyWrapper {
  wrap(key: Buffer, aad: Buffer): Promise<Buffer>;
  /** Throws `EncryptionError` when the wrapped key does not authenticate, `EncryptionKeyError` when the
   * secret cannot be used. */
  unwrap(wrapped: Buffer, aad: Buffer): Promise<Buffer>;
}

const GCM_NONCE_BYTES = 12;
const GCM_TAG_BYTES = 16;
/** Built-in wrapping: nonce (12) | ciphertext (32) | tag (16). */
const DEFAULT_WRAPPED_BYTES = GCM_NONCE_BYTES + DATA_KEY_BYTES + GCM_TAG_BYTES;

/**
 * The built-in default key: AES-256-GCM under Alpvault's key-encryption key (32 bytes), the wrapped key
 * being `nonce (12) | ciphertext (32) | tag (16)`.
 */
export function defaultKeyWrapper(keyEncryptionKey: Buffer): KeyWrapper {
  if (keyEncryptionKey.length !== 32) throw new RangeError("The key-encryption key has 32 bytes.");
  const kek = Buffer.from(keyEncryptionKey);
  return {
    wrap(key, aad) {
      const nonce = randomBytes(GCM_NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", kek, nonce, { authTagLength: GCM_TAG_BYTES });
      cipher.setAAD(aad);
      const ciphertext = Buffer.concat([cipher.update(key), cipher.final()]);
      return Promise.resolve(Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]));
    },
    unwrap(wrapped, aad) {
      if (wrapped.length !== DEFAULT_WRAPPED_BYTES) {
        return Promise.reject(new EncryptionError("The wrapped data key has the wrong length."));
      }
      const nonce = wrapped.subarray(0, GCM_NONCE_BYTES);
      const tag = wrapped.subarray(wrapped.length - GCM_TAG_BYTES);
      const decipher = createDecipheriv("aes-256-gcm", kek, nonce, { authTagLength: GCM_TAG_BYTES });
      decipher.setAAD(aad);
      decipher.setAuthTag(tag);
      try {
        const key = decipher.update(wrapped.subarray(GCM_NONCE_BYTES, wrapped.length - GCM_TAG_BYTES));
        return Promise.resolve(Buffer.concat([key, decipher.final()]));
      } catch {
        return Promise.reject(new EncryptionError("The wrapped data key does not authenticate."));
      }
    },
  };
}

export const DATA_KEY_FORMAT_VERSION = 1;

/** `organizations/{organizationId}/dataKeys/{dataKeyId}` (docs/backup-format.md §2). */
export interface DataKeyRecord {
  dataKeyId: string;
  /** The secret that wrapped it: a customer secret's id, or the built-in key's (`DEFAULT_SECRET_ID`). */
  secretId: string;
  /** base64 */
  wrappedKey: string;
  /** ISO date-time. */
  createdAt: string;
  formatVersion: typeof DATA_KEY_FORMAT_VERSION;
  /** "active": new data is written with it; "retired": only read. */
  state: "active" | "retired";
}

/** Wraps a data key for storage (a new record: "active", created `now`). */
export async function wrapDataKey(
  wrapper: KeyWrapper,
  input: { organizationId: string; secretId: string; dataKey: DataKey; now?: Date },
): Promise<DataKeyRecord> {
  const wrapped = await wrapper.wrap(input.dataKey.key, dataKeyAad(input.organizationId, input.dataKey.id));
  return {
    dataKeyId: input.dataKey.id,
    secretId: input.secretId,
    wrappedKey: wrapped.toString("base64"),
    createdAt: (input.now ?? new Date()).toISOString(),
    formatVersion: DATA_KEY_FORMAT_VERSION,
    state: "active",
  };
}

/** The data key of a record, unwrapped with the secret the record names. */
export async function unwrapDataKey(
  wrapper: KeyWrapper,
  organizationId: string,
  record: DataKeyRecord,
): Promise<DataKey> {
  if (record.formatVersion !== DATA_KEY_FORMAT_VERSION) {
    throw new FormatError(`Unsupported data key format version ${String(record.formatVersion)}.`);
  }
  const key = await wrapper.unwrap(
    Buffer.from(record.wrappedKey, "base64"),
    dataKeyAad(organizationId, record.dataKeyId),
  );
  if (key.length !== DATA_KEY_BYTES)
    throw new EncryptionError("The unwrapped data key has the wrong length.");
  return dataKey(record.dataKeyId, key);
}

/**
 * Moves a data key to another secret (docs/backup-format.md §2, rotation): the same key, wrapped anew.
 * Objects are untouched.
 */
export async function rewrapDataKey(
  from: KeyWrapper,
  to: KeyWrapper,
  organizationId: string,
  record: DataKeyRecord,
  secretId: string,
): Promise<DataKeyRecord> {
  const key = await unwrapDataKey(from, organizationId, record);
  const wrapped = await to.wrap(key.key, dataKeyAad(organizationId, record.dataKeyId));
  return { ...record, secretId, wrappedKey: wrapped.toString("base64") };
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A data-key record as stored (docs/backup-format.md §2), checked field by field. */
export const dataKeyRecordSchema: z.ZodMiniType<DataKeyRecord> = z.object({
  dataKeyId: z.string().check(z.regex(DATA_KEY_ID)),
  secretId: z.string().check(z.minLength(1)),
  wrappedKey: z.string().check(z.regex(BASE64)),
  createdAt: z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)))),
  formatVersion: z.literal(DATA_KEY_FORMAT_VERSION),
  state: z.enum(["active", "retired"]),
});

/** A data-key record read from storage, checked field by field (`FormatError` when it is not one). */
export function decodeDataKeyRecord(value: unknown): DataKeyRecord {
  const result = dataKeyRecordSchema.safeParse(value);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path.join(".") || "shape";
  throw new FormatError(`A data key record has an invalid ${field}.`);
}
