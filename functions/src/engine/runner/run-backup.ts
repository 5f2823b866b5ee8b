/**
 * One backup run of one resource (docs/backup-format.md §3–§6): the source's changes since the saved
 * cursor become chunks, objects and catalog versions, batch by batch, resumable.
 *
 * - Lease first: a duplicate task delivery of a run another worker holds, or of a finished run, does
 *   nothing (`outcome: "skipped"`).
 * - Per upsert: the item's current version has the same `versionKey` → nothing to do; the same
 *   `contentKey` (and data key) → a new version reusing the chunk list (metadata-only change); otherwise
 *   the content is streamed through the chunker and the content digester, chunks the organisation's chunk
 *   index already has are not uploaded again, the others are encoded and written once
 *   (`putIfAbsent`), and the version names its chunk list inline or through a manifest object.
 *   Deletes mark the item deleted at source; versions are never removed.
 * - Per batch, in this order: objects (while items are processed), chunk index, versions, deletes, then
 *   the checkpoint (cursor and progress). A crash between two steps repeats the batch: objects are
 *   write-once and version ids deterministic (`<itemKey>@<versionKey>`), so nothing is duplicated, and the
 *   cursor never moves past a change that is not stored.
 * - Deadline or signal: the runner stops between items, stores what it has, saves the checkpoint (the
 *   cursor of the last complete batch) and answers "continue" (the caller re-enqueues the run).
 * - Item errors (Google's permanent errors about one item) are recorded on the run, which goes on; any
 *   other error ends the run "failed" with its failure reason (docs/requirements.md#errors-and-messages). The next run of the resource
 *   starts from the last saved cursor of this one, whatever its outcome.
 */
import { randomUUID } from "node:crypto";
import { deriveKeys } from "../format/keys";
import type { ChangeBatch, Source, SourceKind } from "../sources/source";
import { LeaseLostError } from "./catalog";
import { kindOfStream, upsertKeys } from "./batch-work";
import { ChunkWriter } from "./chunk-writer";
import { AdaptiveConcurrency } from "./concurrency";
import { ItemContent } from "./item-content";
import { ItemPipeline } from "./item-pipeline";
import { RunContext } from "./run-context";
import { quotaDayOf } from "../google/daily-budget";
import {
  StopRequested,
  dailyLimitOf,
  detailOf,
  failureReasonOf,
  streamFailure,
  type StreamFailure,
} from "./run-errors";
import {
  ITEM_CONCURRENCY,
  MAX_ITEM_CONCURRENCY,
  type RunBackupOptions,
  type RunBackupResult,
} from "./run-options";

export { failureReasonOf } from "./run-errors";
export {
  ITEM_CONCURRENCY,
  MAX_ITEM_CONCURRENCY,
  RESUMABLE_ITEM_BYTES,
  type RunBackupOptions,
  type RunBackupResult,
} from "./run-options";

/** How long past the deadline the lease stays live (the worker checkpoints and stops by then). */
const DEFAULT_LEASE_MARGIN_MS = 2 * 60_000;
/** Lease length when no deadline is given. */
const DEFAULT_LEASE_MS = 9 * 60_000;

/** The items-in-flight meter of a run (see `AdaptiveConcurrency`). */
function concurrencyOf(options: RunBackupOptions): AdaptiveConcurrency {
  const initial = Math.max(1, options.itemConcurrency ?? ITEM_CONCURRENCY);
  return new AdaptiveConcurrency({
    initial,
    min: Math.min(2, initial),
    max: Math.max(initial, options.maxItemConcurrency ?? MAX_ITEM_CONCURRENCY),
    usage: options.usage,
  });
}

/**
 * Ends a service's part of the run: its outcome recorded, its cursor kept where the last checkpoint left
 * it (the next run goes on from there), its full listing (if any) abandoned. Returns whether the run has
 * no other stream left.
 */
