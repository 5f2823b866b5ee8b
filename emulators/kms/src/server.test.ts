/**
 * The KMS emulator driven by the official client (`@google-cloud/kms`, REST transport): key rings and keys,
 * encrypt/decrypt round trips, version states and Cloud KMS's errors.
 */
import type { KeyManagementServiceClient } from "@google-cloud/kms";
import { emulatorKmsClient } from "./client";
import { startKmsEmulator, type RunningKmsEmulator } from "./server";

const LOCATION = "projects/test-project/locations/europe-west6";

let running: RunningKmsEmulator;
let client: KeyManagementServiceClient;

beforeAll(async () => {
  running = await startKmsEmulator({ port: 0 });
  client = emulatorKmsClient(running.hostPort);
});

afterAll(async () => {
  await client.close();
  await running.stop();
});

let counter = 0;
/** A new key ring with one symmetric key (version 1, enabled, primary). */
async function newKey(): Promise<string> {
  counter += 1;
  const [ring] = await client.createKeyRing({ parent: LOCATION, keyRingId: `ring-${counter}`, keyRing: {} });
  const [key] = await client.createCryptoKey({
    parent: ring.name as string,
    cryptoKeyId: "backups",
    cryptoKey: { purpose: "ENCRYPT_DECRYPT" },
  });
  return key.name as string;
}

/** The gRPC code and message of a rejected call. */
async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    const { code, message } = error as { code: number; message: string };
    return { code, message };
  }
  throw new Error("Expected the call to fail, but it succeeded.");
}

const FAILED_PRECONDITION = 9;
const NOT_FOUND = 5;
const INVALID_ARGUMENT = 3;
const ALREADY_EXISTS = 6;

async function setState(versionName: string, state: "ENABLED" | "DISABLED"): Promise<void> {
  await client.updateCryptoKeyVersion({
    cryptoKeyVersion: { name: versionName, state },
    updateMask: { paths: ["state"] },
  });
}

test("when a key is created, then getCryptoKey shows its enabled primary version and no key material", async () => {
  const name = await newKey();
  const [key] = await client.getCryptoKey({ name });
  expect(key.name).toBe(name);
  expect(key.purpose).toBe("ENCRYPT_DECRYPT");
  expect(key.primary?.name).toBe(`${name}/cryptoKeyVersions/1`);
  expect(key.primary?.state).toBe("ENABLED");
  expect(JSON.stringify(key)).not.toMatch(/material/i);
});

test("when data is encrypted and decrypted, then the plaintext comes back and the ciphertext names the version", async () => {
  const name = await newKey();
  const plaintext = Buffer.from("a 32-byte data key for backups!!");
  const [encrypted] = await client.encrypt({ name, plaintext });
  expect(encrypted.name).toBe(`${name}/cryptoKeyVersions/1`);
  const ciphertext = Buffer.from(encrypted.ciphertext as Uint8Array);
  expect(ciphertext.includes(plaintext)).toBe(false);
  const [decrypted] = await client.decrypt({ name, ciphertext });
  expect(Buffer.from(decrypted.plaintext as Uint8Array)).toEqual(plaintext);
  expect(decrypted.usedPrimary).toBe(true);
});

test("when additional authenticated data differs at decrypt, then decryption fails with INVALID_ARGUMENT", async () => {
  const name = await newKey();
  const [encrypted] = await client.encrypt({
    name,
    plaintext: Buffer.from("secret"),
    additionalAuthenticatedData: Buffer.from("organisation-1"),
  });
  const error = await failure(
    client.decrypt({
      name,
      ciphertext: encrypted.ciphertext,
      additionalAuthenticatedData: Buffer.from("organisation-2"),
    }),
  );
  expect(error.code).toBe(INVALID_ARGUMENT);
});

test("when the key is rotated, then old ciphertext still decrypts with its own version and new data uses the new primary", async () => {
  const name = await newKey();
  const [old] = await client.encrypt({ name, plaintext: Buffer.from("before rotation") });
  const [version2] = await client.createCryptoKeyVersion({ parent: name, cryptoKeyVersion: {} });
  await client.updateCryptoKeyPrimaryVersion({ name, cryptoKeyVersionId: "2" });
  const [fresh] = await client.encrypt({ name, plaintext: Buffer.from("after rotation") });
  expect(fresh.name).toBe(version2.name);
  const [decryptedOld] = await client.decrypt({ name, ciphertext: old.ciphertext });
  expect(Buffer.from(decryptedOld.plaintext as Uint8Array).toString()).toBe("before rotation");
  expect(decryptedOld.usedPrimary).toBe(false);
});

test("when the primary version is disabled, then encrypt and decrypt fail with FAILED_PRECONDITION, and work again once enabled", async () => {
  const name = await newKey();
  const version = `${name}/cryptoKeyVersions/1`;
  const [encrypted] = await client.encrypt({ name, plaintext: Buffer.from("data key") });
  await setState(version, "DISABLED");
  const [key] = await client.getCryptoKey({ name });
  expect(key.primary?.state).toBe("DISABLED");
  const encryptError = await failure(client.encrypt({ name, plaintext: Buffer.from("data key") }));
  expect(encryptError).toMatchObject({ code: FAILED_PRECONDITION });
  expect(encryptError.message).toContain("is not enabled, current state is: DISABLED");
  expect(await failure(client.decrypt({ name, ciphertext: encrypted.ciphertext }))).toMatchObject({
    code: FAILED_PRECONDITION,
  });

  await setState(version, "ENABLED");
  const [decrypted] = await client.decrypt({ name, ciphertext: encrypted.ciphertext });
  expect(Buffer.from(decrypted.plaintext as Uint8Array).toString()).toBe("data key");
});

