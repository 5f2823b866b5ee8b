/**
 * The KMS emulator's state: key rings, symmetric crypto keys (purpose ENCRYPT_DECRYPT) and their versions,
 * each version with its own AES-256 key material, and the encrypt/decrypt operations.
 *
 * Ciphertext (opaque to clients, like Cloud KMS's): `0x01 | version id (uint32 BE) | IV (12) | data | tag
 * (16)`, AES-256-GCM with the crypto key's name and the caller's additional authenticated data bound in.
 * It names its version, so decrypt after a rotation uses the version that encrypted.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { failedPrecondition, invalidArgument, notFound, alreadyExists } from "./http";

export const VERSION_STATES = ["ENABLED", "DISABLED", "DESTROY_SCHEDULED", "DESTROYED"] as const;
export type VersionState = (typeof VERSION_STATES)[number];

/** Proto enum numbers, for clients that ask for `enum-encoding=int` (the Node client does). */
export const VERSION_STATE_NUMBERS: Record<VersionState, number> = {
  ENABLED: 1,
  DISABLED: 2,
  DESTROYED: 3,
  DESTROY_SCHEDULED: 4,
};

export interface KeyRing {
  name: string;
  createTime: string;
}

export interface CryptoKeyVersion {
  name: string;
  state: VersionState;
  createTime: string;
  generateTime: string;
  destroyTime?: string;
  destroyEventTime?: string;
  /** AES-256 key, base64; removed when the version is destroyed. Never sent to clients. */
  material?: string;
}

export interface CryptoKey {
  name: string;
  createTime: string;
  /** Version id of the primary (used by encrypt on the key). */
  primary: number | null;
  versions: CryptoKeyVersion[];
  labels: Record<string, string>;
}

export interface KmsSnapshot {
  format: 1;
  keyRings: KeyRing[];
  cryptoKeys: CryptoKey[];
}

/** Resource ids of key rings and crypto keys (Cloud KMS: letters, digits, `_` and `-`, 1–63). */
export const RESOURCE_ID = /^[a-zA-Z0-9_-]{1,63}$/;
const DESTROY_SCHEDULED_SECONDS = 30 * 24 * 3600;
const MAX_DATA_BYTES = 64 * 1024;
const FORMAT = 0x01;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + 4 + IV_BYTES;

export function checkId(id: string, what: string): void {
  if (!RESOURCE_ID.test(id)) {
    throw invalidArgument(
      `Invalid ${what} '${id}': it must be 1 to 63 letters, digits, underscores or hyphens.`,
    );
  }
}

export class KmsStore {
  private readonly keyRings = new Map<string, KeyRing>();
  private readonly cryptoKeys = new Map<string, CryptoKey>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  snapshot(): KmsSnapshot {
    return {
      format: 1,
      keyRings: [...this.keyRings.values()],
      cryptoKeys: [...this.cryptoKeys.values()],
    };
  }

  restore(snapshot: KmsSnapshot): void {
    if (snapshot.format !== 1)
      throw new Error(`Unknown KMS emulator snapshot format ${String(snapshot.format)}`);
    this.reset();
    for (const ring of snapshot.keyRings) this.keyRings.set(ring.name, ring);
    for (const key of snapshot.cryptoKeys) this.cryptoKeys.set(key.name, key);
  }

  reset(): void {
    this.keyRings.clear();
    this.cryptoKeys.clear();
  }

  // ── key rings ──

  createKeyRing(parent: string, keyRingId: string): KeyRing {
    checkId(keyRingId, "key ring id");
    const name = `${parent}/keyRings/${keyRingId}`;
    if (this.keyRings.has(name)) throw alreadyExists(`KeyRing ${name} already exists.`);
    const ring = { name, createTime: this.now().toISOString() };
    this.keyRings.set(name, ring);
    return ring;
  }

  keyRing(name: string): KeyRing {
    const ring = this.keyRings.get(name);
    if (!ring) throw notFound(`KeyRing ${name} not found.`);
    return ring;
  }

  listKeyRings(parent: string): KeyRing[] {
    return [...this.keyRings.values()].filter((ring) => ring.name.startsWith(`${parent}/keyRings/`));
  }

