/**
 * A customer's Cloud KMS key as the engine's `KeyWrapper` (engine/format/keys.ts): data keys wrapped and
 * unwrapped through the functions' KMS service, its failures mapped onto the engine's encryption errors
 * (a key state the customer can fix, or a ciphertext that does not authenticate).
 */
import { KEY_HEALTH_MESSAGES } from "@alpvault/contracts/secrets";
import { EncryptionError, EncryptionKeyError } from "../engine/format/errors";
import type { KeyWrapper } from "../engine/format/keys";
import { keyHealthOfError, type Kms } from "./kms";

/** The gRPC code of a ciphertext Cloud KMS cannot decrypt. */
const GRPC_INVALID_ARGUMENT = 3;

/**
 * What a failed Cloud KMS call means for the backup. `decrypting`: an INVALID_ARGUMENT there is a
 * ciphertext that does not authenticate (altered, or wrapped by another key) — tampering, not a key state.
 */
export function kmsFailure(error: unknown, decrypting: boolean): EncryptionError | EncryptionKeyError {
  const code = (error as { code?: unknown } | null)?.code;
  if (decrypting && code === GRPC_INVALID_ARGUMENT) {
    return new EncryptionError("Cloud KMS could not decrypt the wrapped data key.", { cause: error });
  }
  const health = keyHealthOfError(error);
  return new EncryptionKeyError(health, KEY_HEALTH_MESSAGES[health], { cause: error });
}

/** A customer's Cloud KMS key (its full resource name), through the functions' KMS service. */
export function cloudKmsKeyWrapper(kms: Kms, keyName: string): KeyWrapper {
  return {
    async wrap(key, aad) {
      try {
        return await kms.encrypt(keyName, key, aad);
      } catch (error) {
        throw kmsFailure(error, false);
      }
    },
    async unwrap(wrapped, aad) {
      try {
        return await kms.decrypt(keyName, wrapped, aad);
      } catch (error) {
        throw kmsFailure(error, true);
      }
    },
  };
}