test("when a version is destroyed, then it is scheduled, refuses encrypt and decrypt, and can be restored only while scheduled", async () => {
  const name = await newKey();
  const version = `${name}/cryptoKeyVersions/1`;
  const [encrypted] = await client.encrypt({ name, plaintext: Buffer.from("data key") });
  const [scheduled] = await client.destroyCryptoKeyVersion({ name: version });
  expect(scheduled.state).toBe("DESTROY_SCHEDULED");
  expect(scheduled.destroyTime).toBeTruthy();
  expect(await failure(client.decrypt({ name, ciphertext: encrypted.ciphertext }))).toMatchObject({
    code: FAILED_PRECONDITION,
  });
  const [restored] = await client.restoreCryptoKeyVersion({ name: version });
  expect(restored.state).toBe("DISABLED");

  // The admin API destroys at once: the material is gone, for good.
  const response = await fetch(`${running.url}/emulator/v1/${version}:setState`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ state: "DESTROYED" }),
  });
  expect(response.status).toBe(200);
  const [destroyed] = await client.getCryptoKeyVersion({ name: version });
  expect(destroyed.state).toBe("DESTROYED");
  const error = await failure(client.encrypt({ name, plaintext: Buffer.from("data key") }));
  expect(error).toMatchObject({ code: FAILED_PRECONDITION });
  expect(error.message).toContain("current state is: DESTROYED");
  expect(await failure(setState(version, "ENABLED"))).toMatchObject({ code: FAILED_PRECONDITION });
});

test("when a key, key ring or version does not exist, then the answer is NOT_FOUND", async () => {
  const name = await newKey();
  expect(
    await failure(client.getCryptoKey({ name: `${LOCATION}/keyRings/nowhere/cryptoKeys/none` })),
  ).toMatchObject({ code: NOT_FOUND });
  expect(await failure(client.encrypt({ name: `${name}-other`, plaintext: Buffer.from("x") }))).toMatchObject(
    {
      code: NOT_FOUND,
    },
  );
  expect(await failure(client.getCryptoKeyVersion({ name: `${name}/cryptoKeyVersions/9` }))).toMatchObject({
    code: NOT_FOUND,
  });
});

test("when input is malformed, then the answer is INVALID_ARGUMENT; a duplicate key is ALREADY_EXISTS", async () => {
  const name = await newKey();
  expect(
    await failure(client.getCryptoKey({ name: `${LOCATION}/keyRings/bad ring!/cryptoKeys/key` })),
  ).toMatchObject({ code: INVALID_ARGUMENT });
  expect(await failure(client.encrypt({ name, plaintext: Buffer.alloc(0) }))).toMatchObject({
    code: INVALID_ARGUMENT,
  });
  expect(
    await failure(client.decrypt({ name, ciphertext: Buffer.from("not a ciphertext at all") })),
  ).toMatchObject({
    code: INVALID_ARGUMENT,
  });
  expect(
    await failure(
      client.createCryptoKey({
        parent: name.replace(/\/cryptoKeys\/.*$/, ""),
        cryptoKeyId: "backups",
        cryptoKey: { purpose: "ENCRYPT_DECRYPT" },
      }),
    ),
  ).toMatchObject({ code: ALREADY_EXISTS });
});

test("when called over plain HTTP, then errors carry Google's JSON error body", async () => {
  const response = await fetch(`${running.url}/v1/${LOCATION}/keyRings/nowhere/cryptoKeys/none:encrypt`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ plaintext: "aGVsbG8=" }),
  });
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({
    error: {
      code: 404,
      message: `CryptoKey ${LOCATION}/keyRings/nowhere/cryptoKeys/none not found.`,
      status: "NOT_FOUND",
    },
  });
  const bad = await fetch(`${running.url}/v1/${LOCATION}/keyRings/r/cryptoKeys/k:encrypt`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{not json",
  });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { status: string } }).error.status).toBe("INVALID_ARGUMENT");
});

test("when the emulator stops with a save and starts again, then keys and their material are back", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dataDir = mkdtempSync(join(tmpdir(), "kms-emulator-"));
  try {
    const first = await startKmsEmulator({ port: 0, dataDir });
    const firstClient = emulatorKmsClient(first.hostPort);
    await firstClient.createKeyRing({ parent: LOCATION, keyRingId: "kept", keyRing: {} });
    const [key] = await firstClient.createCryptoKey({
      parent: `${LOCATION}/keyRings/kept`,
      cryptoKeyId: "k",
      cryptoKey: { purpose: "ENCRYPT_DECRYPT" },
    });
    const [encrypted] = await firstClient.encrypt({ name: key.name, plaintext: Buffer.from("kept") });
    await firstClient.close();
    await first.stop({ save: true });

    const second = await startKmsEmulator({ port: 0, dataDir });
    const secondClient = emulatorKmsClient(second.hostPort);
    const [decrypted] = await secondClient.decrypt({ name: key.name, ciphertext: encrypted.ciphertext });
    expect(Buffer.from(decrypted.plaintext as Uint8Array).toString()).toBe("kept");
    await secondClient.close();
    await second.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
