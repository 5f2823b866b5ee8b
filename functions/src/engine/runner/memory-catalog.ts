/**
 * The catalog in memory, with the semantics the Firestore catalog has (see `catalog.ts`): for tests of the
 * runner. Every call copies what it takes and what it gives, as a database would; `failNext` makes the
 * next calls fail before they change anything (the way an outage between two steps looks to the runner).
 */
import {
  CatalogUnavailableError,
  LeaseLostError,
  MAX_ITEM_ERRORS,
  renamedItemLabels,
  type Catalog,
  type CatalogItem,
  type CatalogVersion,
  type Checkpoint,
  type ChunkRecord,
  type ItemKind,
  type LeaseAnswer,
  type RunExpectation,
  type RunOutcome,
  type RunProgress,
  type RunRecord,
} from "./catalog";
import { endings, itemOf } from "./catalog-items";
import type { LabelRename } from "../sources/source";

export interface StoredChunkRef {
  size?: number;
  storedSize?: number;
  dataKeyId?: string;
  firstRunId: string;
  lastReferencedAt: string;
}

const copy = <T>(value: T): T => structuredClone(value);

export class MemoryCatalog implements Catalog {
  private readonly itemDocs = new Map<string, Map<string, CatalogItem>>();
  private readonly versionDocs = new Map<string, Map<string, CatalogVersion>>();
  private readonly chunkRefs = new Map<string, StoredChunkRef>();
  private readonly runs = new Map<string, RunRecord>();
  private readonly labelNames = new Map<string, Record<string, string>>();
  private readonly labelsCheckedAt = new Map<string, string>();
  private failures = 0;

  /** The next `count` calls fail (and change nothing). */
  failNext(count: number): void {
    this.failures = count;
  }

