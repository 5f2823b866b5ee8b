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
import { createHash, randomUUID } from "node:crypto";
import type { BackupFailureReason } from "@alpvault/contracts/backups";
import { BlobStoreError, type BlobStore } from "../blobstore/blob-store";
import { chunkStream } from "../format/chunker";
import {
  MAX_INLINE_CHUNKS,
  chunkId,
  decodeManifest,
  encodeChunk,
  encodeManifest,
  type ChunkRef,
  type ObjectScope,
} from "../format/chunk-codec";
import { createContentDigester } from "../format/content-digest";
import { EncryptionError, EncryptionKeyError, FormatError } from "../format/errors";
import { deriveKeys, type DataKey } from "../format/keys";
import type { CallCounts } from "../google/caller";
import { GoogleCallError, classifyGoogleError, failureScope, isTransient } from "../google/errors";
import { googleStatus } from "../sources/google-errors";
import {
  ContentMismatchError,
  ItemGoneError,
  NoAccessError,
  StreamError,
  type Change,
  type ChangeBatch,
  type FetchedItem,
  type ItemMetadata,
  type ItemRef,
  type SearchFields,
  type Source,
  type SourceKind,
} from "../sources/source";
import {
  LeaseLostError,
  MAX_CHUNK_REFS_PER_CALL,
  isCatalogUnavailable,
  MAX_VERSIONS_PER_CALL,
  versionIdOf,
  type Catalog,
  type CatalogItem,
  type CatalogVersion,
  type ChunkList,
  type ChunkRecord,
  type ItemError,
  type ItemKind,
  type Listing,
  type RunProgress,
  type PartialItem,
  type ServiceOutcome,
  type ServiceOutcomes,
} from "./catalog";
import { AdaptiveConcurrency } from "./concurrency";
import { resumableContentDigest, resumableMd5, type ResumableHash } from "./resumable";

/** Items of a batch fetched and stored at once to begin with (each holds at most one chunk group). */
export const ITEM_CONCURRENCY = 4;
/** The most items at once: the quota caller's requests in flight per user (Google's limit is about ten). */
export const MAX_ITEM_CONCURRENCY = 8;
/**
 * Items at least this large, from a source that can read from an offset, are stored so that a delivery
 * whose deadline comes in their middle saves what it has and the next goes on from there.
 */
export const RESUMABLE_ITEM_BYTES = 64 * 1024 * 1024;
/** Chunks looked up in the chunk index (and uploaded) together: at most this many (≤ 4 MiB held). */
const CHUNK_GROUP = 16;
/** Chunk ids remembered per run to spare index lookups (beyond it, the index is asked again). */
const RUN_CHUNK_MEMORY = 200_000;
/** How long past the deadline the lease stays live (the worker checkpoints and stops by then). */
const DEFAULT_LEASE_MARGIN_MS = 2 * 60_000;
/** Lease length when no deadline is given. */
const DEFAULT_LEASE_MS = 9 * 60_000;

export interface RunBackupOptions {
  run: { runId: string; resourceId: string };
  source: Source;
  blobStore: BlobStore;
  catalog: Catalog;
  /** The organisation's active data key (unwrapped). */
  dataKey: DataKey;
  organizationId: string;
  /** This worker (default: a random id). */
  holder?: string;
  /** Stop (checkpoint, answer "continue") once this time (ms since the epoch) is reached. */
  deadline?: number;
  /** Stop (checkpoint, answer "continue") once aborted. */
  signal?: AbortSignal;
  /** Stop (checkpoint, answer "continue") once this says so (e.g. the delivery spent its daily share). */
  stopWhen?: () => boolean;
  /** Clock (ms since the epoch). */
  now?: () => number;
  /** The run's Google usage (`meteredCaller(…).usage` of the source's caller): `unitsUsed` on the run. */
  usage?: CallCounts;
  /** Lease kept this long past the deadline. */
  leaseMarginMs?: number;
  /** Told after every saved checkpoint (progress so far). */
  onCheckpoint?: (progress: RunProgress) => void;
  /**
   * Items processed at once to begin with (default `ITEM_CONCURRENCY`); with a `usage` meter it adapts
   * to the run's quota waits between 2 and `maxItemConcurrency` (see `AdaptiveConcurrency`).
   */
  itemConcurrency?: number;
  /** The most items processed at once (default `MAX_ITEM_CONCURRENCY`). */
  maxItemConcurrency?: number;
  /** From this size on, an item may stop in its middle and go on later (default `RESUMABLE_ITEM_BYTES`). */
  resumableItemBytes?: number;
}

