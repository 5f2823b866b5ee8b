/**
 * What can go wrong reading or writing the backup format, each tied to the run's failure reason (docs/requirements.md#errors-and-messages).
 * Messages name ids and states only: never key material, never content.
 */
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import type { KeyHealth } from "@alpvault/contracts/secrets";

/**
 * An object is not in a format this reader knows (bad magic, unknown version or compression, truncated,
 * malformed manifest). Corruption or a newer writer: never retried into success.
 */
export class FormatError extends Error {
  readonly failureReason: BackupFailureReason = "encryption-error";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FormatError";
  }
}

/**
 * Authenticated decryption or an integrity check failed: the object or wrapped key was altered, moved,
 * renamed, or belongs to another data key. Means tampering or corruption; never retried into success.
 */
export class EncryptionError extends Error {
  readonly failureReason: BackupFailureReason = "encryption-error";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EncryptionError";
  }
}

/**
 * The key that wraps a data key cannot be used: the customer's Cloud KMS key is disabled, destroyed, gone
 * or not ours to use (fatal for the run), or Cloud KMS did not answer (`retryable`: worth another try
 * before the run gives up with the same reason).
 */
export class EncryptionKeyError extends Error {
  readonly failureReason: BackupFailureReason = "encryption-key-error";
  readonly health: Exclude<KeyHealth, "ok">;
  readonly retryable: boolean;

  constructor(health: Exclude<KeyHealth, "ok">, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EncryptionKeyError";
    this.health = health;
    this.retryable = health === "unavailable";
  }
}
