/**
 * Chunk writing with dedup: chunks the organisation's chunk index already has are not uploaded again, the
 * others are encoded and written once (`putIfAbsent`); a version names its chunk list inline or through a
 * manifest object (docs/backup-format.md §3–§4).
 */
import type { BlobStore } from "../blobstore/blob-store";
import {
  MAX_INLINE_CHUNKS,
  decodeManifest,
  encodeChunk,
  encodeManifest,
  type ChunkRef,
} from "../format/chunk-codec";
import type { CatalogItem, ChunkList } from "./catalog";
import type { RunContext } from "./run-context";

/** Chunk ids remembered per run to spare index lookups (beyond it, the index is asked again). */
const RUN_CHUNK_MEMORY = 200_000;

/** A chunk of an item's content: its id and plaintext. */
export interface PlainChunk {
  id: string;
  plaintext: Buffer;
}

export class ChunkWriter {
  /** Chunks known to be stored (written this run or in the index), to spare lookups. */
  private readonly storedChunks = new Set<string>();

  constructor(
    private readonly run: RunContext,
    readonly blobStore: BlobStore,
  ) {}

  private rememberChunk(id: string): void {
    if (this.storedChunks.size >= RUN_CHUNK_MEMORY) this.storedChunks.clear();
    this.storedChunks.add(id);
  }

  /** Uploads the chunks the index does not have; returns the object bytes written. */
  async storeChunks(group: PlainChunk[]): Promise<number> {
    const { run } = this;
    const ask = [...new Set(group.map((chunk) => chunk.id))].filter(
      (id) => !this.storedChunks.has(id) && !run.work.written.has(id),
    );
    const known = ask.length > 0 ? await run.catalog.knownChunks(ask) : new Set<string>();
    const pending = new Map<string, Buffer>();
    for (const { id, plaintext } of group) {
      if (!ask.includes(id)) continue;
      if (known.has(id)) {
        run.work.reused.add(id);
        this.rememberChunk(id);
      } else pending.set(id, plaintext);
    }
    const written = await Promise.all(
      [...pending].map(async ([id, plaintext]) => {
        const encoded = await encodeChunk(run.scope, plaintext);
        const isNew = await this.blobStore.putIfAbsent(encoded.objectName, encoded.body);
        run.work.written.set(id, {
          id,
          size: encoded.size,
          storedSize: encoded.storedSize,
          dataKeyId: run.keys.dataKeyId,
        });
        this.rememberChunk(id);
        return isNew ? encoded.storedSize : 0;
      }),
    );
    return written.reduce((sum, bytes) => sum + bytes, 0);
  }

  /** Writes a manifest object once; returns its name and the bytes written. */
  async writeManifest(versionId: string, chunks: ChunkRef[]): Promise<[string, number]> {
    const manifest = await encodeManifest(this.run.scope, versionId, { chunks });
    const isNew = await this.blobStore.putIfAbsent(manifest.objectName, manifest.body);
    return [manifest.objectName, isNew ? manifest.body.length : 0];
  }

  /** The version's chunk list: inline, or a manifest object written once. Returns it and the bytes written. */
  async chunkList(versionId: string, chunks: ChunkRef[]): Promise<[ChunkList, number]> {
    if (chunks.length <= MAX_INLINE_CHUNKS) return [{ chunks }, 0];
    const [manifestObject, bytes] = await this.writeManifest(versionId, chunks);
    return [{ manifestObject }, bytes];
  }

  /** The chunks a manifest object names. */
  async readManifest(manifestObject: string, versionId: string): Promise<ChunkRef[]> {
    const body = await this.blobStore.get(manifestObject);
    return (await decodeManifest(this.run.scope, versionId, body)).chunks;
  }

  /** The chunk list of an existing version (reading its manifest object when it has one). */
  async chunksOf(current: CatalogItem["current"]): Promise<ChunkRef[]> {
    if ("chunks" in current) return current.chunks;
    return this.readManifest(current.manifestObject, current.versionId);
  }
}
