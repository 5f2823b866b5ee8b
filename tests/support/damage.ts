/**
 * Damaging stored backups on purpose, as the integrity tests need: the object of an item's chunk, and four
 * ways to break it (a flipped byte, a truncated object, a deleted object, another organisation's chunk in
 * its place), straight in the stack's Storage emulator.
 */
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { chunkObjectName, chunksOf } from "./backup";
import { blobStore, finishedRun, itemsOf, objectScope, runsOf, type StoredItem } from "./backup-runs";
import { assignDefaultPolicy } from "./backup-runs";
import type { ApiCaller } from "./organizations";

interface Setup {
  call: ApiCaller;
  organization: OrganizationSummary;
  resource: { resourceId: string };
}

/** The resource's items of a kind once its first backup (started by assigning a policy) has succeeded. */
export async function backedUp(setup: Setup, kind = "gmail-message"): Promise<StoredItem[]> {
  const runs = await runsOf(setup.organization, setup.resource.resourceId);
  if (runs.length === 0) await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  const [run] = await runsOf(setup.organization, setup.resource.resourceId);
  const finished = await finishedRun(setup.organization, setup.resource.resourceId, run!.runId);
  expect(finished.state).toBe("succeeded");
  return (await itemsOf(setup.organization, setup.resource.resourceId))
    .filter((item) => item.kind === kind)
    .sort((a, b) => (a.itemKey < b.itemKey ? -1 : 1));
}

/** The object name of an item's only chunk (small test messages and files have one). */
export async function onlyChunkOf(organization: OrganizationSummary, item: StoredItem): Promise<string> {
  const chunks = await chunksOf(blobStore(), await objectScope(organization), item.current);
  if (chunks.length !== 1) throw new Error(`${item.itemKey} has ${chunks.length} chunks, not one`);
  return chunkObjectName(organization.organizationId, chunks[0]!.id);
}

/** The object name of an item's only chunk. */
export function chunkOf(setup: Setup, item: StoredItem): Promise<string> {
  return onlyChunkOf(setup.organization, item);
}

/** Flips one byte in the middle of an object. */
export async function flipByte(name: string): Promise<void> {
  const file = blobStore().bucket.file(name);
  const [bytes] = await file.download();
  const middle = Math.floor(bytes.length / 2);
  bytes.writeUInt8(bytes.readUInt8(middle) ^ 0x01, middle);
  await file.save(bytes, { resumable: false });
}

/** Cuts the last 40 bytes off an object. */
export async function truncate(name: string): Promise<void> {
  const file = blobStore().bucket.file(name);
  const [whole] = await file.download();
  await file.save(whole.subarray(0, whole.length - 40), { resumable: false });
}

export async function deleteObject(name: string): Promise<void> {
  await blobStore().bucket.file(name).delete();
}

/** Puts the bytes of `source` (another organisation's chunk) in place of `target`. */
export async function replaceWith(target: string, source: string): Promise<void> {
  const [bytes] = await blobStore().bucket.file(source).download();
  await blobStore().bucket.file(target).save(bytes, { resumable: false });
}

/** Flips a byte of the item's only chunk: reading the item back fails its integrity check. */
export async function damageItem(organization: OrganizationSummary, item: StoredItem): Promise<void> {
  await flipByte(await onlyChunkOf(organization, item));
}
