/**
 * Data keys wrapped by a customer's Cloud KMS key: the format library's Cloud KMS wrapper over the
 * functions' KMS service (the official client, REST transport) against the KMS emulator started in-process.
 *
 * The client comes from `emulatorKmsClient` (an auth object that fetches directly) rather than the
 * functions' `kmsClient`: under jest, gaxios cannot load its fetch (a dynamic import) and every call would
 * be retried until gax's total timeout.
 */
import type { KeyManagementServiceClient } from "@google-cloud/kms";
import { emulatorKmsClient, type RunningKmsEmulator, startKmsEmulator } from "../../emulators/kms/src/index";
import { EncryptionError, EncryptionKeyError } from "../../functions/src/engine/format/errors";
import {
  newDataKey,
  unwrapDataKey,
  wrapDataKey,
  type DataKeyRecord,
} from "../../functions/src/engine/format/keys";
import { kmsService, type Kms } from "../../functions/src/secrets/kms";
import { createKmsKey, setKmsKeyState } from "../support/kms";
import { cloudKmsKeyWrapper } from "../../functions/src/secrets/key-wrapper";

const ORG = "org-kms";

let running: RunningKmsEmulator;
let client: KeyManagementServiceClient;
let kms: Kms;
const previousHost = process.env.KMS_EMULATOR_HOST;

beforeAll(async () => {
  running = await startKmsEmulator({ port: 0 });
  // tests/support/kms.ts reaches the emulator named here.
  process.env.KMS_EMULATOR_HOST = running.hostPort;
  client = emulatorKmsClient(running.hostPort);
  kms = kmsService(client);
});

afterAll(async () => {
  if (previousHost === undefined) delete process.env.KMS_EMULATOR_HOST;
  else process.env.KMS_EMULATOR_HOST = previousHost;
  await client.close();
  await running.stop();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected a rejection, but the call succeeded.");
}

async function wrappedRecord(keyName: string): Promise<{ record: DataKeyRecord; key: Buffer }> {
  const dataKey = newDataKey();
  const record = await wrapDataKey(cloudKmsKeyWrapper(kms, keyName), {
    organizationId: ORG,
    secretId: "customer-key",
    dataKey,
  });
  return { record, key: dataKey.key };
}

test("when a data key is wrapped with a Cloud KMS key, then the record unwraps to the same key and holds no plaintext key", async () => {
  const keyName = await createKmsKey();
  const { record, key } = await wrappedRecord(keyName);
  expect(record).toMatchObject({ secretId: "customer-key", formatVersion: 1, state: "active" });
  expect(Buffer.from(record.wrappedKey, "base64").includes(key)).toBe(false);
  const unwrapped = await unwrapDataKey(cloudKmsKeyWrapper(kms, keyName), ORG, record);
  expect(unwrapped.id).toBe(record.dataKeyId);
  expect(unwrapped.key.equals(key)).toBe(true);
});

test("when a wrapped key is unwrapped for another organisation, then Cloud KMS refuses it as an encryption error", async () => {
  const keyName = await createKmsKey();
  const { record } = await wrappedRecord(keyName);
  const error = await rejection(unwrapDataKey(cloudKmsKeyWrapper(kms, keyName), "org-other", record));
  expect(error).toBeInstanceOf(EncryptionError);
});

test("when a wrapped key is unwrapped with another Cloud KMS key, then it is an encryption error", async () => {
  const { record } = await wrappedRecord(await createKmsKey());
  const error = await rejection(unwrapDataKey(cloudKmsKeyWrapper(kms, await createKmsKey()), ORG, record));
  expect(error).toBeInstanceOf(EncryptionError);
});

test("when the key version is disabled, then wrapping and unwrapping fail with a fatal encryption key error, and work again once enabled", async () => {
  const keyName = await createKmsKey();
  const { record, key } = await wrappedRecord(keyName);
  const wrapper = cloudKmsKeyWrapper(kms, keyName);
  await setKmsKeyState(keyName, "DISABLED");

  const unwrapError = await rejection(unwrapDataKey(wrapper, ORG, record));
  expect(unwrapError).toBeInstanceOf(EncryptionKeyError);
  expect(unwrapError).toMatchObject({
    health: "disabled",
    retryable: false,
    failureReason: "encryption-key-error",
  });
  const wrapError = await rejection(
    wrapDataKey(wrapper, { organizationId: ORG, secretId: "customer-key", dataKey: newDataKey() }),
  );
  expect(wrapError).toBeInstanceOf(EncryptionKeyError);
  expect(wrapError).toMatchObject({ health: "disabled" });

  await setKmsKeyState(keyName, "ENABLED");
  expect((await unwrapDataKey(wrapper, ORG, record)).key.equals(key)).toBe(true);
});

test("when the key version is destroyed, then unwrapping fails with an encryption key error 'destroyed'", async () => {
  const keyName = await createKmsKey();
  const { record } = await wrappedRecord(keyName);
  await setKmsKeyState(keyName, "DESTROYED");
  const error = await rejection(unwrapDataKey(cloudKmsKeyWrapper(kms, keyName), ORG, record));
  expect(error).toBeInstanceOf(EncryptionKeyError);
  expect(error).toMatchObject({ health: "destroyed", retryable: false });
});

test("when the Cloud KMS key does not exist, then wrapping fails with an encryption key error 'not-found'", async () => {
  const keyName = `${await createKmsKey()}-gone`;
  const error = await rejection(
    wrapDataKey(cloudKmsKeyWrapper(kms, keyName), {
      organizationId: ORG,
      secretId: "s",
      dataKey: newDataKey(),
    }),
  );
  expect(error).toBeInstanceOf(EncryptionKeyError);
  expect(error).toMatchObject({ health: "not-found" });
});
