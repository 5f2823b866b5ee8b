/**
 * Recovering backups (docs/requirements.md#screens-and-navigation recovery modal, #errors-and-messages recovery errors and success): the
 * texts, shared by the browser and the API, and the answers' types. The request's rules are in
 * `recovery-request.ts`.
 */
import type { WorkPace } from "./eta";

export const RECOVERY_MESSAGES = {
  started: "Recovery started",
  failed: "Recovery failed",
  inProgress: "Another recovery for the same resource is in progress.",
  targetRequired: "Please choose the resource to recover to",
  folderRequired: "Please enter a folder name",
  folderCharacters: "The folder name may only contain letters, numbers, dashes and underscores",
  nothingToRecover: "There is nothing backed up to recover for this choice",
  resourceNotFound: "Resource not found",
  recoveryNotFound: "Recovery not found",
  noDriveWriter:
    "No member of the organisation may add files to this shared drive. Add one as a contributor or more, then try again.",
  itemNotFound: "Some of the selected items were not found. Search again and select them anew.",
} as const;

/**
 * Why a whole recovery failed, in a sentence saying what happened and what to do (shown after "Recovery
 * failed: "); Google's reason, when there is one, in brackets for support.
 */
export const RECOVERY_FAILURE_TEXTS = {
  notQueued: "The recovery could not be queued. Start it again in a few minutes.",
  google: (detail: string | undefined) =>
    `Google refused or failed the recovery's requests${detail ? ` (${detail})` : ""}. Check that the target account is active and that the Alpvault app is still installed with all its permissions, then start the recovery again.`,
  key: "The backup's encryption key could not be used. Check the key on the Secrets screen (Check key), then start the recovery again.",
  storage: "The backup storage could not be reached. Start the recovery again in a few minutes.",
  catalog: "Our catalogue did not answer in time. Start the recovery again in a few minutes.",
  unexpected: (recoveryId: string) =>
    `Something unexpected stopped the recovery. Start it again; if it fails again, contact support with the recovery's id (${recoveryId}).`,
} as const;

/** A permission Google refused to re-apply on a restored item: to whom, as what, and Google's reason. */
export interface RefusedShare {
  to: string;
  role: string;
  reason: string;
}

/** Why an item of a recovery was skipped or failed (the progress card and the report show it). */
export const RECOVERY_ITEM_REASONS = {
  integrity: "integrity check failed",
  notExportable: "Google offers no export of this file: only its details were backed up",
  notBackedUp: "Not in the backups at the recovery's date",
  alreadyThere: "Already in the target: left as it is",
  googleRefused: (reason: string) => `Google refused the item (${reason})`,
  /** A restored file some of whose sharing Google refused to re-apply: each, with Google's reason. */
  sharingNotReapplied: (refused: readonly RefusedShare[]) =>
    `Restored; sharing not re-applied: ${refused.map((share) => `${share.to} as ${share.role} (${share.reason})`).join("; ")}`,
  /** A restored item some of whose parts did not come back as backed up (a contact's photo or group). */
  restoredWithNotes: (notes: readonly string[]) => `Restored; ${notes.join("; ")}`,
  stopped: "The recovery stopped before this item",
  seriesNotRestored: "Its recurring series could not be restored, so this changed instance was not either",
  noCalendarUid: "The backed-up event has no iCalendar id to import it by",
  calendarNotRecreated:
    "Not recreated: the recovery puts the events into one new calendar (recover to the original place to recreate calendars)",
} as const;

export const RECOVERY_SERVICES = ["gmail", "drive", "calendar", "contacts"] as const;
export type RecoveryService = (typeof RECOVERY_SERVICES)[number];

export type RecoveryState = "pending" | "running" | "succeeded" | "failed";

/** GET /v1/organizations/{id}/recoveries/{recoveryId}; POST …/recoveries answers it with 202. */
export interface Recovery {
  recoveryId: string;
  state: RecoveryState;
  service: RecoveryService;
  resourceId: string;
  targetResourceId: string;
  method: "folder" | "overwrite";
  folderName: string | null;
  /** Items recovered as held at this instant (the end of the request's date), or null: as backed up last. */
  asOf: string | null;
  requestedAt: string;
  finishedAt: string | null;
  progress: RecoveryProgress;
  failureReason: string | null;
  /**
   * The first items (at most 20) that were skipped or failed, with why; every item's outcome is in the
   * report (`GET …/recoveries/{recoveryId}/report`, CSV).
   */
  problems: RecoveryProblem[];
}

/** GET /v1/organizations/{id}/recoveries?resourceId=: the resource's newest recoveries, from it or to it. */
export interface RecoveryList {
  recoveries: Recovery[];
}

/**
 * A recovery's progress. The counts: when the recovery ends, total = restored + skipped + failed (the
 * chosen items, or for a whole resource the items held at the date, counted before it starts). Bytes: the
 * source bytes of the items restored so far, and of every item chosen. While it runs: its measured pace
 * (null until it has run a minute), the seconds left and what sets the pace (docs/backup-engine.md "Totals,
 * rate and time left"); null otherwise.
 */
export interface RecoveryProgress extends WorkPace {
  total: number;
  restored: number;
  skipped: number;
  failed: number;
  bytes: number;
}

export interface RecoveryProblem {
  itemKey: string;
  /** The message's subject or the file's name, as backed up. */
  name: string;
  outcome: "skipped" | "failed";
  reason: string;
}
