/**
 * Recovering backups (docs/requirements.md#screens-and-navigation recovery modal, #validation recovery validation, #errors-and-messages recovery errors and success): the
 * request's rules and texts, shared by the browser and the API, and the answers' types.
 */
import * as yup from "yup";
import { isId } from "./ids";
import { SEARCH_MESSAGES, parseSearchDate } from "./search";

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

/** Why an item of a recovery was skipped or failed (the progress card and the report show it). */
export const RECOVERY_ITEM_REASONS = {
  integrity: "integrity check failed",
  notExportable: "Google offers no export of this file: only its details were backed up",
  notBackedUp: "Not in the backups at the recovery's date",
  alreadyThere: "Already in the target: left as it is",
  googleRefused: (reason: string) => `Google refused the item (${reason})`,
  stopped: "The recovery stopped before this item",
} as const;

export const RECOVERY_SERVICES = ["gmail", "drive"] as const;
export type RecoveryService = (typeof RECOVERY_SERVICES)[number];

export const recoveryRequestSchema = yup
  .object({
    resourceId: yup
      .string()
      .trim()
      .required(RECOVERY_MESSAGES.resourceNotFound)
      .test("id", RECOVERY_MESSAGES.resourceNotFound, (value) => isId(value)),
    service: yup.string().oneOf(RECOVERY_SERVICES).required(),
    /** Items to recover (catalog item ids); absent: everything of the service. */
    itemIds: yup
      .array(
        yup
          .string()
          .required()
          .test("id", RECOVERY_MESSAGES.itemNotFound, (value) => isId(value)),
      )
      .max(1000)
      .optional(),
    location: yup
      .string()
      .oneOf(["original", "other"] as const)
      .required(),
    targetResourceId: yup
      .string()
      .trim()
      .when("location", {
        is: "other",
        then: (schema) =>
          schema
            .required(RECOVERY_MESSAGES.targetRequired)
            .test("id", RECOVERY_MESSAGES.resourceNotFound, (value) => isId(value)),
        otherwise: (schema) => schema.optional(),
      }),
    method: yup
      .string()
      .oneOf(["folder", "overwrite"] as const)
      .required(),
    folderName: yup
      .string()
      .trim()
      .when("method", {
        is: "folder",
        then: (schema) =>
          schema
            .required(RECOVERY_MESSAGES.folderRequired)
            .matches(/^[A-Za-z0-9_-]+$/, RECOVERY_MESSAGES.folderCharacters),
        otherwise: (schema) => schema.optional(),
      }),
    permissions: yup.boolean().default(false),
    /**
     * MM-DD-YYYY (the search card's date): recover the items as the backups held them at the end of that
     * day (UTC), each at its version of then; absent: as backed up last.
     */
    date: yup
      .string()
      .trim()
      .optional()
      .test("date", SEARCH_MESSAGES.invalidDate, (value) => !value || parseSearchDate(value) !== undefined),
  })
  .noUnknown();

export type RecoveryRequest = yup.InferType<typeof recoveryRequestSchema>;

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
  /** When the recovery ends, total = restored + skipped + failed. */
  progress: { total: number; restored: number; skipped: number; failed: number };
  failureReason: string | null;
  /**
   * The first items (at most 20) that were skipped or failed, with why; every item's outcome is in the
   * report (`GET …/recoveries/{recoveryId}/report`, CSV).
   */
  problems: RecoveryProblem[];
}

export interface RecoveryProblem {
  itemKey: string;
  /** The message's subject or the file's name, as backed up. */
  name: string;
  outcome: "skipped" | "failed";
  reason: string;
}
