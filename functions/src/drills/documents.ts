/**
 * The drills module's stored documents, one schema each (lib/stored.ts): the settings (`meta/drills`),
 * the runs (`drillRuns/{runId}`) and their drawn items (`drillRuns/{runId}/items/{seq}`). The settings
 * are written whole (`repo.ts` `writeSettings`, `createRun`) except the next scheduled drill, which may be
 * all there is (`setNextDrillAt`): every setting not written reads as its default. A run and its items are
 * written whole when drawn, then changed field by field.
 */
import { z } from "zod/mini";
import {
  DRILL_DEFAULT_SAMPLE_SIZE,
  DRILL_DEFAULT_SCHEDULE,
  DRILL_SCHEDULES,
  type DrillItem,
  type DrillRun,
  type DrillSettingsRequest,
} from "@alpvault/contracts/drills";
import { drillCountsSchema, drillItemSchema } from "@alpvault/contracts/schemas/drills";
import { storedKind, storedKindWithId } from "../lib/stored";

export interface StoredDrillSettings extends DrillSettingsRequest {
  sandboxEmail: string | null;
  nextDrillAt: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
  activeRunId: string | null;
}

/** Where a drill is: the resources it drills, the one in hand, and the drawn items of that one. */
export interface DrillPosition {
  resourceIndex: number;
  /** Whether the resource in hand has had its sample drawn (its items are `itemsFrom` to `itemsTo`). */
  sampled: boolean;
  itemsFrom: number;
  itemsTo: number;
  /** The next item to check. */
  itemIndex: number;
  /** Whether the sandbox has been cleared of what the drill restored. */
  cleaned: boolean;
}

export interface StoredDrillRun extends DrillRun {
  /** The resources to drill, fixed when the run starts (null before). */
  resourceIds: string[] | null;
  position: DrillPosition;
  /** The Gmail label and Drive folder of the sandbox the run restores into. */
  restoreName: string;
  lease: { holder: string; until: string } | null;
}

/** A drawn item as stored: the API's item, its order, and what the restore left in the sandbox. */
export interface StoredDrillItem extends DrillItem {
  seq: number;
  /** Set before the restore: a resumed run looks its copy up instead of restoring twice. */
  restoring?: boolean;
  restoredId?: string | null;
  /**
   * Messages drawn with this one to stand in for it when the sandbox already holds its Message-ID (Gmail
   * keeps one copy per mailbox, so such a message cannot be restored there); used in order, then dropped.
   */
  spares?: { itemKey: string; name: string }[];
  /** The drawn message this one stands in for. */
  standsInFor?: string;
}

/** The settings of an organisation that never saved any. */
export const SETTINGS_DEFAULTS: StoredDrillSettings = {
  enabled: false,
  sandboxResourceId: null,
  sandboxEmail: null,
  sampleSize: DRILL_DEFAULT_SAMPLE_SIZE,
  schedule: DRILL_DEFAULT_SCHEDULE,
  nextDrillAt: null,
  updatedAt: null,
  updatedBy: null,
  activeRunId: null,
};

const text = z.nullable(z.string());
const setting = z._default(text, null);

/** `meta/drills`. */
export const DRILL_SETTINGS = storedKind<StoredDrillSettings>(
  "drill settings",
  z.object({
    enabled: z._default(z.boolean(), false),
    sandboxResourceId: setting,
    sandboxEmail: setting,
    sampleSize: z._default(z.int().check(z.positive()), DRILL_DEFAULT_SAMPLE_SIZE),
    /** A schedule no longer offered reads as the default one, as it always did. */
    schedule: z._default(z.catch(z.enum(DRILL_SCHEDULES), DRILL_DEFAULT_SCHEDULE), DRILL_DEFAULT_SCHEDULE),
    nextDrillAt: setting,
    updatedAt: setting,
    updatedBy: setting,
    activeRunId: setting,
  }),
);

const countsShape = {
  sample: z.number(),
  matched: z.number(),
  mismatched: z.number(),
  failed: z.number(),
  skipped: z.number(),
};

/** `drillRuns/{runId}` (a run written before its trigger was recorded was started by hand). */
export const DRILL_RUN = storedKindWithId<StoredDrillRun>(
  "drill run",
  "drillRunId",
  z.object({
    drillRunId: z.string(),
    state: z.enum(["pending", "running", "passed", "failed"]),
    trigger: z._default(z.enum(["manual", "schedule"]), "manual"),
    requestedBy: z.string(),
    requestedAt: z.string(),
    startedAt: text,
    finishedAt: text,
    durationMs: z.nullable(z.number()),
    sandboxResourceId: z.string(),
    sandboxEmail: z.string(),
    sampleSize: z.number(),
    counts: drillCountsSchema,
    resources: z.array(z.object({ ...countsShape, resourceId: z.string(), name: z.string() })),
    problems: z.array(drillItemSchema),
    failureReason: text,
    resourceIds: z.nullable(z.array(z.string())),
    position: z.object({
      resourceIndex: z.number(),
      sampled: z.boolean(),
      itemsFrom: z.number(),
      itemsTo: z.number(),
      itemIndex: z.number(),
      cleaned: z.boolean(),
    }),
    restoreName: z.string(),
    lease: z._default(z.nullable(z.object({ holder: z.string(), until: z.string() })), null),
  }),
);

/** `drillRuns/{runId}/items/{seq}`. */
export const DRILL_ITEM = storedKind<StoredDrillItem>(
  "drill item",
  z.object({
    itemKey: z.string(),
    resourceId: z.string(),
    resourceName: z.string(),
    service: z.enum(["gmail", "drive"]),
    name: z.string(),
    outcome: z.nullable(z.enum(["matched", "mismatched", "failed", "skipped"])),
    reason: text,
    seq: z.number(),
    restoring: z.optional(z.boolean()),
    restoredId: z.optional(text),
    spares: z.optional(z.array(z.object({ itemKey: z.string(), name: z.string() }))),
    standsInFor: z.optional(z.string()),
  }),
);
