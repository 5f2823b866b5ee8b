import { RECOVERY_FAILURE_TEXTS } from "@alpvault/contracts/recovery";
import { detailOf, failureReasonOf } from "../engine/runner/run-errors";

/** What a recovery that threw says: what happened and what to do (`RECOVERY_FAILURE_TEXTS`). */
export function recoveryFailureText(error: unknown, recoveryId: string): string {
  switch (failureReasonOf(error)) {
    case "google-api-error":
      return RECOVERY_FAILURE_TEXTS.google(detailOf(error));
    case "encryption-key-error":
      return RECOVERY_FAILURE_TEXTS.key;
    case "object-storage-unavailable":
      return RECOVERY_FAILURE_TEXTS.storage;
    case "database-unresponsive":
      return RECOVERY_FAILURE_TEXTS.catalog;
    case "encryption-error":
    case "backup-not-completed":
    case "email-unreadable":
    case "storage-full":
    case "search-service-unavailable":
    case "unknown-error":
      return RECOVERY_FAILURE_TEXTS.unexpected(recoveryId);
  }
}
