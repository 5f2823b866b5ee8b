/**
 * Backup run records as stored (`backupRuns/{runId}`, docs/backup-format.md §5) and the organisation's
 * garbage-collection lock (`meta/gc`), one schema each (lib/stored.ts).
 *
 * A run is created pending by `backups/repo.ts` `requestRun` or `policies/repo.ts` `assignPolicy` (resource,
 * policy, trigger, request), is given its cursor and progress by `seedRun`, and from then on is changed by
 * the runner's calls (`runs-repo.ts`): a pending run has no cursor, progress or item errors yet (read as
 * none). `partial` and `expected` are the runner's own notes: one it cannot read is none (the item is read
 * from its start, the totals are unknown). A failure reason no longer known reads as "unknown-error".
 */
import { z } from "zod/mini";
import { BACKUP_FAILURE_REASONS } from "@alpvault/contracts/backups";
import { SERVICE_IDS } from "@alpvault/contracts/services";
import { keysOf } from "@alpvault/contracts/schemas/common";
import type {
  ItemError,
  Listing,
  PartialItem,
  RunExpectation,
  RunProgress,
  RunRecord,
  ServiceOutcome,
} from "../../engine/runner/catalog";
import { storedKind, storedKindWithId } from "../../lib/stored";
import { itemKindSchema } from "./documents";

/**
 * A run as the worker and the screens read it: the runner's record plus the product's fields.
 * `resumesAt`: the run waits for the project's daily Google budget; its task is enqueued for then.
 */
export type BackupRun = RunRecord & { requestedBy?: string; resumesAt?: string };

const failureReasonSchema = z.catch(keysOf(BACKUP_FAILURE_REASONS), "unknown-error");
/** A run's streams are the services it backs up (the registry). */
const streamSchema = z.enum(SERVICE_IDS);

const progressSchema: z.ZodMiniType<RunProgress> = z.object({
  items: z.number(),
  bytes: z.number(),
  storedBytes: z.number(),
});

const leaseSchema = z.object({ holder: z.string(), until: z.string() });

const itemErrorSchema: z.ZodMiniType<ItemError> = z.object({
  itemKey: z.string(),
  reason: z.string(),
  kind: z.optional(itemKindSchema),
});

const counts = z.record(z.string(), z.number());

const serviceOutcomeSchema: z.ZodMiniType<ServiceOutcome> = z.object({
  state: z.optional(z.enum(["succeeded", "failed", "unavailable"])),
  failureReason: z.optional(failureReasonSchema),
  detail: z.optional(z.string()),
  skipped: counts,
  notes: z.optional(counts),
});

const partialSchema: z.ZodMiniType<PartialItem> = z.object({
  kind: itemKindSchema,
  itemKey: z.string(),
  versionKey: z.string(),
  contentKey: z.string(),
  offset: z.number(),
  manifestObject: z.string(),
  manifestVersionId: z.string(),
  dataKeyId: z.string(),
  digestState: z.string(),
  md5State: z.optional(z.string()),
});

const expectationSchema: z.ZodMiniType<RunExpectation> = z.object({
  items: z.nullable(z.number()),
  bytes: z.nullable(z.number()),
  stream: streamSchema,
  since: z.string(),
  from: z.object({ items: z.number(), bytes: z.number() }),
});

const listingSchema: z.ZodMiniType<Listing> = z.object({ kind: itemKindSchema, startedAt: z.string() });

/** A run without a policy is written with `policyId: null`; the record leaves it out. */
const policyIdSchema = z.pipe(
  z.optional(z.nullable(z.string())),
  z.transform((policyId) => policyId ?? undefined),
);

const backupRunSchema: z.ZodMiniType<BackupRun> = z.object({
  runId: z.string(),
  resourceId: z.string(),
  policyId: policyIdSchema,
  trigger: z.optional(z.enum(["schedule", "backup-now", "policy-assigned"])),
  state: z.enum(["pending", "running", "succeeded", "failed"]),
  requestedAt: z.optional(z.string()),
  requestedBy: z.optional(z.string()),
  startedAt: z.optional(z.string()),
  finishedAt: z.optional(z.string()),
  resumesAt: z.optional(z.string()),
  lease: z.optional(z.nullable(leaseSchema)),
  cursor: z._default(z.nullable(z.string()), null),
  progress: z._default(progressSchema, { items: 0, bytes: 0, storedBytes: 0 }),
  liveProgress: z.optional(progressSchema),
  unitsUsed: z._default(z.number(), 0),
  failureReason: z.optional(failureReasonSchema),
  itemErrors: z._default(z.array(itemErrorSchema), []),
  itemErrorCount: z._default(z.number(), 0),
  listing: z.optional(z.nullable(listingSchema)),
  services: z.optional(z.partialRecord(streamSchema, serviceOutcomeSchema)),
  partial: z.catch(z.optional(z.nullable(partialSchema)), undefined),
  expected: z.catch(z.optional(z.nullable(expectationSchema)), undefined),
});

/** `backupRuns/{runId}`. */
export const BACKUP_RUN = storedKindWithId("backup run", "runId", backupRunSchema);

/** The organisation's garbage-collection lock (`retention/gc.ts`): while it is live, no run takes a lease. */
export interface StoredGcLock {
  holder: string | null;
  /** ISO 8601; null once released. */
  sweepingUntil: string | null;
  /** When the last collection ended (absent: none yet). */
  lastRunAt?: string;
}

/** `meta/gc`: taken by the collector and by integrity healing (`retention/repo.ts` `takeLock`). */
export const GC_LOCK = storedKind<StoredGcLock>(
  "garbage-collection lock",
  z.object({
    holder: z._default(z.nullable(z.string()), null),
    sweepingUntil: z._default(z.nullable(z.string()), null),
    lastRunAt: z.optional(z.string()),
  }),
);