export type RunBackupResult =
  | {
      outcome: "skipped";
      /** Another worker holds the lease, the run is over, or there is no such run. */
      why: "leased" | "finished" | "missing" | "lease-lost";
    }
  | {
      outcome: "continue" | "succeeded";
      progress: RunProgress;
      unitsUsed: number;
      itemErrors: number;
      services: ServiceOutcomes;
    }
  | {
      outcome: "failed";
      failureReason: BackupFailureReason;
      progress: RunProgress;
      unitsUsed: number;
      itemErrors: number;
      services: ServiceOutcomes;
    };

/** Whether an error came from a Google call (through the caller, or straight from the client). */
function isGoogleError(error: unknown): boolean {
  return error instanceof GoogleCallError || googleStatus(error) !== undefined;
}

/** What a service's failure says, for the screen: Google's reason, the HTTP status, or ours. */
function detailOf(error: unknown): string | undefined {
  if (error instanceof NoAccessError) return error.detail;
  const classified = classifyGoogleError(error);
  return classified.googleReason ?? (classified.status ? `http-${classified.status}` : undefined);
}

/** The run's failure reason for a fatal error (docs/requirements.md#errors-and-messages). */
export function failureReasonOf(error: unknown): BackupFailureReason {
  if (error instanceof NoAccessError) return "backup-not-completed";
  if (error instanceof BlobStoreError) {
    return error.kind === "unavailable" ? "object-storage-unavailable" : "unknown-error";
  }
  if (error instanceof EncryptionKeyError) return "encryption-key-error";
  if (error instanceof EncryptionError || error instanceof FormatError) return "encryption-error";
  if (isGoogleError(error)) return classifyGoogleError(error).reason ?? "google-api-error";
  if (isCatalogUnavailable(error)) return "database-unresponsive";
  return "unknown-error";
}

/**
 * The reason recorded for an item error (Google's reason, or the HTTP status), or undefined when the error
 * is not about the item alone: any 4xx of an item's call is the item's (unknown ones included), but those
 * that refuse the whole service (`failureScope`).
 */
function itemErrorReason(error: unknown): string | undefined {
  if (error instanceof ContentMismatchError) return "content-mismatch";
  if (!isGoogleError(error) || failureScope(error, true) !== "item") return undefined;
  const classified = classifyGoogleError(error);
  return classified.googleReason ?? `http-${classified.status}`;
}

/** Transient item failures in a row (retries spent each time) after which the service counts as down. */
const TRANSIENT_ITEM_FAILURES_IN_A_ROW = 5;

/** The service a version belongs to. */
const serviceOfSearch = (search: SearchFields): SourceKind => (search.kind === "mail" ? "gmail" : "drive");

/** The catalog kind of a stream's items. */
const kindOfStream = (kind: Source["kind"]): ItemKind => (kind === "gmail" ? "gmail-message" : "drive-file");

/** The keys of a batch's upserts (the items a listing saw). */
const upsertKeys = (batch: ChangeBatch): string[] =>
  batch.changes.flatMap((change) => (change.type === "upsert" ? [change.item.itemKey] : []));

/** The catalog kind of a version, from its search fields (one run may carry mail and files). */
const kindOf = (search: SearchFields): ItemKind => (search.kind === "mail" ? "gmail-message" : "drive-file");

function slices<T>(values: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}

class StopRequested extends Error {
  constructor() {
    super("The run was asked to stop");
    this.name = "StopRequested";
  }
}

/** The deadline came in the middle of a large item: what is stored of it is in the batch's `partial`. */
class PartialStop extends Error {
  constructor() {
    super("Stopped in the middle of a large item");
    this.name = "PartialStop";
  }
}

