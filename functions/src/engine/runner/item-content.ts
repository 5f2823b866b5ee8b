/**
 * An item's content into versions: a new version that reuses the current chunk list (metadata-only
 * change), or the content streamed through the chunker and the content digester into chunks, checked
 * against what the source expects; a large item may stop at a chunk boundary and go on later
 * (docs/backup-engine.md, "Runner").
 */
import { createHash, type Hash } from "node:crypto";
import { chunkStream } from "../format/chunker";
import { chunkId, type ChunkRef } from "../format/chunk-codec";
import { createContentDigester, type ContentDigester } from "../format/content-digest";
import {
  ContentMismatchError,
  type FetchedItem,
  type ItemMetadata,
  type SearchFields,
} from "../sources/source";
import {
  versionIdOf,
  type CatalogItem,
  type CatalogVersion,
  type ChunkList,
  type PartialItem,
} from "./catalog";
import { kindOf, serviceOfSearch } from "./batch-work";
import type { ChunkWriter, PlainChunk } from "./chunk-writer";
import { PartialStop } from "./run-errors";
import type { RunContext } from "./run-context";
import { RESUMABLE_ITEM_BYTES } from "./run-options";
import { resumableContentDigest, resumableMd5, type ResumableHash } from "./resumable";

/** Chunks looked up in the chunk index (and uploaded) together: at most this many (≤ 4 MiB held). */
const CHUNK_GROUP = 16;

type VersionFields = Omit<
  CatalogVersion,
  "runId" | "capturedAt" | "kind" | "dataKeyId" | "formatVersion" | keyof ChunkList
>;

/** Where a fetched item's content is read from and how it is hashed (from its start, or resumed). */
interface ContentRead {
  resumable: boolean;
  digester: ResumableHash | ContentDigester;
  md5: ResumableHash | Hash | undefined;
  chunks: ChunkRef[];
  start: number;
  content: AsyncIterable<Buffer>;
}

/** Stores an item's content (new or reused) as versions of the run's current batch. */
export class ItemContent {
  constructor(
    private readonly run: RunContext,
    private readonly writer: ChunkWriter,
  ) {}

  private addVersion(fields: VersionFields, list: ChunkList): void {
    const { run } = this;
    if (fields.metadata.contentSkipped)
      run.skip(serviceOfSearch(fields.search), fields.metadata.contentSkipped);
    if (fields.metadata.externalOwner) run.note(serviceOfSearch(fields.search), "external-owner");
    run.work.versions.push({
      ...fields,
      kind: kindOf(fields.search),
      runId: run.runId,
      capturedAt: run.iso(),
      dataKeyId: run.keys.dataKeyId,
      formatVersion: 1,
      ...list,
    } as CatalogVersion);
    run.progress.items += 1;
    run.progressMoved();
  }

