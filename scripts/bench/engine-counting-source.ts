/**
 * A Drive source wrapper for the large-file section (`engine-large-file.ts`): it counts what a delivery
 * asked Drive for (whole reads, Range reads and their offsets) and the bytes they yielded.
 */
import type { ChangeBatch, FetchedItem, ItemRef, Source } from "../../functions/src/engine/sources/source";

/** A source that counts the reads it is asked for and the bytes they yield. */
export class CountingSource implements Source {
  readonly kind: Source["kind"];
  wholeReads = 0;
  readonly ranges: number[] = [];
  bytes = 0;

  constructor(private readonly inner: Source) {
    this.kind = inner.kind;
  }

  listChanges(cursor: string | null): AsyncIterable<ChangeBatch> {
    return this.inner.listChanges(cursor);
  }

  private counted(read: () => AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    const count = (bytes: number) => {
      this.bytes += bytes;
    };
    return {
      async *[Symbol.asyncIterator]() {
        for await (const piece of read()) {
          count(piece.length);
          yield piece;
        }
      },
    };
  }

  async fetch(item: ItemRef): Promise<FetchedItem> {
    const fetched = await this.inner.fetch(item);
    const from = fetched.contentFrom?.bind(fetched);
    return {
      ...fetched,
      content: this.counted(() => {
        this.wholeReads += 1;
        return fetched.content;
      }),
      ...(from
        ? {
            contentFrom: (offset: number) => {
              this.ranges.push(offset);
              return this.counted(() => from(offset));
            },
          }
        : {}),
    };
  }
}