  // ── crypto keys and versions ──

  createCryptoKey(
    keyRingName: string,
    cryptoKeyId: string,
    options: { labels?: Record<string, string>; skipInitialVersion?: boolean } = {},
  ): CryptoKey {
    this.keyRing(keyRingName);
    checkId(cryptoKeyId, "crypto key id");
    const name = `${keyRingName}/cryptoKeys/${cryptoKeyId}`;
    if (this.cryptoKeys.has(name)) throw alreadyExists(`CryptoKey ${name} already exists.`);
    const key: CryptoKey = {
      name,
      createTime: this.now().toISOString(),
      primary: null,
      versions: [],
      labels: options.labels ?? {},
    };
    this.cryptoKeys.set(name, key);
    if (!options.skipInitialVersion) {
      const version = this.addVersion(key);
      key.primary = versionId(version.name);
    }
    return key;
  }

  cryptoKey(name: string): CryptoKey {
    const key = this.cryptoKeys.get(name);
    if (!key) throw notFound(`CryptoKey ${name} not found.`);
    return key;
  }

  listCryptoKeys(keyRingName: string): CryptoKey[] {
    this.keyRing(keyRingName);
    return [...this.cryptoKeys.values()].filter((key) => key.name.startsWith(`${keyRingName}/cryptoKeys/`));
  }

  /** A new ENABLED version with fresh key material (a rotation when it is then made primary). */
  addVersion(key: CryptoKey): CryptoKeyVersion {
    const at = this.now().toISOString();
    const id = key.versions.reduce((max, version) => Math.max(max, versionId(version.name)), 0) + 1;
    const version: CryptoKeyVersion = {
      name: `${key.name}/cryptoKeyVersions/${id}`,
      state: "ENABLED",
      createTime: at,
      generateTime: at,
      material: randomBytes(32).toString("base64"),
    };
    key.versions.push(version);
    return version;
  }

  version(name: string): { key: CryptoKey; version: CryptoKeyVersion } {
    const keyName = name.replace(/\/cryptoKeyVersions\/[^/]+$/, "");
    const key = this.cryptoKey(keyName);
    const version = key.versions.find((candidate) => candidate.name === name);
    if (!version) throw notFound(`CryptoKeyVersion ${name} not found.`);
    return { key, version };
  }

  setPrimary(key: CryptoKey, id: string): void {
    const { version } = this.version(`${key.name}/cryptoKeyVersions/${id}`);
    if (version.state !== "ENABLED") {
      throw failedPrecondition(`${version.name} is not enabled, current state is: ${version.state}.`);
    }
    key.primary = versionId(version.name);
  }

  /** The public API's state change: only between ENABLED and DISABLED. */
  updateState(name: string, state: VersionState): CryptoKeyVersion {
    const { version } = this.version(name);
    if (state !== "ENABLED" && state !== "DISABLED") {
      throw invalidArgument(`The state of a CryptoKeyVersion can only be updated to ENABLED or DISABLED.`);
    }
    if (version.state !== "ENABLED" && version.state !== "DISABLED") {
      throw failedPrecondition(
        `${version.name} is in state ${version.state} and cannot be ${state.toLowerCase()}.`,
      );
    }
    version.state = state;
    return version;
  }

  scheduleDestroy(name: string): CryptoKeyVersion {
    const { version } = this.version(name);
    if (version.state !== "ENABLED" && version.state !== "DISABLED") {
      throw failedPrecondition(`${version.name} is in state ${version.state} and cannot be destroyed.`);
    }
    version.state = "DESTROY_SCHEDULED";
    version.destroyTime = new Date(this.now().getTime() + DESTROY_SCHEDULED_SECONDS * 1000).toISOString();
    return version;
  }

  restoreVersion(name: string): CryptoKeyVersion {
    const { version } = this.version(name);
    if (version.state !== "DESTROY_SCHEDULED") {
      throw failedPrecondition(`${version.name} is in state ${version.state} and cannot be restored.`);
    }
    version.state = "DISABLED";
    delete version.destroyTime;
    return version;
  }