/** What one batch has stored so far and still has to record. */
class BatchWork {
  /** Chunks this batch encoded and wrote (or found written), by id. */
  readonly written = new Map<string, ChunkRecord>();
  /** Chunks the index already had that this batch names again (refreshes `lastReferencedAt`). */
  readonly reused = new Set<string>();
  readonly versions: CatalogVersion[] = [];
  readonly deletes: string[] = [];
  readonly errors: ItemError[] = [];
  /** The large item left in the middle (null: the one there was is done; undefined: unchanged). */
  partial?: PartialItem | null;
}

export async function runBackup(options: RunBackupOptions): Promise<RunBackupResult> {
  const { run, source, blobStore, catalog, organizationId } = options;
  const { runId, resourceId } = run;
  const now = options.now ?? Date.now;
  const iso = (): string => new Date(now()).toISOString();
  const holder = options.holder ?? randomUUID();
  const initialConcurrency = Math.max(1, options.itemConcurrency ?? ITEM_CONCURRENCY);
  const concurrency = new AdaptiveConcurrency({
    initial: initialConcurrency,
    min: Math.min(2, initialConcurrency),
    max: Math.max(initialConcurrency, options.maxItemConcurrency ?? MAX_ITEM_CONCURRENCY),
    usage: options.usage,
  });
  const keys = deriveKeys(options.dataKey);
  const scope: ObjectScope = { organizationId, keys };

  const leaseUntil =
    options.deadline !== undefined
      ? options.deadline + (options.leaseMarginMs ?? DEFAULT_LEASE_MARGIN_MS)
      : now() + DEFAULT_LEASE_MS;
  const lease = await catalog.takeLease(runId, holder, new Date(leaseUntil).toISOString(), iso());
  if (lease === "held-by-another") return { outcome: "skipped", why: "leased" };
  if (lease === "finished" || lease === "missing") return { outcome: "skipped", why: lease };
  const record = await catalog.loadRun(runId);
  if (!record) return { outcome: "skipped", why: "missing" };

  let cursor = record.cursor;
  let listing: Listing | null = record.listing ?? null;
  const progress: RunProgress = { ...record.progress };
  /** Progress of what the catalog has recorded (what a failed run reports). */
  let committed: RunProgress = { ...progress };
  let itemErrorCount = record.itemErrorCount;
  /** The large item a delivery stopped in the middle of (saved with every checkpoint). */
  let partial: PartialItem | null = record.partial ?? null;
  const services: ServiceOutcomes = JSON.parse(JSON.stringify(record.services ?? {})) as ServiceOutcomes;
  const serviceOutcome = (kind: SourceKind): ServiceOutcome => (services[kind] ??= { skipped: {} });
  const skip = (kind: SourceKind, reason: string): void => {
    const outcome = serviceOutcome(kind);
    outcome.skipped[reason] = (outcome.skipped[reason] ?? 0) + 1;
  };
  /** Counts an item this run backed up that the screens point out (`ServiceOutcome.notes`). */
  const note = (kind: SourceKind, what: string): void => {
    const notes = (serviceOutcome(kind).notes ??= {});
    notes[what] = (notes[what] ?? 0) + 1;
  };
  /** Items whose fetch ended in a transient error (retries spent), in a row. */
  let transientInARow = 0;
  const usageAtStart = options.usage?.units ?? 0;
  const unitsUsed = (): number => record.unitsUsed + (options.usage ? options.usage.units - usageAtStart : 0);
  const shouldStop = (): boolean =>
    options.signal?.aborted === true ||
    (options.deadline !== undefined && now() >= options.deadline) ||
    options.stopWhen?.() === true;

  /** Chunks known to be stored (written this run or in the index), to spare lookups. */
  const storedChunks = new Set<string>();
  const rememberChunk = (id: string): void => {
    if (storedChunks.size >= RUN_CHUNK_MEMORY) storedChunks.clear();
    storedChunks.add(id);
  };

  let work = new BatchWork();

  /** Uploads the chunks the index does not have; returns the object bytes written. */
  async function storeChunks(group: { id: string; plaintext: Buffer }[]): Promise<number> {
    const ask = [...new Set(group.map((chunk) => chunk.id))].filter(
      (id) => !storedChunks.has(id) && !work.written.has(id),
    );
    const known = ask.length > 0 ? await catalog.knownChunks(ask) : new Set<string>();
    const pending = new Map<string, Buffer>();
    for (const { id, plaintext } of group) {
      if (!ask.includes(id)) continue;
      if (known.has(id)) {
        work.reused.add(id);
        rememberChunk(id);
      } else pending.set(id, plaintext);
    }
    const written = await Promise.all(
      [...pending].map(async ([id, plaintext]) => {
        const encoded = await encodeChunk(scope, plaintext);
        const isNew = await blobStore.putIfAbsent(encoded.objectName, encoded.body);
        work.written.set(id, {
          id,
          size: encoded.size,
          storedSize: encoded.storedSize,
          dataKeyId: keys.dataKeyId,
        });
        rememberChunk(id);
        return isNew ? encoded.storedSize : 0;
      }),
    );
    return written.reduce((sum, bytes) => sum + bytes, 0);
  }

  /** The version's chunk list: inline, or a manifest object written once. Returns it and the bytes written. */
  async function chunkList(versionId: string, chunks: ChunkRef[]): Promise<[ChunkList, number]> {
    if (chunks.length <= MAX_INLINE_CHUNKS) return [{ chunks }, 0];
    const manifest = await encodeManifest(scope, versionId, { chunks });
    const isNew = await blobStore.putIfAbsent(manifest.objectName, manifest.body);
    return [{ manifestObject: manifest.objectName }, isNew ? manifest.body.length : 0];
  }

  /** The chunk list of an existing version (reading its manifest object when it has one). */
  async function chunksOf(current: CatalogItem["current"]): Promise<ChunkRef[]> {
    if ("chunks" in current) return current.chunks;
    const body = await blobStore.get(current.manifestObject);
    return (await decodeManifest(scope, current.versionId, body)).chunks;
  }

  function addVersion(
    fields: Omit<
      CatalogVersion,
      "runId" | "capturedAt" | "kind" | "dataKeyId" | "formatVersion" | keyof ChunkList
    >,
    list: ChunkList,
  ): void {
    if (fields.metadata.contentSkipped) skip(serviceOfSearch(fields.search), fields.metadata.contentSkipped);
    if (fields.metadata.externalOwner) note(serviceOfSearch(fields.search), "external-owner");
    work.versions.push({
      ...fields,
      kind: kindOf(fields.search),
      runId,
      capturedAt: iso(),
      dataKeyId: keys.dataKeyId,
      formatVersion: 1,
      ...list,
    } as CatalogVersion);
    progress.items += 1;
  }

  /** A new version of a known item that keeps its content (same chunk list). */
  async function reuseContent(
    item: CatalogItem,
    versionKey: string,
    metadata: ItemMetadata,
    search: SearchFields,
  ): Promise<void> {
    const versionId = versionIdOf(item.itemKey, versionKey);
    const [list, stored] = await chunkList(versionId, await chunksOf(item.current));
    progress.storedBytes += stored;
    addVersion(
      {
        versionId,
        itemKey: item.itemKey,
        versionKey,
        contentKey: item.current.contentKey,
        size: item.current.size,
        storedBytes: stored,
        contentDigest: item.current.contentDigest,
        metadata,
        search,
      },
      list,
    );
  }

  /** The saved partial item `fetched` goes on from, with its chunks so far; undefined: from its start. */
  async function resumePoint(
    fetched: FetchedItem,
  ): Promise<{ from: PartialItem; chunks: ChunkRef[] } | undefined> {
    const from = partial;
    if (
      !from ||
      !fetched.contentFrom ||
      from.itemKey !== fetched.itemKey ||
      from.versionKey !== fetched.versionKey ||
      from.contentKey !== fetched.contentKey ||
      from.dataKeyId !== keys.dataKeyId
    ) {
      return undefined;
    }
    try {
      const body = await blobStore.get(from.manifestObject);
      const { chunks } = await decodeManifest(scope, from.manifestVersionId, body);
      const held = chunks.reduce((sum, chunk) => sum + chunk.size, 0);
      return held === from.offset ? { from, chunks } : undefined;
    } catch {
      // Its partial list is gone or unreadable: the item is read from its start again.
      return undefined;
    }
  }

  /**
   * Streams a fetched item's content into chunks and objects, checks it against what the source expects
   * (md5, size), then adds its version. A large item from a source that reads from an offset may stop at a
   * chunk boundary when the deadline comes (`PartialStop`), its chunks and hash states kept in the batch's
   * `partial`; the next delivery goes on from there.
   */
  async function storeContent(fetched: FetchedItem, healing = false): Promise<void> {
    const versionId = versionIdOf(fetched.itemKey, fetched.versionKey);
    const expected = fetched.expected ?? {};
    const resumable =
      fetched.contentFrom !== undefined &&
      (fetched.size ?? expected.size ?? 0) >= (options.resumableItemBytes ?? RESUMABLE_ITEM_BYTES);
    const resume = resumable ? await resumePoint(fetched) : undefined;
    const digester: ResumableHash | ReturnType<typeof createContentDigester> = resumable
      ? await resumableContentDigest(keys, resume?.from.digestState)
      : createContentDigester(keys);
    const md5 =
      expected.md5 === undefined
        ? undefined
        : resumable
          ? await resumableMd5(resume?.from.md5State)
          : createHash("md5");
    const chunks: ChunkRef[] = resume ? [...resume.chunks] : [];
    const start = resume?.from.offset ?? 0;
    let size = start;
    let stored = 0;
    let group: { id: string; plaintext: Buffer }[] = [];
    const content = resume
      ? (fetched.contentFrom as (offset: number) => AsyncIterable<Buffer>)(start)
      : fetched.content;
    for await (const plaintext of chunkStream(content)) {
      digester.update(plaintext);
      md5?.update(plaintext);
      size += plaintext.length;
      const id = chunkId(keys, plaintext);
      chunks.push({ id, size: plaintext.length });
      group.push({ id, plaintext });
      if (group.length >= CHUNK_GROUP) {
        stored += await storeChunks(group);
        group = [];
        if (resumable && shouldStop()) {
          // Every chunk so far is written: keep the list and the hash states, and stop here.
          const manifestVersionId = `${versionId}~partial-${size}`;
          const manifest = await encodeManifest(scope, manifestVersionId, { chunks });
          stored += (await blobStore.putIfAbsent(manifest.objectName, manifest.body))
            ? manifest.body.length
            : 0;
          progress.bytes += size - start;
          progress.storedBytes += stored;
          work.partial = {
            kind: kindOf(fetched.search),
            itemKey: fetched.itemKey,
            versionKey: fetched.versionKey,
            contentKey: fetched.contentKey,
            offset: size,
            manifestObject: manifest.objectName,
            manifestVersionId,
            dataKeyId: keys.dataKeyId,
            digestState: (digester as ResumableHash).save(),
            ...(md5 ? { md5State: (md5 as ResumableHash).save() } : {}),
          };
          throw new PartialStop();
        }
      }
    }
    if (group.length > 0) stored += await storeChunks(group);
    const md5Hex = md5
      ? await Promise.resolve((md5 as { digest(encoding?: "hex"): string | Promise<string> }).digest("hex"))
      : undefined;
    if (
      (expected.md5 !== undefined && md5Hex !== expected.md5) ||
      (expected.size !== undefined && size !== expected.size)
    ) {
      // Changed since it was listed, or cut short: nothing of it is recorded (its partial either).
      if (partial?.itemKey === fetched.itemKey) work.partial = null;
      throw new ContentMismatchError(fetched.itemKey);
    }
    const [list, manifestBytes] = await chunkList(versionId, chunks);
    stored += manifestBytes;
    progress.bytes += size - start;
    progress.storedBytes += stored;
    addVersion(
      {
        versionId,
        itemKey: fetched.itemKey,
        versionKey: fetched.versionKey,
        contentKey: fetched.contentKey,
        size,
        storedBytes: stored,
        contentDigest: await Promise.resolve(digester.digest()),
        metadata: fetched.metadata,
        search: fetched.search,
        ...(healing ? { healedAt: iso() } : {}),
      },
      list,
    );
    if (partial?.itemKey === fetched.itemKey) work.partial = null;
  }

  const canReuse = (item: CatalogItem | undefined, contentKey: string | undefined): item is CatalogItem =>
    item !== undefined &&
    contentKey !== undefined &&
    item.current.contentKey === contentKey &&
    item.current.dataKeyId === keys.dataKeyId;

  const isCurrent = (item: CatalogItem | undefined, versionKey: string | undefined): boolean =>
    item !== undefined && item.deletedAtSource === null && item.current.versionKey === versionKey;

  async function upsert(ref: ItemRef, item: CatalogItem | undefined): Promise<void> {
    // An item to heal is fetched and stored whole whatever the catalog has (its objects were damaged).
    const healing = ref.refetch === true;
    if (!healing && ref.versionKey !== undefined && isCurrent(item, ref.versionKey)) return;
    let attempt: ItemRef = ref;
    for (let tries = 0; ; tries++) {
      try {
        const fetched = await source.fetch(attempt);
        if (!healing && isCurrent(item, fetched.versionKey)) return;
        if (!healing && canReuse(item, fetched.contentKey)) {
          await reuseContent(item, fetched.versionKey, fetched.metadata, fetched.search);
        } else {
          await storeContent(fetched, healing);
        }
        transientInARow = 0;
        return;
      } catch (error) {
        if (error instanceof PartialStop) throw error;
        if (error instanceof ContentMismatchError && tries === 0) {
          attempt = { itemKey: ref.itemKey, ...(healing ? { refetch: true } : {}) };
          continue;
        }
        if (error instanceof ItemGoneError) {
          if (item) work.deletes.push(ref.itemKey);
          return;
        }
        const reason = itemErrorReason(error);
        if (reason === undefined) throw error;
        if (isTransient(error)) {
          // One file Google keeps failing is the file's; many in a row mean the service is down.
          transientInARow += 1;
          if (transientInARow >= TRANSIENT_ITEM_FAILURES_IN_A_ROW) throw error;
        }
        work.errors.push({ itemKey: ref.itemKey, reason });
        return;
      }
    }
  }

  async function apply(change: Change, items: Map<string, CatalogItem>): Promise<void> {
    if (change.type === "delete") {
      if (items.has(change.itemKey)) work.deletes.push(change.itemKey);
      return;
    }
    if (change.type === "upsert") return upsert(change.item, items.get(change.item.itemKey));
    const item = items.get(change.itemKey);
    if (!item) return upsert({ itemKey: change.itemKey }, undefined);
    if (isCurrent(item, change.versionKey)) return;
    if (item.current.dataKeyId !== keys.dataKeyId) return upsert({ itemKey: change.itemKey }, item);
    await reuseContent(item, change.versionKey, { ...item.current.metadata, ...change.metadata }, {
      ...item.search,
      ...change.search,
    } as SearchFields);
  }

  /**
   * Records what the batch stored: chunk index, versions, deletes (in this order), then marks the items a
   * full listing saw without a new version as seen (`seen`).
   */
  async function recordWork(seen: string[] = []): Promise<ItemError[]> {
    const at = iso();
    const refs: ChunkRecord[] = [
      ...work.written.values(),
      ...[...work.reused].filter((id) => !work.written.has(id)).map((id) => ({ id })),
    ];
    for (const slice of slices(refs, MAX_CHUNK_REFS_PER_CALL)) await catalog.recordChunks(slice, runId, at);
    for (const slice of slices(work.versions, MAX_VERSIONS_PER_CALL)) {
      await catalog.writeVersions(resourceId, slice);
    }
    const deletes = [...new Set(work.deletes)];
    for (const slice of slices(deletes, MAX_VERSIONS_PER_CALL)) {
      await catalog.markDeleted(resourceId, slice, at);
    }
    const versioned = new Set(work.versions.map((version) => version.itemKey));
    const unchanged = [...new Set(seen)].filter((key) => !versioned.has(key));
    for (const slice of slices(unchanged, MAX_VERSIONS_PER_CALL))
      await catalog.touchItems(resourceId, slice, at);
    const errors = work.errors;
    if (work.partial !== undefined) partial = work.partial;
    work = new BatchWork();
    committed = { ...progress };
    return errors;
  }

  async function checkpoint(newItemErrors: ItemError[]): Promise<void> {
    await catalog.saveCheckpoint(runId, holder, {
      cursor,
      progress,
      unitsUsed: unitsUsed(),
      newItemErrors,
      listing,
      services,
      partial,
    });
    itemErrorCount += newItemErrors.length;
    options.onCheckpoint?.({ ...progress });
  }

  /** Applies a batch's changes; false when asked to stop before its end (the batch is repeated later). */
  async function applyBatch(batch: ChangeBatch): Promise<boolean> {
    const keysOfBatch = batch.changes.map((change) =>
      change.type === "upsert" ? change.item.itemKey : change.itemKey,
    );
    const items = new Map<string, CatalogItem>();
    for (const slice of slices(keysOfBatch, MAX_VERSIONS_PER_CALL)) {
      for (const [key, item] of await catalog.getItems(resourceId, slice)) items.set(key, item);
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
          if (shouldStop()) {
            stopped = true;
            break;
          }
          const change = batch.changes[next++] as Change;
          const startedAt = performance.now();
          active += 1;
          apply(change, items)
            .catch((error: unknown) => {
              if (error instanceof PartialStop) stopped = true;
              else failure ??= { error };
            })
            .finally(() => {
              active -= 1;
              concurrency.itemDone(performance.now() - startedAt);
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

  const summary = () => ({
    progress: { ...progress },
    unitsUsed: unitsUsed(),
    itemErrors: itemErrorCount,
    services: JSON.parse(JSON.stringify(services)) as ServiceOutcomes,
  });

  /**
   * A Google failure that ends one service's part of the run (a source of several streams only): which
   * stream, and whether the service is unavailable rather than failed. Anything else fails the run.
   */
  const streamFailure = (
    error: unknown,
    stream: SourceKind | undefined,
  ): { stream: SourceKind; cause: unknown; unavailable: boolean } | undefined => {
    const cause = error instanceof StreamError ? error.cause : error;
    const kind = error instanceof StreamError ? error.stream : stream;
    if (!kind || !source.cursorAfter) return undefined;
    if (cause instanceof NoAccessError) return { stream: kind, cause, unavailable: false };
    if (!isGoogleError(cause)) return undefined;
    return { stream: kind, cause, unavailable: failureScope(cause, false) === "unavailable" };
  };

  /**
   * Ends a service's part of the run: its outcome recorded, its cursor kept where the last checkpoint left
   * it (the next run goes on from there), its full listing (if any) abandoned. Returns whether the run has
   * no other stream left.
   */
  async function endStream(failure: { stream: SourceKind; cause: unknown; unavailable: boolean }) {
    const outcome = serviceOutcome(failure.stream);
    outcome.state = failure.unavailable ? "unavailable" : "failed";
    if (!failure.unavailable) outcome.failureReason = failureReasonOf(failure.cause);
    const detail = detailOf(failure.cause);
    if (detail) outcome.detail = detail;
    if (listing?.kind === kindOfStream(failure.stream)) listing = null;
    const after = (source.cursorAfter as NonNullable<Source["cursorAfter"]>)(cursor, failure.stream);
    cursor = after.cursor;
    const errors = (await recordWork()).map((itemError) => ({
      ...itemError,
      kind: kindOfStream(failure.stream),
    }));
    for (const error of errors) skip(failure.stream, error.reason);
    await checkpoint(errors);
    transientInARow = 0;
    return after.done;
  }

  /** A failed service fails the run (its reason is the run's); a service that is unavailable does not. */
  const failedService = (): ServiceOutcome | undefined =>
    Object.values(services).find((outcome) => outcome?.state === "failed");

  try {
    if (shouldStop()) throw new StopRequested();
    let batches = source.listChanges(cursor)[Symbol.asyncIterator]();
    for (;;) {
      let batch: ChangeBatch;
      try {
        const next = await batches.next();
        if (next.done) break;
        batch = next.value;
      } catch (error) {
        const failure = streamFailure(error, undefined);
        if (!failure) throw error;
        if (await endStream(failure)) break;
        batches = source.listChanges(cursor)[Symbol.asyncIterator]();
        continue;
      }
      const stream = batch.stream ?? source.kind;
      const kind = kindOfStream(stream);
      if (batch.fullListing) listing = { kind, startedAt: iso() };
      const inListing = listing?.kind === kind;
      let complete: boolean;
      try {
        complete = await applyBatch(batch);
      } catch (error) {
        const failure = streamFailure(error, batch.stream);
        if (!failure) throw error;
        await batches.return?.(undefined);
        if (await endStream(failure)) break;
        batches = source.listChanges(cursor)[Symbol.asyncIterator]();
        continue;
      }
      const errors = (await recordWork(complete && inListing ? upsertKeys(batch) : [])).map((error) => ({
        ...error,
        kind,
      }));
      for (const error of errors) skip(stream, error.reason);
      if (!complete) {
        await checkpoint(errors);
        throw new StopRequested();
      }
      cursor = batch.nextCursor;
      if (listing && inListing && (batch.streamDone ?? batch.done) === true) {
        // A full listing ended: what it did not see is gone from the source (a resync after an expired
        // cursor misses the deletes of the gap otherwise). Items the listing saw were all touched.
        await catalog.markUnseenDeleted(resourceId, kind, listing.startedAt, iso());
        listing = null;
      }
      if ((batch.streamDone ?? batch.done) === true) serviceOutcome(stream).state ??= "succeeded";
      await checkpoint(errors);
      if (batch.done) break;
      if (shouldStop()) throw new StopRequested();
    }
    const failed = failedService();
    if (failed) {
      const failureReason = failed.failureReason ?? "google-api-error";
      await catalog.finishRun(runId, holder, { state: "failed", failureReason }, iso());
      return { outcome: "failed", failureReason, ...summary() };
    }
    await catalog.finishRun(runId, holder, { state: "succeeded" }, iso());
    return { outcome: "succeeded", ...summary() };
  } catch (thrown) {
    let error = thrown;
    if (error instanceof LeaseLostError) return { outcome: "skipped", why: "lease-lost" };
    if (error instanceof StopRequested) {
      // Should the lease not be given back, it expires and the re-enqueued task takes the run over.
      await catalog.releaseLease(runId, holder).catch(() => undefined);
      return { outcome: "continue", ...summary() };
    }
    if (options.signal?.aborted && error === options.signal.reason) {
      // Aborted inside a Google call (the caller gives up between attempts): what the batch finished is
      // recorded, the cursor stays where it was, and the batch is repeated by the next attempt.
      try {
        await checkpoint(await recordWork());
        await catalog.releaseLease(runId, holder).catch(() => undefined);
        return { outcome: "continue", ...summary() };
      } catch (recordError) {
        if (recordError instanceof LeaseLostError) return { outcome: "skipped", why: "lease-lost" };
        error = recordError;
      }
    }
    const failureReason = failureReasonOf(error);
    Object.assign(progress, committed);
    // Objects written before the failure go into the chunk index when it can be reached, so the
    // garbage collector knows them; versions and the cursor stay as the last checkpoint left them.
    if (work.written.size > 0) {
      await catalog.recordChunks([...work.written.values()], runId, iso()).catch(() => undefined);
    }
    try {
      await catalog.saveCheckpoint(runId, holder, {
        cursor,
        progress: committed,
        unitsUsed: unitsUsed(),
        newItemErrors: work.errors,
        listing,
        services,
        partial,
      });
      itemErrorCount += work.errors.length;
      await catalog.finishRun(runId, holder, { state: "failed", failureReason }, iso());
    } catch (recordError) {
      if (recordError instanceof LeaseLostError) return { outcome: "skipped", why: "lease-lost" };
      // The run record cannot be written: the lease expires and the run is taken over.
    }
    return { outcome: "failed", failureReason, ...summary() };
  }
}