async function endStream(run: RunContext, failure: StreamFailure): Promise<boolean> {
  const outcome = run.serviceOutcome(failure.stream);
  outcome.state = failure.unavailable ? "unavailable" : "failed";
  if (!failure.unavailable) outcome.failureReason = failureReasonOf(failure.cause);
  const detail = detailOf(failure.cause);
  if (detail) outcome.detail = detail;
  if (run.listing?.kind === kindOfStream(failure.stream)) run.listing = null;
  const after = (run.source.cursorAfter as NonNullable<Source["cursorAfter"]>)(run.cursor, failure.stream);
  run.cursor = after.cursor;
  const errors = (await run.recordWork()).map((itemError) => ({
    ...itemError,
    kind: kindOfStream(failure.stream),
  }));
  for (const error of errors) run.skip(failure.stream, error.reason);
  await run.checkpoint(errors);
  run.transientInARow = 0;
  return after.done;
}

/**
 * Records a batch that was applied (whole, or up to a stop) and saves the checkpoint; at the end of a
 * full listing, marks what it did not see as deleted at source.
 */
async function recordBatch(run: RunContext, batch: ChangeBatch, complete: boolean): Promise<void> {
  const stream = batch.stream ?? run.source.kind;
  const kind = kindOfStream(stream);
  const inListing = run.listing?.kind === kind;
  const errors = (await run.recordWork(complete && inListing ? upsertKeys(batch) : [])).map((error) => ({
    ...error,
    kind,
  }));
  for (const error of errors) run.skip(stream, error.reason);
  if (!complete) {
    await run.checkpoint(errors);
    throw new StopRequested();
  }
  run.cursor = batch.nextCursor;
  if (run.listing && inListing && (batch.streamDone ?? batch.done) === true) {
    // A full listing ended: what it did not see is gone from the source (a resync after an expired
    // cursor misses the deletes of the gap otherwise). Items the listing saw were all touched.
    await run.catalog.markUnseenDeleted(run.resourceId, kind, run.listing.startedAt, run.iso());
    run.listing = null;
  }
  if ((batch.streamDone ?? batch.done) === true) {
    run.serviceOutcome(stream).state ??= "succeeded";
    run.streamEnded(stream);
  }
  await run.checkpoint(errors);
}

/**
 * The failure of one stream that `error` is, or undefined: anything else ends the run, Google's daily limit
 * among them (it is the project's, so the other streams would meet it too: see `endRun`).
 */
function failureOfStream(run: RunContext, error: unknown, stream: SourceKind | undefined) {
  return dailyLimitOf(error) ? undefined : streamFailure(run.source, error, stream);
}

/** Walks the source's batches from the cursor until the last one (or a stop, or a fatal error). */
async function runBatches(run: RunContext, pipeline: ItemPipeline): Promise<void> {
  const { source } = run;
  if (run.shouldStop()) throw new StopRequested();
  let batches = source.listChanges(run.cursor)[Symbol.asyncIterator]();
  for (;;) {
    let batch: ChangeBatch;
    try {
      const next = await batches.next();
      if (next.done) break;
      batch = next.value;
    } catch (error) {
      const failure = failureOfStream(run, error, undefined);
      if (!failure) throw error;
      if (await endStream(run, failure)) break;
      batches = source.listChanges(run.cursor)[Symbol.asyncIterator]();
      continue;
    }
    if (batch.fullListing)
      run.listing = { kind: kindOfStream(batch.stream ?? source.kind), startedAt: run.iso() };
    if (run.noteListed(batch)) await run.saveExpectation();
    let complete: boolean;
    try {
      complete = await pipeline.applyBatch(batch);
    } catch (error) {
      const failure = failureOfStream(run, error, batch.stream);
      if (!failure) throw error;
      await batches.return?.(undefined);
      if (await endStream(run, failure)) break;
      batches = source.listChanges(run.cursor)[Symbol.asyncIterator]();
      continue;
    }
    await recordBatch(run, batch, complete);
    if (batch.done) break;
    if (run.shouldStop()) throw new StopRequested();
  }
}

/** The run's end once every batch is stored: failed when a service failed, else succeeded. */
async function finishRun(run: RunContext): Promise<RunBackupResult> {
  const failed = run.failedService();
  if (failed) {
    const failureReason = failed.failureReason ?? "google-api-error";
    await run.catalog.finishRun(run.runId, run.holder, { state: "failed", failureReason }, run.iso());
    return { outcome: "failed", failureReason, ...run.summary() };
  }
  await run.catalog.finishRun(run.runId, run.holder, { state: "succeeded" }, run.iso());
  return { outcome: "succeeded", ...run.summary() };
}

/**
 * A failed run: its progress back to what the catalog recorded, the objects written so far in the chunk
 * index (when it can be reached), the checkpoint saved and the run finished "failed".
 */
