/**
 * One run's context: what it works with (source, catalog, blob store, keys) and the state a checkpoint
 * saves (cursor, listing, progress, service outcomes, the large item left in the middle), with the steps
 * that record a batch and save the checkpoint (docs/backup-engine.md, "Runner").
 */
import type { ObjectScope } from "../format/chunk-codec";
import type { DerivedKeys } from "../format/keys";
import type { ChangeBatch, Source, SourceKind } from "../sources/source";
import {
  MAX_CHUNK_REFS_PER_CALL,
  MAX_VERSIONS_PER_CALL,
  type Catalog,
  type ChunkRecord,
  type ItemError,
  type Listing,
  type PartialItem,
  type RunExpectation,
  type RunProgress,
  type RunRecord,
  type ServiceOutcome,
  type ServiceOutcomes,
} from "./catalog";
import { BatchWork, kindOfStream, slices } from "./batch-work";
import type { RunBackupOptions, RunSummary } from "./run-options";

/** How often a run saves its live progress between checkpoints (Firestore: about one write a second per document). */
export const LIVE_PROGRESS_MS = 2_000;

export class RunContext {
  readonly runId: string;
  readonly resourceId: string;
  readonly source: Source;
  readonly catalog: Catalog;
  readonly scope: ObjectScope;

  cursor: string | null;
  listing: Listing | null;
  readonly progress: RunProgress;
  /** Progress of what the catalog has recorded (what a failed run reports). */
  committed: RunProgress;
  itemErrorCount: number;
  /** The large item a delivery stopped in the middle of (saved with every checkpoint). */
  partial: PartialItem | null;
  readonly services: ServiceOutcomes;
  /** Items whose fetch ended in a transient error (retries spent), in a row. */
  transientInARow = 0;
  /** What the current batch has stored so far. */
  work = new BatchWork();
  /** What the run expects to have done at the end of its current stream (see `RunExpectation`). */
  expected: RunExpectation | null;

  private readonly usageAtStart: number;
  /** When the live progress was last saved, and whether a save is under way. */
  private liveSavedAt: number;
  /** The background live save in flight, if any. */
  private liveSave: Promise<void> | undefined;

  constructor(
    readonly options: RunBackupOptions,
    readonly holder: string,
    /** The data key's derived keys. */
    readonly keys: DerivedKeys,
    private readonly record: RunRecord,
  ) {
    this.runId = options.run.runId;
    this.resourceId = options.run.resourceId;
    this.source = options.source;
    this.catalog = options.catalog;
    this.scope = { organizationId: options.organizationId, keys: this.keys };
    this.cursor = record.cursor;
    this.listing = record.listing ?? null;
    this.progress = { ...record.progress };
    this.committed = { ...this.progress };
    this.itemErrorCount = record.itemErrorCount;
    this.partial = record.partial ?? null;
    this.services = JSON.parse(JSON.stringify(record.services ?? {})) as ServiceOutcomes;
    this.expected = record.expected ? { ...record.expected, from: { ...record.expected.from } } : null;
    this.usageAtStart = options.usage?.units ?? 0;
    this.liveSavedAt = this.now();
  }

  /**
   * Saves the live progress when `LIVE_PROGRESS_MS` have passed since the last save, in the background
   * (one save at a time; a failed save only waits for the next): the screens follow a batch as it goes.
   */
  progressMoved(): void {
    const now = this.now();
    if (this.liveSave || now - this.liveSavedAt < LIVE_PROGRESS_MS) return;
    this.liveSavedAt = now;
    this.liveSave = this.catalog
      .saveLiveProgress(this.runId, { ...this.progress }, this.expectedNow())
      .catch((error: unknown) => console.warn("The run's live progress could not be saved", error))
      .finally(() => {
        this.liveSave = undefined;
      });
  }

  /**
   * A batch was listed: a stream's first batch, or a full listing's, starts the expectation again from the
   * progress now (with the listing's whole figures, or none); an incremental batch adds what its changes
   * hold (the source's figures, else its upserts and metadata changes counted; bytes unknown). A full
   * listing's later batches change nothing. True when the expectation changed.
   */
  noteListed(batch: ChangeBatch): boolean {
    const stream = batch.stream ?? this.source.kind;
    const listed = batch.expected;
    const inListing = this.listing?.kind === kindOfStream(stream);
    if (inListing && !batch.fullListing) return false;
    const from = { items: this.progress.items, bytes: this.progress.bytes };
    const previous =
      batch.fullListing === true || listed?.whole === true || this.expected?.stream !== stream
        ? null
        : this.expected;
    const base = previous ?? from;
    const whole = batch.fullListing === true || listed?.whole === true;
    const items = whole
      ? listed?.items
      : (listed?.items ?? batch.changes.filter((change) => change.type !== "delete").length);
    const add = (done: number | null, more: number | undefined) =>
      done === null || more === undefined ? null : done + more;
    this.expected = {
      items: add(base.items, items),
      bytes: add(base.bytes, listed?.bytes),
      stream,
      since: previous?.since ?? this.iso(),
      from: previous?.from ?? from,
    };
    return true;
  }

