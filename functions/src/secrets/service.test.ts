import { DEFAULT_SECRET_ID, KEY_HEALTH_MESSAGES, SECRET_MESSAGES } from "@alpvault/contracts/secrets";
import type { KeyManagementServiceClient } from "@google-cloud/kms";
import { kmsService } from "./kms";
import type { StoredSecret } from "./repo";
import { BUILT_IN_DESCRIPTION, orderSecrets, parseCreate, parseUpdate } from "./service";

const KEY = "projects/alpvault-customer/locations/europe-west6/keyRings/ring/cryptoKeys/backups";

function stored(secretId: string, createdAt: string, isDefault = false): StoredSecret {
  return {
    secretId,
    description: secretId,
    kmsResourceName: `${KEY}-${secretId}`,
    isDefault,
    lastCheck: null,
    createdAt,
    createdBy: "admin@example.test",
    updatedAt: createdAt,
  };
}

describe("orderSecrets", () => {
  it("when no customer key is default, then the built-in key is first and default", () => {
    const list = orderSecrets([stored("b", "2026-02-01"), stored("a", "2026-01-01")]);
    expect(list.map((secret) => [secret.secretId, secret.isDefault])).toEqual([
      [DEFAULT_SECRET_ID, true],
      ["a", false],
      ["b", false],
    ]);
    expect(list[0]).toMatchObject({
      kind: "default",
      description: BUILT_IN_DESCRIPTION,
      kmsResourceName: null,
    });
  });

  it("when a customer key is default, then it comes first and the built-in key follows, not default", () => {
    const list = orderSecrets([stored("a", "2026-01-01"), stored("b", "2026-02-01", true)]);
    expect(list.map((secret) => [secret.secretId, secret.isDefault])).toEqual([
      ["b", true],
      [DEFAULT_SECRET_ID, false],
      ["a", false],
    ]);
  });
});

describe("parseCreate and parseUpdate", () => {
  it("when fields break a rule, then the first broken rule's text is a 400", () => {
    expect(() => parseCreate({ kmsResourceName: KEY })).toThrow(SECRET_MESSAGES.descriptionRequired);
    expect(() => parseCreate({ description: "x", kmsResourceName: "keys/k" })).toThrow(
      SECRET_MESSAGES.kmsResourceNameInvalid,
    );
    expect(() => parseCreate({ description: "x".repeat(201), kmsResourceName: KEY })).toThrow(
      SECRET_MESSAGES.descriptionTooLong,
    );
    expect(() => parseCreate(null)).toThrow(SECRET_MESSAGES.descriptionRequired);
    expect(() => parseUpdate({})).toThrow("Nothing to update");
    expect(() => parseUpdate({ description: " " })).toThrow(SECRET_MESSAGES.descriptionRequired);
  });

  it("when fields are valid, then they are trimmed", () => {
    expect(parseCreate({ description: " Finance ", kmsResourceName: ` ${KEY} ` })).toEqual({
      description: "Finance",
      kmsResourceName: KEY,
      isDefault: false,
    });
    expect(parseUpdate({ kmsResourceName: KEY })).toEqual({ kmsResourceName: KEY });
  });
});

describe("kmsService.checkKey", () => {
  /** A stand-in client: getCryptoKey answers `state` (or throws `error`); encrypt/decrypt round-trip. */
  function client(options: { state?: string; error?: { code: number; message: string } }) {
    return {
      getCryptoKey: () =>
        options.error
          ? Promise.reject(Object.assign(new Error(options.error.message), options.error))
          : Promise.resolve([{ name: KEY, primary: { state: options.state } }]),
      encrypt: ({ plaintext }: { plaintext: Buffer }) =>
        Promise.resolve([{ ciphertext: Buffer.from(plaintext).reverse() }]),
      decrypt: ({ ciphertext }: { ciphertext: Buffer }) =>
        Promise.resolve([{ plaintext: Buffer.from(ciphertext).reverse() }]),
    } as unknown as KeyManagementServiceClient;
  }

  it("when the primary version is enabled and the round trip works, then the key is ok", async () => {
    expect(await kmsService(client({ state: "ENABLED" })).checkKey(KEY)).toEqual({
      health: "ok",
      message: null,
    });
  });

  it("when the version is disabled or destroyed, or Cloud KMS refuses, then the health says why", async () => {
    const cases: [Parameters<typeof client>[0], keyof typeof KEY_HEALTH_MESSAGES][] = [
      [{ state: "DISABLED" }, "disabled"],
      [{ state: "DESTROYED" }, "destroyed"],
      [{ state: "DESTROY_SCHEDULED" }, "destroyed"],
      [{ error: { code: 5, message: "CryptoKey not found." } }, "not-found"],
      [{ error: { code: 7, message: "Permission denied" } }, "permission-denied"],
      [{ error: { code: 9, message: "is not enabled, current state is: DISABLED." } }, "disabled"],
      [{ error: { code: 14, message: "connect ECONNREFUSED" } }, "unavailable"],
    ];
    for (const [options, health] of cases) {
      expect(await kmsService(client(options)).checkKey(KEY)).toEqual({
        health,
        message: KEY_HEALTH_MESSAGES[health],
      });
    }
  });
});
