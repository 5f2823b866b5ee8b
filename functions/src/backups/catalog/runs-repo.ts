/**
 * Backup run records in Firestore (`backupRuns/{runId}` under `organizations/{organizationId}` in the
 * organisation's region database): decoding a run document, and the lease a worker holds on its run while
 * it backs the resource up (the `Catalog` calls `loadRun`, `takeLease`, `saveCheckpoint`, `releaseLease`
 * and `finishRun`, each one read or transaction). No run takes a lease while the organisation's garbage
 * collector holds its lock (`gcLockRef`).
 */
import type { DocumentData, DocumentReference, DocumentSnapshot } from "firebase-admin/firestore";
import { BACKUP_FAILURE_REASONS, type BackupFailureReason } from "@alpvault/contracts/backups";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { stripUndefined } from "../../lib/strip-undefined";
import { takeRunLease } from "../../lib/run-lease";
import {
  LeaseLostError,
  MAX_ITEM_ERRORS,
  type Checkpoint,
  type ItemError,
  type LeaseAnswer,
  type RunExpectation,
  type RunOutcome,
  type RunProgress,
  type RunRecord,
  type RunState,
  type PartialItem,
  type ServiceOutcome,
  type ServiceOutcomes,
} from "../../engine/runner/catalog";

const RUN_STATES: readonly RunState[] = ["pending", "running", "succeeded", "failed"];

function isFinished(state: RunState): boolean {
  return state === "succeeded" || state === "failed";
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** A run document's partial item (anything malformed: none, the item is then read from its start). */
function decodePartial(value: unknown): PartialItem | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const strings = [
    "itemKey",
    "versionKey",
    "contentKey",
    "manifestObject",
    "manifestVersionId",
    "dataKeyId",
    "digestState",
  ];
  if (!strings.every((key) => typeof v[key] === "string")) return undefined;
  if ((v.kind !== "gmail-message" && v.kind !== "drive-file") || typeof v.offset !== "number")
    return undefined;
  return {
    kind: v.kind,
    itemKey: v.itemKey as string,
    versionKey: v.versionKey as string,
    contentKey: v.contentKey as string,
    offset: v.offset,
    manifestObject: v.manifestObject as string,
    manifestVersionId: v.manifestVersionId as string,
    dataKeyId: v.dataKeyId as string,
    digestState: v.digestState as string,
    ...(typeof v.md5State === "string" ? { md5State: v.md5State } : {}),
  };
}

/** A run document's expectation (anything malformed: none, the totals are then unknown). */
function decodeExpectation(value: unknown): RunExpectation | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const from = v.from as Record<string, unknown> | null | undefined;
  const figure = (field: unknown) => (field === null ? null : count(field));
  if ((v.stream !== "gmail" && v.stream !== "drive") || typeof v.since !== "string") return undefined;
  if (typeof from !== "object" || from === null) return undefined;
  return {
    items: figure(v.items),
    bytes: figure(v.bytes),
    stream: v.stream,
    since: v.since,
    from: { items: count(from.items), bytes: count(from.bytes) },
  };
}

/** The services' outcomes of a run document (anything malformed left out). */
export function decodeServices(value: unknown): ServiceOutcomes | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const out: ServiceOutcomes = {};
  for (const kind of ["gmail", "drive"] as const) {
    const raw = (value as Record<string, unknown>)[kind];
    if (typeof raw !== "object" || raw === null) continue;
    const entry = raw as Record<string, unknown>;
    const counts = (field: unknown): Record<string, number> => {
      const out: Record<string, number> = {};
      if (typeof field !== "object" || field === null) return out;
      for (const [reason, n] of Object.entries(field as Record<string, unknown>)) {
        if (typeof n === "number" && Number.isFinite(n) && n > 0) out[reason] = n;
      }
      return out;
    };
    const outcome: ServiceOutcome = { skipped: counts(entry.skipped) };
    const notes = counts(entry.notes);
    if (Object.keys(notes).length > 0) outcome.notes = notes;
    if (entry.state === "succeeded" || entry.state === "failed" || entry.state === "unavailable") {
      outcome.state = entry.state;
    }
    if (typeof entry.failureReason === "string" && entry.failureReason in BACKUP_FAILURE_REASONS) {
      outcome.failureReason = entry.failureReason as BackupFailureReason;
    }
    if (typeof entry.detail === "string") outcome.detail = entry.detail;
    out[kind] = outcome;
  }
  return out;
}