async function failRun(run: RunContext, error: unknown): Promise<RunBackupResult> {
  const { catalog, runId, holder, work } = run;
  const failureReason = failureReasonOf(error);
  Object.assign(run.progress, run.committed);
  // Objects written before the failure go into the chunk index when it can be reached, so the
  // garbage collector knows them; versions and the cursor stay as the last checkpoint left them.
  if (work.written.size > 0) {
    await catalog.recordChunks([...work.written.values()], runId, run.iso()).catch(() => undefined);
  }
  try {
    await catalog.saveCheckpoint(runId, holder, {
      cursor: run.cursor,
      progress: run.committed,
      unitsUsed: run.unitsUsed(),
      newItemErrors: work.errors,
      listing: run.listing,
      services: run.services,
      partial: run.partial,
      expected: run.expectedNow(),
    });
    run.itemErrorCount += work.errors.length;
    await catalog.finishRun(runId, holder, { state: "failed", failureReason }, run.iso());
  } catch (recordError) {
    if (recordError instanceof LeaseLostError) return { outcome: "skipped", why: "lease-lost" };
    // The run record cannot be written: the lease expires and the run is taken over.
  }
  return { outcome: "failed", failureReason, ...run.summary() };
}

/**
 * How a run that threw ends: skipped (lease lost), "continue" (asked to stop, aborted, or Google's daily
 * limit reached: then with the quota day's end as when it may go on) or failed.
 */
async function endRun(run: RunContext, thrown: unknown): Promise<RunBackupResult> {
  let error = thrown;
  if (error instanceof LeaseLostError) return { outcome: "skipped", why: "lease-lost" };
  if (error instanceof StopRequested) {
    // Should the lease not be given back, it expires and the re-enqueued task takes the run over.
    await run.catalog.releaseLease(run.runId, run.holder).catch(() => undefined);
    return { outcome: "continue", ...run.summary() };
  }
  const { signal } = run.options;
  const dailyLimit = dailyLimitOf(error);
  if ((signal?.aborted && error === signal.reason) || dailyLimit) {
    // Aborted inside a Google call (the caller gives up between attempts), or Google's daily limit
    // reached: what the batch finished is recorded, the cursor stays where it was, and the batch is
    // repeated by the next attempt (after the quota day's end, for the daily limit).
    try {
      await run.checkpoint(await run.recordWork());
      await run.catalog.releaseLease(run.runId, run.holder).catch(() => undefined);
      const paused = dailyLimit && {
        resumesAt: quotaDayOf(run.now()).endsAt,
        ...(dailyLimit.api ? { dailyLimit: dailyLimit.api } : {}),
      };
      return { outcome: "continue", ...run.summary(), ...paused };
    } catch (recordError) {
      if (recordError instanceof LeaseLostError) return { outcome: "skipped", why: "lease-lost" };
      error = recordError;
    }
  }
  return failRun(run, error);
}

export async function runBackup(options: RunBackupOptions): Promise<RunBackupResult> {
  const { catalog } = options;
  const { runId } = options.run;
  const now = options.now ?? Date.now;
  const holder = options.holder ?? randomUUID();
  const concurrency = concurrencyOf(options);
  const keys = deriveKeys(options.dataKey);
  const leaseUntil =
    options.deadline !== undefined
      ? options.deadline + (options.leaseMarginMs ?? DEFAULT_LEASE_MARGIN_MS)
      : now() + DEFAULT_LEASE_MS;
  const lease = await catalog.takeLease(
    runId,
    holder,
    new Date(leaseUntil).toISOString(),
    new Date(now()).toISOString(),
  );
  if (lease === "held-by-another") return { outcome: "skipped", why: "leased" };
  if (lease === "finished" || lease === "missing") return { outcome: "skipped", why: lease };
  const record = await catalog.loadRun(runId);
  if (!record) return { outcome: "skipped", why: "missing" };

  const run = new RunContext(options, holder, keys, record);
  const writer = new ChunkWriter(run, options.blobStore);
  const pipeline = new ItemPipeline(run, new ItemContent(run, writer), concurrency);
  try {
    await runBatches(run, pipeline);
    return await finishRun(run);
  } catch (thrown) {
    return endRun(run, thrown);
  }
}