  /** A new version of a known item that keeps its content (same chunk list). */
  async reuseContent(
    item: CatalogItem,
    versionKey: string,
    metadata: ItemMetadata,
    search: SearchFields,
  ): Promise<void> {
    const versionId = versionIdOf(item.itemKey, versionKey);
    const [list, stored] = await this.writer.chunkList(versionId, await this.writer.chunksOf(item.current));
    this.run.progress.storedBytes += stored;
    this.addVersion(
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
  private async resumePoint(
    fetched: FetchedItem,
  ): Promise<{ from: PartialItem; chunks: ChunkRef[] } | undefined> {
    const from = this.run.partial;
    if (
      !from ||
      !fetched.contentFrom ||
      from.itemKey !== fetched.itemKey ||
      from.versionKey !== fetched.versionKey ||
      from.contentKey !== fetched.contentKey ||
      from.dataKeyId !== this.run.keys.dataKeyId
    ) {
      return undefined;
    }
    try {
      const chunks = await this.writer.readManifest(from.manifestObject, from.manifestVersionId);
      const held = chunks.reduce((sum, chunk) => sum + chunk.size, 0);
      return held === from.offset ? { from, chunks } : undefined;
    } catch {
      // Its partial list is gone or unreadable: the item is read from its start again.
      return undefined;
    }
  }

  /** How `fetched` is read: from its start, or (a large item) from where a saved partial left it. */
  private async contentRead(fetched: FetchedItem): Promise<ContentRead> {
    const { keys, options } = this.run;
    const expected = fetched.expected ?? {};
    const resumable =
      fetched.contentFrom !== undefined &&
      (fetched.size ?? expected.size ?? 0) >= (options.resumableItemBytes ?? RESUMABLE_ITEM_BYTES);
    const resume = resumable ? await this.resumePoint(fetched) : undefined;
    const digester = resumable
      ? await resumableContentDigest(keys, resume?.from.digestState)
      : createContentDigester(keys);
    const md5 =
      expected.md5 === undefined
        ? undefined
        : resumable
          ? await resumableMd5(resume?.from.md5State)
          : createHash("md5");
    const start = resume?.from.offset ?? 0;
    const content = resume
      ? (fetched.contentFrom as (offset: number) => AsyncIterable<Buffer>)(start)
      : fetched.content;
    return { resumable, digester, md5, chunks: resume ? [...resume.chunks] : [], start, content };
  }

  /**
   * Every chunk so far is written: keeps the list and the hash states as the batch's `partial`, and stops
   * here (`PartialStop`).
   */
  private async stopInTheMiddle(
    fetched: FetchedItem,
    read: ContentRead,
    size: number,
    storedSoFar: number,
  ): Promise<never> {
    const { run } = this;
    const manifestVersionId = `${versionIdOf(fetched.itemKey, fetched.versionKey)}~partial-${size}`;
    const [manifestObject, manifestBytes] = await this.writer.writeManifest(manifestVersionId, read.chunks);
    run.progress.bytes += size - read.start;
    run.progress.storedBytes += storedSoFar + manifestBytes;
    run.work.partial = {
      kind: kindOf(fetched.search),
      itemKey: fetched.itemKey,
      versionKey: fetched.versionKey,
      contentKey: fetched.contentKey,
      offset: size,
      manifestObject,
      manifestVersionId,
      dataKeyId: run.keys.dataKeyId,
      digestState: (read.digester as ResumableHash).save(),
      ...(read.md5 ? { md5State: (read.md5 as ResumableHash).save() } : {}),
    };
    throw new PartialStop();
  }

  /** Streams the content into chunks and objects; returns its size and the object bytes written. */
  private async writeChunks(
    fetched: FetchedItem,
    read: ContentRead,
  ): Promise<{ size: number; stored: number }> {
    const { run } = this;
    let size = read.start;
    let stored = 0;
    let group: PlainChunk[] = [];
    for await (const plaintext of chunkStream(read.content)) {
      read.digester.update(plaintext);
      read.md5?.update(plaintext);
      size += plaintext.length;
      const id = chunkId(run.keys, plaintext);
      read.chunks.push({ id, size: plaintext.length });
      group.push({ id, plaintext });
      if (group.length >= CHUNK_GROUP) {
        stored += await this.writer.storeChunks(group);
        group = [];
        if (read.resumable && run.shouldStop()) await this.stopInTheMiddle(fetched, read, size, stored);
      }
    }
    if (group.length > 0) stored += await this.writer.storeChunks(group);
    return { size, stored };
  }

  /**
   * Streams a fetched item's content into chunks and objects, checks it against what the source expects
   * (md5, size), then adds its version. A large item from a source that reads from an offset may stop at a
   * chunk boundary when the deadline comes (`PartialStop`), its chunks and hash states kept in the batch's
   * `partial`; the next delivery goes on from there.
   */
  async storeContent(fetched: FetchedItem, healing = false): Promise<void> {
    const { run } = this;
    const versionId = versionIdOf(fetched.itemKey, fetched.versionKey);
    const expected = fetched.expected ?? {};
    const read = await this.contentRead(fetched);
    const { size, stored: chunkBytes } = await this.writeChunks(fetched, read);
    const md5Hex = read.md5
      ? await Promise.resolve(
          (read.md5 as { digest(encoding?: "hex"): string | Promise<string> }).digest("hex"),
        )
      : undefined;
    if (
      (expected.md5 !== undefined && md5Hex !== expected.md5) ||
      (expected.size !== undefined && size !== expected.size)
    ) {
      // Changed since it was listed, or cut short: nothing of it is recorded (its partial either).
      if (run.partial?.itemKey === fetched.itemKey) run.work.partial = null;
      throw new ContentMismatchError(fetched.itemKey);
    }
    const [list, manifestBytes] = await this.writer.chunkList(versionId, read.chunks);
    const stored = chunkBytes + manifestBytes;
    run.progress.bytes += size - read.start;
    run.progress.storedBytes += stored;
    this.addVersion(
      {
        versionId,
        itemKey: fetched.itemKey,
        versionKey: fetched.versionKey,
        contentKey: fetched.contentKey,
        size,
        storedBytes: stored,
        contentDigest: await Promise.resolve(read.digester.digest()),
        metadata: fetched.metadata,
        search: fetched.search,
        ...(healing ? { healedAt: run.iso() } : {}),
      },
      list,
    );
    if (run.partial?.itemKey === fetched.itemKey) run.work.partial = null;
  }
}
