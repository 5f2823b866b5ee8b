/**
 * Customer-managed encryption keys (CMEK): Cloud Storage's side of Cloud KMS, reached over the KMS
 * emulator's REST API (`kmsEndpoint`) the way Cloud Storage's service agent reaches Cloud KMS
 * (https://cloud.google.com/storage/docs/encryption/customer-managed-keys,
 * https://cloud.google.com/storage/docs/encryption/using-customer-managed-keys).
 *
 * A new object under a key gets a fresh data key, wrapped by `…/cryptoKeys/{k}:encrypt` (so the key's
 * primary version is the one recorded: the object resource's `kmsKeyName` names it); every read of its bytes
 * unwraps the data key again with `:decrypt`, so an object is unreadable while that version is disabled or
 * destroyed, and readable again once it is enabled. Metadata reads ask only for the version's state (its
 * checksums are encrypted under the key at Google, so they are left out while the version cannot be used).
 *
 * Errors are those users report from Cloud Storage (see docs/storage-emulator.md, "Customer-managed
 * encryption keys"): a malformed or versioned key name is 400 `Bad Cloud KMS crypto key: …`, a key Cloud KMS
 * does not let the service agent use (unknown, or no permission) is 403 `Permission denied on Cloud KMS key…`,
 * a key in another location than the bucket is 400 `Cloud KMS region '…' not available for use with GCS
 * region '…'.`, and a version that is not enabled is 400 with Cloud KMS's own message.
 */
import { StorageApiError, invalid, unavailable } from "./http";
import { newDataKey } from "./sealed-blobs";
import { type ObjectEncryption, type StoredBucket } from "./store-model";

/** `projects/{p}/locations/{l}/keyRings/{r}/cryptoKeys/{k}`, with the ids Cloud KMS accepts. */
const CRYPTO_KEY =
  /^projects\/([a-z0-9][a-z0-9.-]{0,62})\/locations\/([a-z0-9][a-z0-9-]{0,62})\/keyRings\/[a-zA-Z0-9_-]{1,63}\/cryptoKeys\/[a-zA-Z0-9_-]{1,63}$/i;

export const badKmsKey = (name: string): StorageApiError => invalid(`Bad Cloud KMS crypto key: ${name}`);

export const kmsPermissionDenied = (): StorageApiError =>
  new StorageApiError(
    403,
    "Permission denied on Cloud KMS key. Please ensure that your Cloud Storage service account has been authorized to use this key.",
    "forbidden",
  );

/** The crypto key a version belongs to. */
export function cryptoKeyOf(versionName: string): string {
  return versionName.replace(/\/cryptoKeyVersions\/[^/]+$/, "");
}

/** Cloud Storage's location for a bucket location: a key must be in it (the EU multi-region is KMS's `europe`). */
function locationMatches(bucketLocation: string, keyLocation: string): boolean {
  const bucket = bucketLocation.toLowerCase();
  const key = keyLocation.toLowerCase();
  return key === bucket || (bucket === "eu" && key === "europe");
}

/**
 * Checks a requested key name (an upload's `kmsKeyName`, a bucket's `defaultKmsKeyName`): the name of a
 * crypto key, not of a version, in the bucket's location. A bucket the emulator created on first use without
 * a location (`autoCreateBuckets: true`) has none anyone chose, so its location is not compared; the local
 * stack gives its region buckets their region's location, so there it is.
 */
export function checkKeyName(name: string, bucket: Pick<StoredBucket, "location" | "autoCreated">): void {
  const match = CRYPTO_KEY.exec(name);
  if (!match) throw badKmsKey(name);
  const keyLocation = match[2] as string;
  if (!bucket.autoCreated && !locationMatches(bucket.location, keyLocation)) {
    throw invalid(
      `Cloud KMS region '${keyLocation}' not available for use with GCS region '${bucket.location}'.`,
    );
  }
}

interface KmsErrorBody {
  error?: { code?: number; message?: string; status?: string };
}

export class CustomerKeys {
  /** `endpoint`: the KMS emulator's URL (`http://127.0.0.1:8091`); without one, no key can be used. */
  constructor(private readonly endpoint: string | undefined) {}

  /** A fresh data key for a new object, wrapped under `keyName`'s primary version. */
  async newDataKey(keyName: string): Promise<{ encryption: ObjectEncryption; dataKey: Buffer }> {
    const dataKey = newDataKey();
    const answer = await this.call<{ name: string; ciphertext: string }>(`${keyName}:encrypt`, keyName, {
      plaintext: dataKey.toString("base64"),
    });
    return { encryption: { kmsKeyName: answer.name, wrappedKey: answer.ciphertext }, dataKey };
  }

  /** An object's data key, unwrapped by Cloud KMS now (fails while its version is not enabled). */
  async dataKey(encryption: ObjectEncryption): Promise<Buffer> {
    const key = cryptoKeyOf(encryption.kmsKeyName);
    const answer = await this.call<{ plaintext: string }>(`${key}:decrypt`, key, {
      ciphertext: encryption.wrappedKey,
    });
    return Buffer.from(answer.plaintext, "base64");
  }

  /** Throws what Cloud Storage answers when a bucket names a key its service agent cannot use. */
  async checkUsable(keyName: string): Promise<void> {
    await this.call(keyName, keyName);
  }

  /** Whether a key version can be used now (an object's checksums are shown only then). */
  async enabled(versionName: string): Promise<boolean> {
    try {
      return (await this.call<{ state?: string }>(versionName, cryptoKeyOf(versionName))).state === "ENABLED";
    } catch (error) {
      if (error instanceof StorageApiError && error.code < 500) return false;
      throw error;
    }
  }

  /** One Cloud KMS call (a GET without a body), its errors turned into Cloud Storage's. */
  private async call<T>(path: string, keyName: string, body?: unknown): Promise<T> {
    if (!this.endpoint) {
      throw new StorageApiError(
        500,
        "The storage emulator was started without kmsEndpoint: it cannot use Cloud KMS keys (kmsKeyName).",
        "backendError",
      );
    }
    let response: Response;
    try {
      response = await fetch(`${this.endpoint}/v1/${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      console.error(`Storage emulator: Cloud KMS at ${this.endpoint} did not answer`, error);
      throw unavailable();
    }
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as T;
    let kms: KmsErrorBody["error"] = {};
    try {
      kms = (JSON.parse(text) as KmsErrorBody).error ?? {};
    } catch {
      // Not Cloud KMS's error body: an internal error below.
    }
    if (response.status === 403 || response.status === 404) throw kmsPermissionDenied();
    if (kms.status === "FAILED_PRECONDITION")
      throw invalid(kms.message ?? "The Cloud KMS key is not enabled.");
    if (kms.status === "INVALID_ARGUMENT" && !path.endsWith(":decrypt")) throw badKmsKey(keyName);
    // A wrapped key Cloud KMS does not take back, or an answer it never gives: the emulator's own fault.
    throw new Error(`Cloud KMS answered ${response.status} to ${path}: ${text}`);
  }
}
