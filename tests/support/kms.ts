/**
 * The running stack's Cloud KMS emulator (`KMS_EMULATOR_HOST`), reached over its REST API the way any
 * client would: tests create their own key ring and key (nothing is seeded) and change version states.
 */
import { randomBytes } from "node:crypto";

export const KMS_PROJECT = "alpvault-customer";
export const KMS_LOCATION = "europe-west6";

function baseUrl(): string {
  const host = process.env.KMS_EMULATOR_HOST;
  if (!host) throw new Error("KMS_EMULATOR_HOST is not set: run these tests through 'npm test'");
  return `http://${host}`;
}

async function kmsCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`KMS emulator ${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Creates a new key ring with one symmetric key (version 1 enabled and primary); returns the key's name. */
export async function createKmsKey(keyId = "backups"): Promise<string> {
  const ring = `ring-${randomBytes(4).toString("hex")}`;
  const location = `projects/${KMS_PROJECT}/locations/${KMS_LOCATION}`;
  await kmsCall("POST", `/v1/${location}/keyRings?keyRingId=${ring}`, {});
  const key = await kmsCall<{ name: string }>(
    "POST",
    `/v1/${location}/keyRings/${ring}/cryptoKeys?cryptoKeyId=${keyId}`,
    { purpose: "ENCRYPT_DECRYPT" },
  );
  return key.name;
}

/**
 * Sets the state of a key's version (1 by default): ENABLED and DISABLED as a customer would in Google
 * Cloud; DESTROYED at once through the emulator's admin API.
 */
export async function setKmsKeyState(
  keyName: string,
  state: "ENABLED" | "DISABLED" | "DESTROYED",
  version = 1,
): Promise<void> {
  const versionName = `${keyName}/cryptoKeyVersions/${version}`;
  if (state === "DESTROYED") {
    await kmsCall("POST", `/emulator/v1/${versionName}:setState`, { state });
    return;
  }
  await kmsCall("PATCH", `/v1/${versionName}?updateMask=state`, { state });
}