  private enter(): void {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new CatalogUnavailableError();
    }
  }

  private itemsOf(resourceId: string): Map<string, CatalogItem> {
    let items = this.itemDocs.get(resourceId);
    if (!items) this.itemDocs.set(resourceId, (items = new Map()));
    return items;
  }

  private versionsOf(resourceId: string): Map<string, CatalogVersion> {
    let versions = this.versionDocs.get(resourceId);
    if (!versions) this.versionDocs.set(resourceId, (versions = new Map()));
    return versions;
  }

  // For tests.

  /** A new run record (state pending, no cursor unless given). */
  createRun(run: Pick<RunRecord, "runId" | "resourceId"> & Partial<RunRecord>): void {
    this.runs.set(
      run.runId,
      copy({
        state: "pending",
        cursor: null,
        progress: { items: 0, bytes: 0, storedBytes: 0 },
        unitsUsed: 0,
        itemErrors: [],
        itemErrorCount: 0,
        ...run,
      }),
    );
  }

  items(resourceId: string): CatalogItem[] {
    return copy([...this.itemsOf(resourceId).values()]);
  }

  item(resourceId: string, itemKey: string): CatalogItem | undefined {
    return copy(this.itemsOf(resourceId).get(itemKey));
  }

  /** Every version of a resource, or of one item. */
  versions(resourceId: string, itemKey?: string): CatalogVersion[] {
    return copy(
      [...this.versionsOf(resourceId).values()].filter(
        (version) => itemKey === undefined || version.itemKey === itemKey,
      ),
    );
  }

  chunkRef(id: string): StoredChunkRef | undefined {
    return copy(this.chunkRefs.get(id));
  }

  get chunkRefCount(): number {
    return this.chunkRefs.size;
  }

  run(runId: string): RunRecord | undefined {
    return copy(this.runs.get(runId));
  }

  // Catalog.

  async getItems(resourceId: string, itemKeys: string[]): Promise<Map<string, CatalogItem>> {
    this.enter();
    const items = this.itemsOf(resourceId);
    const found = new Map<string, CatalogItem>();
    for (const key of itemKeys) {
      const item = items.get(key);
      if (item) found.set(key, copy(item));
    }
    return found;
  }

  async knownChunks(chunkIds: string[]): Promise<Set<string>> {
    this.enter();
    return new Set(chunkIds.filter((id) => this.chunkRefs.has(id)));
  }

  async recordChunks(refs: ChunkRecord[], runId: string, at: string): Promise<void> {
    this.enter();
    for (const ref of refs) {
      const existing = this.chunkRefs.get(ref.id);
      const { id: _id, ...fields } = ref;
      this.chunkRefs.set(ref.id, {
        firstRunId: existing?.firstRunId ?? runId,
        ...existing,
        ...fields,
        lastReferencedAt: at,
      });
    }
  }

  async writeVersions(resourceId: string, versions: CatalogVersion[]): Promise<void> {
    this.enter();
    const items = this.itemsOf(resourceId);
    const docs = this.versionsOf(resourceId);
    const ends = endings(
      versions,
      new Map(versions.map((version) => [version.itemKey, items.get(version.itemKey)?.currentVersionId])),
    );
    for (const version of versions) {
      const existing = docs.get(version.versionId);
      if (!existing) docs.set(version.versionId, copy({ ...version, endedAt: null }));
      else if (version.healedAt) {
        // Written again from the source (integrity healing): its content, at its first capture.
        docs.set(
          version.versionId,
          copy({ ...version, capturedAt: existing.capturedAt, runId: existing.runId, endedAt: null }),
        );
      }
      const capturedAt = docs.get(version.versionId)?.capturedAt;
      items.set(version.itemKey, copy(itemOf(version, items.get(version.itemKey), capturedAt)));
    }
    for (const end of ends.values()) {
      const doc = docs.get(end.versionId);
      if (doc) doc.endedAt = end.endedAt;
    }
  }

  /** Marks an item deleted at the source, and its current version ended then. */
  private markItemDeleted(resourceId: string, item: CatalogItem, at: string): void {
    item.deletedAtSource = at;
    const current = this.versionsOf(resourceId).get(item.currentVersionId);
    if (current) current.endedAt = at;
  }

  async markDeleted(resourceId: string, itemKeys: string[], at: string): Promise<number> {
    this.enter();
    const items = this.itemsOf(resourceId);
    let changed = 0;
    for (const key of itemKeys) {
      const item = items.get(key);
      if (!item || item.deletedAtSource !== null) continue;
      this.markItemDeleted(resourceId, item, at);
      changed += 1;
    }
    return changed;
  }

  async touchItems(resourceId: string, itemKeys: string[], at: string): Promise<void> {
    this.enter();
    const items = this.itemsOf(resourceId);
    for (const key of itemKeys) {
      const item = items.get(key);
      if (item) item.lastSeenAt = at;
    }
  }

  async markUnseenDeleted(resourceId: string, kind: ItemKind, before: string, at: string): Promise<number> {
    this.enter();
    let changed = 0;
    for (const item of this.itemsOf(resourceId).values()) {
      if (item.kind !== kind || item.deletedAtSource !== null || item.lastSeenAt >= before) continue;
      this.markItemDeleted(resourceId, item, at);
      changed += 1;
    }
    return changed;
  }

  async mailLabelNames(resourceId: string): Promise<Record<string, string> | undefined> {
    this.enter();
    return copy(this.labelNames.get(resourceId));
  }

  async mailLabelsCheckedAt(resourceId: string): Promise<string | undefined> {
    this.enter();
    return this.labelsCheckedAt.get(resourceId);
  }

  async renameMailLabels(
    resourceId: string,
    renames: LabelRename[],
    labels: Record<string, string>,
    checkedAt?: string,
  ): Promise<void> {
    this.enter();
    for (const item of this.itemsOf(resourceId).values()) {
      const renamed = renamedItemLabels(item, renames);
      if (!renamed || item.search.kind !== "mail") continue;
      item.current.metadata.labels = renamed.labels;
      item.search.labels = renamed.search;
    }
    if (checkedAt) this.labelsCheckedAt.set(resourceId, checkedAt);
    this.labelNames.set(resourceId, copy(labels));
  }

  async loadRun(runId: string): Promise<RunRecord | undefined> {
    this.enter();
    return copy(this.runs.get(runId));
  }

  async takeLease(runId: string, holder: string, until: string, now: string): Promise<LeaseAnswer> {
    this.enter();
    const run = this.runs.get(runId);
    if (!run) return "missing";
    if (run.state === "succeeded" || run.state === "failed") return "finished";
    if (run.lease && run.lease.holder !== holder && run.lease.until > now) return "held-by-another";
    run.lease = { holder, until };
    if (run.state === "pending") {
      run.state = "running";
      run.startedAt = now;
    }
    return "taken";
  }

  private held(runId: string, holder: string): RunRecord {
    const run = this.runs.get(runId);
    if (!run || run.lease?.holder !== holder || run.state === "succeeded" || run.state === "failed") {
      throw new LeaseLostError(runId);
    }
    return run;
  }

  async saveCheckpoint(runId: string, holder: string, checkpoint: Checkpoint): Promise<void> {
    this.enter();
    const run = this.held(runId, holder);
    run.cursor = checkpoint.cursor;
    run.progress = copy(checkpoint.progress);
    run.unitsUsed = checkpoint.unitsUsed;
    const room = Math.max(0, MAX_ITEM_ERRORS - run.itemErrors.length);
    run.itemErrors.push(...copy(checkpoint.newItemErrors.slice(0, room)));
    run.itemErrorCount += checkpoint.newItemErrors.length;
    run.listing = checkpoint.listing ? copy(checkpoint.listing) : null;
    run.services = copy(checkpoint.services);
    run.partial = checkpoint.partial ? copy(checkpoint.partial) : null;
    if (checkpoint.expected !== undefined) run.expected = copy(checkpoint.expected);
  }

  async saveLiveProgress(
    runId: string,
    progress: RunProgress,
    expected?: RunExpectation | null,
  ): Promise<void> {
    this.enter();
    const run = this.runs.get(runId);
    if (run) run.liveProgress = copy(progress);
    if (run && expected) run.expected = copy(expected);
  }

  async releaseLease(runId: string, holder: string): Promise<void> {
    this.enter();
    const run = this.runs.get(runId);
    if (run?.lease?.holder === holder) run.lease = null;
  }

  async finishRun(runId: string, holder: string, outcome: RunOutcome, at: string): Promise<void> {
    this.enter();
    const run = this.held(runId, holder);
    run.state = outcome.state;
    if (outcome.state === "failed") run.failureReason = outcome.failureReason;
    run.finishedAt = at;
    run.lease = null;
  }
}
