/**
 * A version's content from its objects (docs/backup-format.md §3–§4): the chunk list (inline, or the
 * manifest object), each chunk read, authenticated and decrypted, in order. Any tampering or a missing
 * object fails the read; nothing partial is returned.
 */
import { isBlobStoreError, type BlobStore } from "../blobstore/blob-store";
import { EncryptionError, FormatError } from "../format/errors";
import {
  chunkObjectName,
  decodeChunk,
  decodeManifest,
  type ChunkRef,
  type ObjectScope,
} from "../format/chunk-codec";
import type { ChunkList } from "../runner/catalog";

/** The ordered chunk list of a version. */
export async function chunkListOf(
  blobStore: BlobStore,
  scope: ObjectScope,
  version: { versionId: string } & ChunkList,
): Promise<ChunkRef[]> {
  if ("chunks" in version) return version.chunks;
  const body = await blobStore.get(version.manifestObject);
  return (await decodeManifest(scope, version.versionId, body)).chunks;
}

/** The whole content of a version (mail messages and small files; large files should stream chunk by chunk). */
export async function versionContent(
  blobStore: BlobStore,
  scope: ObjectScope,
  version: { versionId: string } & ChunkList,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const chunk of await chunkListOf(blobStore, scope, version)) {
    const body = await blobStore.get(chunkObjectName(scope.organizationId, chunk.id));
    parts.push(await decodeChunk(scope, chunk.id, body));
  }
  return Buffer.concat(parts);
}

/** A version's content chunk by chunk (large files: one chunk in memory at a time). */
export async function* versionChunks(
  blobStore: BlobStore,
  scope: ObjectScope,
  version: { versionId: string } & ChunkList,
): AsyncGenerator<Buffer> {
  for (const chunk of await chunkListOf(blobStore, scope, version)) {
    const body = await blobStore.get(chunkObjectName(scope.organizationId, chunk.id));
    yield await decodeChunk(scope, chunk.id, body);
  }
}

/**
 * Whether reading a version failed because its stored objects are damaged or missing (altered, truncated,
 * deleted, or another organisation's): that item cannot be read, the others can.
 */
export function isIntegrityError(error: unknown): boolean {
  return (
    error instanceof FormatError || error instanceof EncryptionError || isBlobStoreError(error, "not-found")
  );
}