/** A run document as a `RunRecord` (a pending run written elsewhere may lack cursor, progress and errors). */
export function decodeRun(snapshot: DocumentSnapshot): RunRecord | undefined {
  const data = snapshot.data();
  if (!data) return undefined;
  const state = RUN_STATES.includes(data.state as RunState) ? (data.state as RunState) : "pending";
  const progress = (data.progress ?? {}) as Record<string, unknown>;
  const lease = data.lease as { holder?: unknown; until?: unknown } | null | undefined;
  const record: RunRecord = {
    runId: snapshot.id,
    resourceId: text(data.resourceId) ?? "",
    state,
    cursor: text(data.cursor) ?? null,
    progress: {
      items: count(progress.items),
      bytes: count(progress.bytes),
      storedBytes: count(progress.storedBytes),
    },
    unitsUsed: count(data.unitsUsed),
    itemErrors: Array.isArray(data.itemErrors) ? (data.itemErrors as ItemError[]) : [],
    itemErrorCount: count(data.itemErrorCount),
  };
  const live = data.liveProgress as Record<string, unknown> | undefined;
  if (live && typeof live === "object") {
    record.liveProgress = {
      items: count(live.items),
      bytes: count(live.bytes),
      storedBytes: count(live.storedBytes),
    };
  }
  if (lease && typeof lease.holder === "string" && typeof lease.until === "string") {
    record.lease = { holder: lease.holder, until: lease.until };
  } else if (lease === null) {
    record.lease = null;
  }
  for (const key of ["policyId", "requestedAt", "startedAt", "finishedAt"] as const) {
    const value = text(data[key]);
    if (value !== undefined) record[key] = value;
  }
  if (data.trigger === "schedule" || data.trigger === "backup-now" || data.trigger === "policy-assigned") {
    record.trigger = data.trigger;
  }
  if (typeof data.failureReason === "string") {
    record.failureReason = data.failureReason as RunRecord["failureReason"];
  }
  const services = decodeServices(data.services);
  if (services) record.services = services;
  const partial = decodePartial(data.partial);
  if (partial) record.partial = partial;
  const expected = decodeExpectation(data.expected);
  if (expected) record.expected = expected;
  const listing = data.listing as { kind?: unknown; startedAt?: unknown } | null | undefined;
  if (
    listing &&
    (listing.kind === "gmail-message" || listing.kind === "drive-file") &&
    typeof listing.startedAt === "string"
  ) {
    record.listing = { kind: listing.kind, startedAt: listing.startedAt };
  }
  return record;
}

/**
 * The organisation's garbage-collection lock (`meta/gc`: `{holder, sweepingUntil}`): while it is live, no
 * run takes a lease (`retention/gc.ts`).
 */
export function gcLockRef(scope: Scope): DocumentReference {
  return organizationRef(scope).collection("meta").doc("gc");
}

function runRef(scope: Scope, runId: string): DocumentReference {
  return organizationRef(scope).collection("backupRuns").doc(runId);
}

export async function loadRun(scope: Scope, runId: string): Promise<RunRecord | undefined> {
  return decodeRun(await runRef(scope, runId).get());
}

export async function takeLease(
  scope: Scope,
  runId: string,
  holder: string,
  until: string,
  now: string,
): Promise<LeaseAnswer> {
  return takeRunLease(
    runRef(scope, runId),
    {
      decode: decodeRun,
      finished: (run) => isFinished(run.state),
      // The garbage collector of the organisation is at work: no run may start or go on until it is done.
      blocker: {
        ref: gcLockRef(scope),
        blocks: (gc, at) => {
          const sweepingUntil = gc.get("sweepingUntil") as unknown;
          return typeof sweepingUntil === "string" && sweepingUntil > at;
        },
      },
    },
    holder,
    until,
    now,
  );
}

export async function saveCheckpoint(
  scope: Scope,
  runId: string,
  holder: string,
  checkpoint: Checkpoint,
): Promise<void> {
  const ref = runRef(scope, runId);
  await organizationRef(scope).firestore.runTransaction(async (transaction) => {
    const run = decodeRun(await transaction.get(ref));
    if (!run || run.lease?.holder !== holder || isFinished(run.state)) throw new LeaseLostError(runId);
    const room = Math.max(0, MAX_ITEM_ERRORS - run.itemErrors.length);
    transaction.update(
      ref,
      stripUndefined({
        cursor: checkpoint.cursor,
        progress: checkpoint.progress,
        unitsUsed: checkpoint.unitsUsed,
        itemErrors: [...run.itemErrors, ...checkpoint.newItemErrors.slice(0, room)],
        itemErrorCount: run.itemErrorCount + checkpoint.newItemErrors.length,
        listing: checkpoint.listing,
        services: checkpoint.services,
        partial: checkpoint.partial ?? null,
        expected: checkpoint.expected,
      }),
    );
  });
}

/** The run's live progress (and expectation): one plain write, no lease check (the screens alone read them). */
export async function saveLiveProgress(
  scope: Scope,
  runId: string,
  progress: RunProgress,
  expected?: RunExpectation | null,
): Promise<void> {
  await runRef(scope, runId).update({ liveProgress: progress, ...(expected ? { expected } : {}) });
}

export async function releaseLease(scope: Scope, runId: string, holder: string): Promise<void> {
  const ref = runRef(scope, runId);
  await organizationRef(scope).firestore.runTransaction(async (transaction) => {
    const run = decodeRun(await transaction.get(ref));
    if (run?.lease?.holder === holder) transaction.update(ref, { lease: null });
  });
}

export async function finishRun(
  scope: Scope,
  runId: string,
  holder: string,
  outcome: RunOutcome,
  at: string,
): Promise<void> {
  const ref = runRef(scope, runId);
  await organizationRef(scope).firestore.runTransaction(async (transaction) => {
    const run = decodeRun(await transaction.get(ref));
    if (!run || run.lease?.holder !== holder || isFinished(run.state)) throw new LeaseLostError(runId);
    const update: DocumentData = { state: outcome.state, finishedAt: at, lease: null };
    if (outcome.state === "failed") update.failureReason = outcome.failureReason;
    transaction.update(ref, update);
  });
}
