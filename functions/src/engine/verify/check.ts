/**
 * Reading one item's stored versions back (docs/backup-engine.md, "Integrity verification"), with the
 * reader restore uses: each version's chunk list (inline, or its manifest object authenticated and
 * decrypted), each chunk read, its AEAD tag, header and HMAC id checked (`decodeChunk`), and the whole
 * content's HMAC compared with the version's `contentDigest` when every chunk of it was read in this pass.
 *
 * What is damaged is said object by object (the chunk or manifest objects that are missing, altered,
 * truncated or another organisation's), so that self-healing removes exactly those. Only integrity failures
 * count as damage (`isIntegrityError`); a store that does not answer, or a data key that cannot be
 * unwrapped, is the run's failure, never an item's damage.
 */
import type { BlobStore } from "../blobstore/blob-store";
import { createContentDigester } from "../format/content-digest";
import { chunkObjectName, decodeChunk, decodeManifest, type ChunkRef } from "../format/chunk-codec";
import type { DerivedKeys } from "../format/keys";
import type { ChunkList } from "../runner/catalog";
import { isIntegrityError } from "../restore/content";

export type StoredVersion = {
  versionId: string;
  dataKeyId: string;
  contentDigest: string;
} & ChunkList;

/** What the pass knows about chunks: read (true: good, false: damaged) or fresh (read within the day). */
export interface ChunkMemory {
  /** Chunks read in this delivery, and whether they were good. */
  read: Map<string, boolean>;
  /** Chunks read recently by another verification (not read again). */
  fresh: Set<string>;
}

export interface ItemCheck {
  /** Damaged objects (chunk and manifest object names). */
  brokenObjects: string[];
  /** The ids of the damaged chunks (their `chunkRefs` entries). */
  brokenChunks: string[];
  /** Versions whose readable chunks do not add up to their digest (a wrong chunk list). */
  digestMismatches: string[];
  /** Chunks read and good (their `verifiedAt` is recorded). */
  goodChunks: string[];
  objectsRead: number;
  bytesRead: number;
}

export function isDamaged(check: ItemCheck): boolean {
  return check.brokenObjects.length > 0 || check.digestMismatches.length > 0;
}

/** Versions with the same chunk list and digest are read once (metadata-only changes share it). */
function signatureOf(version: StoredVersion): string {
  const list =
    "chunks" in version ? version.chunks.map((chunk) => chunk.id).join(",") : version.manifestObject;
  return `${version.dataKeyId}|${version.contentDigest}|${list}`;
}

export async function checkItem(options: {
  blobStore: BlobStore;
  organizationId: string;
  keys: (dataKeyId: string) => Promise<DerivedKeys>;
  versions: readonly StoredVersion[];
  memory: ChunkMemory;
}): Promise<ItemCheck> {
  const { blobStore, organizationId, memory } = options;
  const check: ItemCheck = {
    brokenObjects: [],
    brokenChunks: [],
    digestMismatches: [],
    goodChunks: [],
    objectsRead: 0,
    bytesRead: 0,
  };
  const seen = new Set<string>();
  for (const version of options.versions) {
    const signature = signatureOf(version);
    if (seen.has(signature)) continue;
    seen.add(signature);
    const keys = await options.keys(version.dataKeyId);
    const scope = { organizationId, keys };
    let chunks: ChunkRef[];
    if ("chunks" in version) {
      chunks = version.chunks;
    } else {
      try {
        const body = await blobStore.get(version.manifestObject);
        check.objectsRead += 1;
        check.bytesRead += body.length;
        chunks = (await decodeManifest(scope, version.versionId, body)).chunks;
      } catch (error) {
        if (!isIntegrityError(error)) throw error;
        if (!check.brokenObjects.includes(version.manifestObject)) {
          check.brokenObjects.push(version.manifestObject);
        }
        continue;
      }
    }
    const digester = createContentDigester(keys);
    let whole = true;
    for (const chunk of chunks) {
      const known = memory.read.get(chunk.id);
      if (known !== undefined || memory.fresh.has(chunk.id)) {
        // Read already (here or by a recent verification): its state is known, its bytes are not at hand.
        whole = false;
        if (known === false) recordBroken(check, organizationId, chunk.id);
        continue;
      }
      const name = chunkObjectName(organizationId, chunk.id);
      try {
        const body = await blobStore.get(name);
        check.objectsRead += 1;
        check.bytesRead += body.length;
        const plaintext = await decodeChunk(scope, chunk.id, body);
        digester.update(plaintext);
        memory.read.set(chunk.id, true);
        check.goodChunks.push(chunk.id);
      } catch (error) {
        if (!isIntegrityError(error)) throw error;
        memory.read.set(chunk.id, false);
        recordBroken(check, organizationId, chunk.id);
        whole = false;
      }
    }
    if (whole && digester.digest() !== version.contentDigest) check.digestMismatches.push(version.versionId);
  }
  return check;
}

function recordBroken(check: ItemCheck, organizationId: string, chunkId: string): void {
  if (check.brokenChunks.includes(chunkId)) return;
  check.brokenChunks.push(chunkId);
  check.brokenObjects.push(chunkObjectName(organizationId, chunkId));
}
