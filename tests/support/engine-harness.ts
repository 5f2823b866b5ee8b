/**
 * What the engine tests of every stream share about a source's answers: every batch of a listing, and
 * the bytes of a fetched item's content.
 */
import type { ChangeBatch } from "../../functions/src/engine/sources/source";

/** Every batch of a listing, in order. */
export async function collect(listing: AsyncIterable<ChangeBatch>): Promise<ChangeBatch[]> {
  const batches: ChangeBatch[] = [];
  for await (const batch of listing) batches.push(batch);
  return batches;
}

/** The bytes of an item's content stream. */
export async function bytesOf(content: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of content) parts.push(part);
  return Buffer.concat(parts);
}