  /** The emulator-only state change (admin API): any state; DESTROYED wipes the key material for good. */
  forceState(name: string, state: VersionState): CryptoKeyVersion {
    const { version } = this.version(name);
    if (version.state === "DESTROYED" && state !== "DESTROYED") {
      throw failedPrecondition(`${version.name} is destroyed; its key material is gone.`);
    }
    const at = this.now().toISOString();
    version.state = state;
    if (state === "DESTROY_SCHEDULED") {
      version.destroyTime = new Date(this.now().getTime() + DESTROY_SCHEDULED_SECONDS * 1000).toISOString();
    } else if (state === "DESTROYED") {
      version.destroyTime ??= at;
      version.destroyEventTime = at;
      delete version.material;
    } else {
      delete version.destroyTime;
    }
    return version;
  }

  // ── cryptography ──

  /** Encrypts with the key's primary version, or with the version `name` names. */
  encrypt(name: string, plaintext: Buffer, aad: Buffer): { version: CryptoKeyVersion; ciphertext: Buffer } {
    if (plaintext.length === 0) throw invalidArgument("plaintext is required.");
    if (plaintext.length > MAX_DATA_BYTES) {
      throw invalidArgument(`The plaintext must be at most ${MAX_DATA_BYTES} bytes.`);
    }
    if (aad.length > MAX_DATA_BYTES) {
      throw invalidArgument(`The additional authenticated data must be at most ${MAX_DATA_BYTES} bytes.`);
    }
    const { key, version } = name.includes("/cryptoKeyVersions/") ? this.version(name) : this.primaryOf(name);
    const material = usableMaterial(version);
    const iv = randomBytes(IV_BYTES);
    const header = Buffer.alloc(1 + 4);
    header.writeUInt8(FORMAT, 0);
    header.writeUInt32BE(versionId(version.name), 1);
    const cipher = createCipheriv("aes-256-gcm", material, iv);
    cipher.setAAD(boundData(key.name, aad));
    const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { version, ciphertext: Buffer.concat([header, iv, data, cipher.getAuthTag()]) };
  }

  /** Decrypts with the version the ciphertext names (any enabled version, not only the primary). */
  decrypt(
    keyName: string,
    ciphertext: Buffer,
    aad: Buffer,
  ): { version: CryptoKeyVersion; plaintext: Buffer; usedPrimary: boolean } {
    const key = this.cryptoKey(keyName);
    const invalid = () => invalidArgument("Decryption failed: the ciphertext is invalid.");
    if (ciphertext.length < HEADER_BYTES + TAG_BYTES || ciphertext.readUInt8(0) !== FORMAT) throw invalid();
    const id = ciphertext.readUInt32BE(1);
    const version = key.versions.find((candidate) => versionId(candidate.name) === id);
    if (!version) throw invalid();
    const material = usableMaterial(version);
    const iv = ciphertext.subarray(5, HEADER_BYTES);
    const data = ciphertext.subarray(HEADER_BYTES, ciphertext.length - TAG_BYTES);
    const tag = ciphertext.subarray(ciphertext.length - TAG_BYTES);
    try {
      const decipher = createDecipheriv("aes-256-gcm", material, iv);
      decipher.setAAD(boundData(key.name, aad));
      decipher.setAuthTag(tag);
      const plaintext = Buffer.concat([decipher.update(data), decipher.final()]);
      return { version, plaintext, usedPrimary: key.primary === id };
    } catch {
      throw invalid();
    }
  }

  private primaryOf(name: string): { key: CryptoKey; version: CryptoKeyVersion } {
    const key = this.cryptoKey(name);
    const version = key.versions.find((candidate) => versionId(candidate.name) === key.primary);
    if (!version) throw failedPrecondition(`${key.name} has no primary version.`);
    return { key, version };
  }
}

export function versionId(name: string): number {
  return Number(name.slice(name.lastIndexOf("/") + 1));
}

function usableMaterial(version: CryptoKeyVersion): Buffer {
  if (version.state !== "ENABLED" || !version.material) {
    throw failedPrecondition(`${version.name} is not enabled, current state is: ${version.state}.`);
  }
  return Buffer.from(version.material, "base64");
}

function boundData(keyName: string, aad: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${keyName}\0`, "utf8"), aad]);
}
