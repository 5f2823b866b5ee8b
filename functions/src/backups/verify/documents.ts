/**
 * Integrity verification's stored documents, one schema each (lib/stored.ts): its runs
 * (`verifyRuns/{runId}`) and the organisation's verification state (`meta/verify`). A run is written
 * whole when it is requested (`runs-repo.ts` `requestVerifyRun`) and changed field by field after; a field
 * a run written before it existed lacks reads as a new run has it (no start, no waiting, nothing counted;
 * its last change is its request).
 */
import { z } from "zod/mini";
import type { DamagedItem, VerifyRun } from "@alpvault/contracts/integrity";
import { storedKind, storedKindWithId } from "../../lib/stored";

/** A damaged item as a run keeps it until its resource is healed and recorded. */
export interface DamageRecord {
  itemKey: string;
  kind: DamagedItem["kind"];
  name: string;
  brokenObjects: string[];
  brokenChunks: string[];
}

export interface VerifyRunRecord extends VerifyRun {
  requestedBy: string;
  lease: { holder: string; until: string } | null;
  position: { index: number; afterItem: string | null };
  current: { checkedItems: number; damagedItems: number; damaged: DamageRecord[] };
  /** A resource's damage is confirmed and healed under the GC lock; set while waiting for it. */
  waitingSince: string | null;
  updatedAt: string;
}

const text = z._default(z.nullable(z.string()), null);
const figure = z._default(z.number(), 0);
const texts = z._default(z.array(z.string()), []);

const damageSchema: z.ZodMiniType<DamageRecord> = z.object({
  itemKey: z.string(),
  kind: z.enum(["gmail-message", "drive-file"]),
  name: z.string(),
  brokenObjects: texts,
  brokenChunks: texts,
});

const verifyRunSchema: z.ZodMiniType<VerifyRunRecord> = z.pipe(
  z.object({
    runId: z.string(),
    trigger: z.enum(["manual", "schedule"]),
    state: z.enum(["pending", "running", "succeeded", "failed"]),
    requestedAt: z.string(),
    requestedBy: z.string(),
    startedAt: text,
    finishedAt: text,
    updatedAt: z.optional(z.string()),
    resourceIds: texts,
    progress: z._default(
      z.object({
        resourcesDone: figure,
        checkedItems: figure,
        damagedItems: figure,
        objectsRead: figure,
        bytesRead: figure,
      }),
      { resourcesDone: 0, checkedItems: 0, damagedItems: 0, objectsRead: 0, bytesRead: 0 },
    ),
    failureReason: text,
    lease: z._default(z.nullable(z.object({ holder: z.string(), until: z.string() })), null),
    position: z._default(z.object({ index: figure, afterItem: text }), { index: 0, afterItem: null }),
    current: z._default(
      z.object({
        checkedItems: figure,
        damagedItems: figure,
        damaged: z._default(z.array(damageSchema), []),
      }),
      { checkedItems: 0, damagedItems: 0, damaged: [] },
    ),
    waitingSince: text,
  }),
  z.transform((run) => ({ ...run, updatedAt: run.updatedAt ?? run.requestedAt })),
);

/** `verifyRuns/{runId}`. */
export const VERIFY_RUN = storedKindWithId("verification run", "runId", verifyRunSchema);

/** One verification at a time per organisation, and the day of the last scheduled one. */
export interface StoredVerifyState {
  activeRunId: string | null;
  /** When the last scheduled run was requested (absent: never). */
  lastScheduledAt?: string;
}

/** `meta/verify`. */
export const VERIFY_STATE = storedKind<StoredVerifyState>(
  "verification state",
  z.object({ activeRunId: text, lastScheduledAt: z.optional(z.string()) }),
);
