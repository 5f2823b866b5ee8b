/**
 * Damaging an organisation's stored backups the way a failing disk or a careless operator would, for tests
 * that check damaged items are detected and named (recoveries, exports).
 */
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { chunkObjectName, chunksOf } from "./backup";
import { blobStore, objectScope, type StoredItem } from "./backup-runs";

/** The object name of an item's only chunk (small test messages and files have one). */
export async function onlyChunkOf(organization: OrganizationSummary, item: StoredItem): Promise<string> {
  const chunks = await chunksOf(blobStore(), await objectScope(organization), item.current);
  if (chunks.length !== 1) throw new Error(`${item.itemKey} has ${chunks.length} chunks, not one`);
  return chunkObjectName(organization.organizationId, chunks[0]!.id);
}

/** Flips one byte in the middle of a stored object. */
export async function flipByte(name: string): Promise<void> {
  const file = blobStore().bucket.file(name);
  const [bytes] = await file.download();
  const middle = Math.floor(bytes.length / 2);
  bytes.writeUInt8(bytes.readUInt8(middle) ^ 0x01, middle);
  await file.save(bytes, { resumable: false });
}

/** Flips a byte of the item's only chunk: reading the item back fails its integrity check. */
export async function damageItem(organization: OrganizationSummary, item: StoredItem): Promise<void> {
  await flipByte(await onlyChunkOf(organization, item));
}
