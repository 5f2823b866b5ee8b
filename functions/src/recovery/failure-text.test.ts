import { RECOVERY_FAILURE_TEXTS } from "@alpvault/contracts/recovery";
import { BlobStoreError } from "../engine/blobstore/blob-store";
import { EncryptionKeyError } from "../engine/format/errors";
import { GoogleCallError } from "../engine/google/errors";
import { recoveryFailureText } from "./failure-text";

describe("why a recovery failed", () => {
  test("when Google refused, then the text says so with Google's reason, and what to check", () => {
    const error = new GoogleCallError(
      "gmail.users.messages.import",
      1,
      { kind: "fatal", reason: "google-api-error", status: 403, googleReason: "insufficientPermissions" },
      undefined,
    );
    const text = recoveryFailureText(error, "rec-1");
    expect(text).toBe(RECOVERY_FAILURE_TEXTS.google("insufficientPermissions"));
    expect(text).toContain("(insufficientPermissions)");
    expect(text).toContain("the Alpvault app is still installed with all its permissions");
  });

  test("when the key or the storage failed, then the text names it and what to do", () => {
    expect(recoveryFailureText(new EncryptionKeyError("disabled", "disabled"), "rec-1")).toBe(
      RECOVERY_FAILURE_TEXTS.key,
    );
    expect(recoveryFailureText(new BlobStoreError("unavailable", "down"), "rec-1")).toBe(
      RECOVERY_FAILURE_TEXTS.storage,
    );
  });

  test("when the cause is unknown, then the text asks to try again and gives the recovery's id for support, never the error's own text", () => {
    const text = recoveryFailureText(new Error("secret subject line"), "rec-42");
    expect(text).toBe(RECOVERY_FAILURE_TEXTS.unexpected("rec-42"));
    expect(text).toContain("(rec-42)");
    expect(text).not.toContain("secret");
    expect(text).not.toBe("Recovery failed");
  });
});
