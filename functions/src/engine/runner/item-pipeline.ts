/**
 * The per-item pipeline of a batch: each change applied (current version → nothing to do; same content
 * → reused chunk list; otherwise fetched and stored; gone → marked deleted), several items at once as the
 * adaptive concurrency says (docs/backup-engine.md, "Runner").
 */
import { isTransient } from "../google/errors";
import {
  ContentMismatchError,
  ItemGoneError,
  type Change,
  type ChangeBatch,
  type ItemRef,
  type SearchFields,
} from "../sources/source";
import { MAX_VERSIONS_PER_CALL, type CatalogItem } from "./catalog";
import { slices } from "./batch-work";
import type { AdaptiveConcurrency } from "./concurrency";
import type { ItemContent } from "./item-content";
import { PartialStop, itemErrorReason } from "./run-errors";
import type { RunContext } from "./run-context";

/** Transient item failures in a row (retries spent each time) after which the service counts as down. */
const TRANSIENT_ITEM_FAILURES_IN_A_ROW = 5;

const isCurrent = (item: CatalogItem | undefined, versionKey: string | undefined): boolean =>
  item !== undefined && item.deletedAtSource === null && item.current.versionKey === versionKey;

export class ItemPipeline {
  constructor(
    private readonly run: RunContext,
    private readonly content: ItemContent,
    private readonly concurrency: AdaptiveConcurrency,
  ) {}

  private canReuse(item: CatalogItem | undefined, contentKey: string | undefined): item is CatalogItem {
    return (
      item !== undefined &&
      contentKey !== undefined &&
      item.current.contentKey === contentKey &&
      item.current.dataKeyId === this.run.keys.dataKeyId
    );
  }

  private async upsert(ref: ItemRef, item: CatalogItem | undefined): Promise<void> {
    const { run } = this;
    // An item to heal is fetched and stored whole whatever the catalog has (its objects were damaged).
    const healing = ref.refetch === true;
    if (!healing && ref.versionKey !== undefined && isCurrent(item, ref.versionKey)) return;
    let attempt: ItemRef = ref;
    for (let tries = 0; ; tries++) {
      try {
        const fetched = await run.source.fetch(attempt);
        if (!healing && isCurrent(item, fetched.versionKey)) return;
        if (!healing && this.canReuse(item, fetched.contentKey)) {
          await this.content.reuseContent(item, fetched.versionKey, fetched.metadata, fetched.search);
        } else {
          await this.content.storeContent(fetched, healing);
        }
        run.transientInARow = 0;
        return;
      } catch (error) {
        if (error instanceof PartialStop) throw error;
        if (error instanceof ContentMismatchError && tries === 0) {
          attempt = { itemKey: ref.itemKey, ...(healing ? { refetch: true } : {}) };
          continue;
        }
        if (error instanceof ItemGoneError) {
          if (item) run.work.deletes.push(ref.itemKey);
          return;
        }
        const reason = itemErrorReason(error);
        if (reason === undefined) throw error;
        if (isTransient(error)) {
          // One file Google keeps failing is the file's; many in a row mean the service is down.
          run.transientInARow += 1;
          if (run.transientInARow >= TRANSIENT_ITEM_FAILURES_IN_A_ROW) throw error;
        }
        run.work.errors.push({ itemKey: ref.itemKey, reason });
        return;
      }
    }
  }

  private async apply(change: Change, items: Map<string, CatalogItem>): Promise<void> {
    const { run } = this;
    if (change.type === "delete") {
      if (items.has(change.itemKey)) run.work.deletes.push(change.itemKey);
      return;
    }
    if (change.type === "upsert") return this.upsert(change.item, items.get(change.item.itemKey));
    const item = items.get(change.itemKey);
    if (!item) return this.upsert({ itemKey: change.itemKey }, undefined);
    if (isCurrent(item, change.versionKey)) return;
    if (item.current.dataKeyId !== run.keys.dataKeyId) return this.upsert({ itemKey: change.itemKey }, item);
    await this.content.reuseContent(
      item,
      change.versionKey,
      { ...item.current.metadata, ...change.metadata },
      {
        ...item.search,
        ...change.search,
      } as SearchFields,
    );
  }

  /** Applies a batch's changes; false when asked to stop before its end (the batch is repeated later). */
  async applyBatch(batch: ChangeBatch): Promise<boolean> {
    const { run, concurrency } = this;
    const keysOfBatch = batch.changes.map((change) =>
      change.type === "upsert" ? change.item.itemKey : change.itemKey,
    );
    const items = new Map<string, CatalogItem>();
    for (const slice of slices(keysOfBatch, MAX_VERSIONS_PER_CALL)) {
      for (const [key, item] of await run.catalog.getItems(run.resourceId, slice)) items.set(key, item);
    }
    // Several items at once (as many as `concurrency` says now): one item's fetch waits on Google's
    // answer, so one at a time would leave the user's quota unspent. Every item finishes before the batch
    // is recorded; after a failure or a stop no new item starts, and the first error is the batch's.
    let next = 0;
    let active = 0;
    let stopped = false;
    let failure: { error: unknown } | undefined;
    await new Promise<void>((resolve) => {
      const launch = (): void => {
        while (active < concurrency.limit && next < batch.changes.length && !failure && !stopped) {
          if (run.shouldStop()) {
            stopped = true;
            break;
          }
          const change = batch.changes[next++] as Change;
          const startedAt = run.now();
          active += 1;
          this.apply(change, items)
            .catch((error: unknown) => {
              if (error instanceof PartialStop) stopped = true;
              else failure ??= { error };
            })
            .finally(() => {
              active -= 1;
              concurrency.itemDone(run.now() - startedAt);
              launch();
            });
        }
        if (active === 0) resolve();
      };
      launch();
    });
    if (failure) throw failure.error;
    return !stopped;
  }
}
