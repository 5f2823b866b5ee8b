/**
 * The recovery module's stored documents, one schema each (lib/stored.ts): `recoveries/{recoveryId}` (as
 * `repo.ts` `createRecovery` writes it, then its progress, position and lease), its ledger
 * (`recoveries/{id}/ledger/{itemDocId}`: what was restored where) and `recoveryLocks/{targetResourceId}`.
 * A recovery written before bytes were counted, before its date or problems were recorded, or before its
 * start was, reads as none counted, as backed up last, none named and not started.
 */
import { z } from "zod/mini";
import { RECOVERY_SERVICES } from "@alpvault/contracts/recovery";
import { recoveryProblemSchema } from "@alpvault/contracts/schemas/recovery";
import type { Recovery, RecoveryProgress, RefusedShare } from "@alpvault/contracts/recovery";
import { storedKind, storedKindWithId } from "../lib/stored";

/** What a recovery records of its progress (the API adds its pace and time left while it runs). */
export type StoredProgress = Pick<
  RecoveryProgress,
  "total" | "restored" | "skipped" | "failed" | "bytes" | "totalBytes"
>;

export interface StoredRecovery extends Omit<Recovery, "progress"> {
  progress: StoredProgress;
  permissions: boolean;
  itemIds: string[] | null;
  requestedBy: string;
  /**
   * Explicit items: how many are done; all items: the last item key done. `bytes`: the source bytes of the
   * items settled (restored, skipped or failed), for the bytes left.
   */
  position: { index: number; lastItemKey: string | null; bytes: number };
  lease: { holder: string; until: string } | null;
  /** When a worker first took it (its pace is measured from then). */
  startedAt: string | null;
  /**
   * A random secret of the recovery (base64url), never shown: what it signs the marks it leaves at Google
   * with (a contact's restore tag). Absent on a recovery requested before marks were signed.
   */
  tagSecret?: string;
}

const text = z.nullable(z.string());
const counted = z._default(z.number(), 0);

/** `recoveries/{recoveryId}`. */
export const RECOVERY = storedKindWithId<StoredRecovery>(
  "recovery",
  "recoveryId",
  z.object({
    recoveryId: z.string(),
    state: z.enum(["pending", "running", "succeeded", "failed"]),
    service: z.enum(RECOVERY_SERVICES),
    resourceId: z.string(),
    targetResourceId: z.string(),
    method: z.enum(["folder", "overwrite"]),
    folderName: text,
    asOf: z._default(text, null),
    permissions: z.boolean(),
    itemIds: z.nullable(z.array(z.string())),
    requestedAt: z.string(),
    requestedBy: z.string(),
    finishedAt: text,
    progress: z.object({
      total: z.number(),
      restored: z.number(),
      skipped: z.number(),
      failed: z.number(),
      bytes: counted,
      totalBytes: counted,
    }),
    problems: z._default(z.array(recoveryProblemSchema), []),
    failureReason: text,
    position: z.object({ index: z.number(), lastItemKey: text, bytes: counted }),
    lease: z._default(z.nullable(z.object({ holder: z.string(), until: z.string() })), null),
    startedAt: z._default(text, null),
    tagSecret: z.optional(z.string()),
  }),
);

/**
 * One item of a recovery: "importing" before the import, "done" after it (with `reason` when the item was
 * already there and left as it was), or "skipped"/"failed" with why. The report lists them all.
 */
export interface LedgerEntry {
  state: "importing" | "done" | "skipped" | "failed";
  targetId?: string;
  reason?: string;
  /** The message's subject or the file's name, for the report. */
  name?: string;
  /** A restored file's sharing that Google refused to re-apply: to whom, as what, and Google's reason. */
  unshared?: RefusedShare[];
  /** What of a restored item was not restored as backed up (a contact's photo or group), for the report. */
  notes?: string[];
}

/** `recoveries/{id}/ledger/{itemDocId}`: the entry and the item it is of. */
export const LEDGER_ENTRY = storedKind<LedgerEntry & { itemKey: string }>(
  "recovery ledger entry",
  z.object({
    itemKey: z.string(),
    state: z.enum(["importing", "done", "skipped", "failed"]),
    targetId: z.optional(z.string()),
    reason: z.optional(z.string()),
    name: z.optional(z.string()),
    unshared: z.optional(z.array(z.object({ to: z.string(), role: z.string(), reason: z.string() }))),
    notes: z.optional(z.array(z.string())),
  }),
);

/** `recoveryLocks/{targetResourceId}`: the recovery that holds the target, since when. */
export const RECOVERY_LOCK = storedKind<{ recoveryId: string; at: string }>(
  "recovery lock",
  z.object({ recoveryId: z.string(), at: z.string() }),
);