  /**
   * Saves the live progress with the expectation a listed batch just set, before any of its items is
   * fetched: the screens show the totals (and so a determinate bar and the time left) from the start, not
   * only once the first items are done. Waits for a background save in flight, so it lands after it.
   */
  async saveExpectation(): Promise<void> {
    await this.liveSave;
    this.liveSavedAt = this.now();
    try {
      await this.catalog.saveLiveProgress(this.runId, { ...this.progress }, this.expectedNow());
    } catch (error) {
      console.warn("The run's live progress could not be saved", error);
    }
  }

  /** A stream's listing ended: nothing of it is left, so what the run expects is what it has done. */
  streamEnded(stream: SourceKind): void {
    if (this.expected?.stream !== stream) return;
    this.expected = { ...this.expected, items: this.progress.items, bytes: this.progress.bytes };
  }

  /** The expectation as saved: never below what is done. */
  expectedNow(): RunExpectation | null {
    if (!this.expected) return null;
    const { items, bytes } = this.expected;
    return {
      ...this.expected,
      items: items === null ? null : Math.max(items, this.progress.items),
      bytes: bytes === null ? null : Math.max(bytes, this.progress.bytes),
    };
  }

  now(): number {
    return (this.options.now ?? Date.now)();
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  unitsUsed(): number {
    const usage = this.options.usage;
    return this.record.unitsUsed + (usage ? usage.units - this.usageAtStart : 0);
  }

  shouldStop(): boolean {
    const { signal, deadline, stopWhen } = this.options;
    return (
      signal?.aborted === true || (deadline !== undefined && this.now() >= deadline) || stopWhen?.() === true
    );
  }

  serviceOutcome(kind: SourceKind): ServiceOutcome {
    return (this.services[kind] ??= { skipped: {} });
  }

  skip(kind: SourceKind, reason: string): void {
    const outcome = this.serviceOutcome(kind);
    outcome.skipped[reason] = (outcome.skipped[reason] ?? 0) + 1;
  }

  /** Counts an item this run backed up that the screens point out (`ServiceOutcome.notes`). */
  note(kind: SourceKind, what: string): void {
    const notes = (this.serviceOutcome(kind).notes ??= {});
    notes[what] = (notes[what] ?? 0) + 1;
  }

  /** A failed service fails the run (its reason is the run's); a service that is unavailable does not. */
  failedService(): ServiceOutcome | undefined {
    return Object.values(this.services).find((outcome) => outcome?.state === "failed");
  }

  summary(): RunSummary {
    return {
      progress: { ...this.progress },
      unitsUsed: this.unitsUsed(),
      itemErrors: this.itemErrorCount,
      services: JSON.parse(JSON.stringify(this.services)) as ServiceOutcomes,
    };
  }

  /**
   * Records what the batch stored: chunk index, versions, deletes (in this order), then marks the items a
   * full listing saw without a new version as seen (`seen`).
   */
  async recordWork(seen: string[] = []): Promise<ItemError[]> {
    const { catalog, runId, resourceId } = this;
    const at = this.iso();
    const refs: ChunkRecord[] = [
      ...this.work.written.values(),
      ...[...this.work.reused].filter((id) => !this.work.written.has(id)).map((id) => ({ id })),
    ];
    for (const slice of slices(refs, MAX_CHUNK_REFS_PER_CALL)) await catalog.recordChunks(slice, runId, at);
    for (const slice of slices(this.work.versions, MAX_VERSIONS_PER_CALL)) {
      await catalog.writeVersions(resourceId, slice);
    }
    const deletes = [...new Set(this.work.deletes)];
    for (const slice of slices(deletes, MAX_VERSIONS_PER_CALL)) {
      await catalog.markDeleted(resourceId, slice, at);
    }
    const versioned = new Set(this.work.versions.map((version) => version.itemKey));
    const unchanged = [...new Set(seen)].filter((key) => !versioned.has(key));
    for (const slice of slices(unchanged, MAX_VERSIONS_PER_CALL))
      await catalog.touchItems(resourceId, slice, at);
    const errors = this.work.errors;
    if (this.work.partial !== undefined) this.partial = this.work.partial;
    this.work = new BatchWork();
    this.committed = { ...this.progress };
    return errors;
  }

  async checkpoint(newItemErrors: ItemError[]): Promise<void> {
    await this.catalog.saveCheckpoint(this.runId, this.holder, {
      cursor: this.cursor,
      progress: this.progress,
      unitsUsed: this.unitsUsed(),
      newItemErrors,
      listing: this.listing,
      services: this.services,
      partial: this.partial,
      expected: this.expectedNow(),
    });
    this.itemErrorCount += newItemErrors.length;
    this.options.onCheckpoint?.({ ...this.progress });
  }
}
