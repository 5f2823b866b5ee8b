/**
 * The one way the functions use customers' Cloud KMS keys: check a key, and wrap (encrypt) or unwrap
 * (decrypt) a data key with it. Built on the official client (`@google-cloud/kms`); inside the Functions
 * emulator it talks REST/JSON to our KMS emulator (`KMS_EMULATOR_HOST`), in production to Cloud KMS with
 * the function's service account. Data keys and test plaintexts never leave this module in logs or errors.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { KeyManagementServiceClient } from "@google-cloud/kms";
import { PassThroughClient } from "google-auth-library";
import { KEY_HEALTH_MESSAGES, type KeyHealth } from "@alpvault/contracts/secrets";
import type { KmsConfig } from "../config";

export interface KeyCheckResult {
  health: KeyHealth;
  /** Why the key cannot be used; null when it is ok. */
  message: string | null;
}

export interface Kms {
  /** getCryptoKey (the primary version must be ENABLED), then a test encrypt/decrypt round trip. */
  checkKey(keyName: string): Promise<KeyCheckResult>;
  /** Wraps a data key with the key's primary version. */
  encrypt(keyName: string, dataKey: Buffer, additionalData?: Buffer): Promise<Buffer>;
  /** Unwraps a data key (the ciphertext names the version that wrapped it). */
  decrypt(keyName: string, wrappedKey: Buffer, additionalData?: Buffer): Promise<Buffer>;
}

/** gRPC codes Cloud KMS answers with (the REST transport maps its JSON errors onto them). */
const GRPC = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  FAILED_PRECONDITION: 9,
  UNAUTHENTICATED: 16,
};

type ClientOptions = NonNullable<ConstructorParameters<typeof KeyManagementServiceClient>[0]>;

export function kmsClient(config: KmsConfig): KeyManagementServiceClient {
  if (!config.emulatorHost) return new KeyManagementServiceClient();
  const [host, port] = config.emulatorHost.split(":");
  return new KeyManagementServiceClient({
    fallback: true,
    protocol: "http",
    apiEndpoint: host,
    port: Number(port),
    // The emulator needs no credentials, and nothing may reach Google's token service locally.
    authClient: new PassThroughClient() as unknown as ClientOptions["authClient"],
  } as ClientOptions);
}

function versionHealth(state: unknown): KeyHealth {
  if (state === "ENABLED") return "ok";
  if (state === "DESTROYED" || state === "DESTROY_SCHEDULED") return "destroyed";
  return "disabled";
}

function failed(health: Exclude<KeyHealth, "ok">): KeyCheckResult {
  return { health, message: KEY_HEALTH_MESSAGES[health] };
}

/** Maps a failed Cloud KMS call to what the customer can do about it. */
/** What a failed Cloud KMS call says about the key (gRPC status codes, also on the REST transport). */
export function keyHealthOfError(error: unknown): Exclude<KeyHealth, "ok"> {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : "";
  switch (code) {
    case GRPC.NOT_FOUND:
    case GRPC.INVALID_ARGUMENT:
      return "not-found";
    case GRPC.PERMISSION_DENIED:
    case GRPC.UNAUTHENTICATED:
      return "permission-denied";
    case GRPC.FAILED_PRECONDITION:
      return /DESTROY/.test(text) ? "destroyed" : "disabled";
    default:
      return "unavailable";
  }
}

function healthOfError(error: unknown): KeyCheckResult {
  return failed(keyHealthOfError(error));
}

export function kmsService(client: KeyManagementServiceClient): Kms {
  const encrypt = async (keyName: string, dataKey: Buffer, additionalData?: Buffer): Promise<Buffer> => {
    const [answer] = await client.encrypt({
      name: keyName,
      plaintext: dataKey,
      ...(additionalData ? { additionalAuthenticatedData: additionalData } : {}),
    });
    return Buffer.from(answer.ciphertext as Uint8Array);
  };
  const decrypt = async (keyName: string, wrappedKey: Buffer, additionalData?: Buffer): Promise<Buffer> => {
    const [answer] = await client.decrypt({
      name: keyName,
      ciphertext: wrappedKey,
      ...(additionalData ? { additionalAuthenticatedData: additionalData } : {}),
    });
    return Buffer.from(answer.plaintext as Uint8Array);
  };
  return {
    encrypt,
    decrypt,
    async checkKey(keyName) {
      try {
        const [key] = await client.getCryptoKey({ name: keyName });
        if (!key.primary) return failed("disabled");
        const health = versionHealth(key.primary.state);
        if (health !== "ok") return failed(health);
        const probe = randomBytes(32);
        const unwrapped = await decrypt(keyName, await encrypt(keyName, probe));
        if (unwrapped.length !== probe.length || !timingSafeEqual(unwrapped, probe)) {
          return failed("unavailable");
        }
        return { health: "ok", message: null };
      } catch (error) {
        return healthOfError(error);
      }
    },
  };
}
