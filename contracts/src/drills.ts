/**
 * Restore drills: proof that the backups restore, byte for byte. A drill takes a random sample of each
 * protected resource's backed-up items, restores them into a sandbox mailbox the admin designated, reads
 * each back through Google's API and compares it with the backed-up content. The settings' rules and
 * texts (shared by the browser and the API) and the answers' types.
 */
import * as yup from "yup";
import { isId } from "./ids";

export const DRILL_SCHEDULES = ["daily", "weekly", "monthly"] as const;
export type DrillSchedule = (typeof DRILL_SCHEDULES)[number];

export const DRILL_DEFAULT_SAMPLE_SIZE = 5;
export const DRILL_MAX_SAMPLE_SIZE = 50;
export const DRILL_DEFAULT_SCHEDULE: DrillSchedule = "weekly";
/** Drive files above this size are not drawn (the large-file benchmark proves those restores). */
export const DRILL_MAX_FILE_BYTES = 64 * 1024 * 1024;
export const DRILL_RUNS_PAGE_SIZE = 20;
export const DRILL_RUNS_MAX_PAGE_SIZE = 100;

export const DRILL_MESSAGES = {
  saved: "Restore drill settings saved",
  started: "Restore drill started",
  sandboxRequired: "Please choose a sandbox mailbox to receive the drill's restores",
  sandboxInvalid: "The sandbox must be an active mailbox of this organisation",
  sampleSize: `The sample size must be a whole number from 1 to ${DRILL_MAX_SAMPLE_SIZE}`,
  schedule: "Please choose how often the drill runs",
  enabled: "enabled must be true or false",
  unknownField: "The request has a field the drill settings do not know",
  inProgress: "A restore drill is already running for this organisation.",
  failed: "The restore drill could not be started",
  runNotFound: "Drill run not found",
  invalidPage: "Page must be a whole number from 1",
} as const;

/** Why an item of a drill did not match, failed or was skipped (the run's page names each). */
export const DRILL_ITEM_REASONS = {
  integrity: "integrity check failed: the backed-up objects are damaged or missing",
  googleRefused: (reason: string) => `Google refused the item (${reason})`,
  alreadyInSandbox:
    "The sandbox mailbox already holds a message with this Message-ID (Gmail keeps one copy per mailbox)",
  sizeDiffers: (restored: number, backedUp: number) =>
    `The restored copy has ${restored} bytes, the backup ${backedUp}`,
  bytesDiffer: (offset: number) => `The restored copy differs from the backup from byte ${offset}`,
  digestDiffers: "The restored copy's content digest differs from the backup's",
  notReadBack: "Google did not give the restored copy back",
  stopped: "The drill stopped before this item",
} as const;

export const drillSettingsSchema = yup
  .object({
    enabled: yup.boolean().strict().required(DRILL_MESSAGES.enabled),
    sandboxResourceId: yup
      .string()
      .nullable()
      .defined(DRILL_MESSAGES.sandboxRequired)
      .test("id", DRILL_MESSAGES.sandboxInvalid, (value) => value === null || isId(value))
      .test(
        "required-when-enabled",
        DRILL_MESSAGES.sandboxRequired,
        (value, context) => value !== null || (context.parent as { enabled?: unknown }).enabled !== true,
      ),
    sampleSize: yup
      .number()
      .strict()
      .required(DRILL_MESSAGES.sampleSize)
      .integer(DRILL_MESSAGES.sampleSize)
      .min(1, DRILL_MESSAGES.sampleSize)
      .max(DRILL_MAX_SAMPLE_SIZE, DRILL_MESSAGES.sampleSize),
    schedule: yup.string().oneOf(DRILL_SCHEDULES, DRILL_MESSAGES.schedule).required(DRILL_MESSAGES.schedule),
  })
  .noUnknown(DRILL_MESSAGES.unknownField);

/** PUT /v1/organizations/{id}/drills. */
export interface DrillSettingsRequest {
  enabled: boolean;
  /** The mailbox resource that receives the drill's restores (null only while disabled). */
  sandboxResourceId: string | null;
  sampleSize: number;
  schedule: DrillSchedule;
}

/** GET/PUT /v1/organizations/{id}/drills. */
export interface DrillSettings extends DrillSettingsRequest {
  /** The sandbox's address, for the screen (null without a sandbox). */
  sandboxEmail: string | null;
  /** When the dispatcher starts the next scheduled drill (null while disabled). */
  nextDrillAt: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

export type DrillState = "pending" | "running" | "passed" | "failed";
export type DrillOutcome = "matched" | "mismatched" | "failed" | "skipped";
export type DrillService = "gmail" | "drive";

export interface DrillCounts {
  /** Items drawn. sample = matched + mismatched + failed + skipped once the drill ended. */
  sample: number;
  matched: number;
  mismatched: number;
  failed: number;
  skipped: number;
}

export interface DrillResourceResult extends DrillCounts {
  resourceId: string;
  name: string;
}

/** One drawn item and what its restore showed. */
export interface DrillItem {
  itemKey: string;
  resourceId: string;
  resourceName: string;
  service: DrillService;
  /** The message's subject or the file's name. */
  name: string;
  /** Null while the item waits for its turn. */
  outcome: DrillOutcome | null;
  reason: string | null;
}

export interface DrillRun {
  drillRunId: string;
  state: DrillState;
  trigger: "manual" | "schedule";
  requestedBy: string;
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  sandboxResourceId: string;
  sandboxEmail: string;
  /** Per resource and service, at most this many items are drawn. */
  sampleSize: number;
  counts: DrillCounts;
  /** Each drilled resource with items drawn. */
  resources: DrillResourceResult[];
  /** The items that did not match or failed (the first 50), named. */
  problems: DrillItem[];
  failureReason: string | null;
}

/** GET /v1/organizations/{id}/drills/runs?page=&pageSize= (newest first). */
export interface DrillRunsPage {
  runs: DrillRun[];
  page: number;
  pageSize: number;
  total: number;
}

/** GET /v1/organizations/{id}/drills/runs/{drillRunId}: the run with every drawn item. */
export interface DrillRunDetail extends DrillRun {
  items: DrillItem[];
}
