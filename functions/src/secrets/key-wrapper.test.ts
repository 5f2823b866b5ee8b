import { randomBytes } from "node:crypto";
import { EncryptionError, EncryptionKeyError } from "../engine/format/errors";
import { dataKey, newDataKey, unwrapDataKey, wrapDataKey } from "../engine/format/keys";
import { cloudKmsKeyWrapper } from "./key-wrapper";
import type { Kms } from "./kms";

const ORG = "org-1";

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected a rejection, but the call succeeded.");
}

describe("the Cloud KMS wrapper (mapping of Cloud KMS errors)", () => {
  const KEY = "projects/p/locations/l/keyRings/r/cryptoKeys/k";

  function failingKms(error: unknown): Kms {
    return {
      checkKey: () => Promise.reject(error),
      encrypt: () => Promise.reject(error),
      decrypt: () => Promise.reject(error),
    };
  }

  function grpcError(code: number | undefined, message: string): Error {
    return Object.assign(new Error(message), { code });
  }

  it.each([
    [9, "CryptoKeyVersion … is not enabled, current state is: DISABLED.", "disabled", false],
    [9, "CryptoKeyVersion … is not enabled, current state is: DESTROYED.", "destroyed", false],
    [7, "Permission 'cloudkms.cryptoKeyVersions.useToEncrypt' denied", "permission-denied", false],
    [16, "Request had invalid authentication credentials.", "permission-denied", false],
    [5, "CryptoKey … not found.", "not-found", false],
    [14, "Service unavailable", "unavailable", true],
    [undefined, "connect ECONNREFUSED", "unavailable", true],
  ] as const)(
    "when Cloud KMS answers code %s (%s), then both directions fail with an encryption key error '%s'",
    async (code, message, health, retryable) => {
      const wrapper = cloudKmsKeyWrapper(failingKms(grpcError(code, message)), KEY);
      for (const call of [
        wrapper.wrap(randomBytes(32), Buffer.from("aad")),
        wrapper.unwrap(randomBytes(60), Buffer.from("aad")),
      ]) {
        const error = await rejection(call);
        expect(error).toBeInstanceOf(EncryptionKeyError);
        expect(error).toMatchObject({ health, retryable, failureReason: "encryption-key-error" });
      }
    },
  );

  it("when Cloud KMS cannot decrypt a wrapped key (INVALID_ARGUMENT), then it is an encryption error, not a key error", async () => {
    const wrapper = cloudKmsKeyWrapper(failingKms(grpcError(3, "Decryption failed")), KEY);
    const error = await rejection(wrapper.unwrap(randomBytes(60), Buffer.from("aad")));
    expect(error).toBeInstanceOf(EncryptionError);
    expect(error).toMatchObject({ failureReason: "encryption-error" });
  });

  it("when Cloud KMS answers, then the wrapper passes the key name, the data key and the AAD through", async () => {
    const calls: unknown[][] = [];
    const kms: Kms = {
      checkKey: () => Promise.reject(new Error("unused")),
      encrypt: (name, plaintext, aad) => {
        calls.push(["encrypt", name, plaintext, aad]);
        return Promise.resolve(Buffer.from("wrapped"));
      },
      decrypt: (name, ciphertext, aad) => {
        calls.push(["decrypt", name, ciphertext, aad]);
        return Promise.resolve(Buffer.alloc(32, 7));
      },
    };
    const key = dataKey("cd".repeat(16), Buffer.alloc(32, 7));
    const record = await wrapDataKey(cloudKmsKeyWrapper(kms, KEY), {
      organizationId: ORG,
      secretId: "s1",
      dataKey: key,
    });
    const unwrapped = await unwrapDataKey(cloudKmsKeyWrapper(kms, KEY), ORG, record);
    const aad = Buffer.from(`alpvault:dk:v1:${ORG}:${key.id}`);
    expect(calls).toEqual([
      ["encrypt", KEY, key.key, aad],
      ["decrypt", KEY, Buffer.from("wrapped"), aad],
    ]);
    expect(unwrapped.key.equals(key.key)).toBe(true);
  });

  it("when Cloud KMS returns an unwrapped key of the wrong length, then it is an encryption error", async () => {
    const kms: Kms = {
      checkKey: () => Promise.reject(new Error("unused")),
      encrypt: () => Promise.resolve(Buffer.from("wrapped")),
      decrypt: () => Promise.resolve(Buffer.alloc(16)),
    };
    const record = await wrapDataKey(cloudKmsKeyWrapper(kms, KEY), {
      organizationId: ORG,
      secretId: "s1",
      dataKey: newDataKey(),
    });
    await expect(unwrapDataKey(cloudKmsKeyWrapper(kms, KEY), ORG, record)).rejects.toBeInstanceOf(
      EncryptionError,
    );
  });
});
