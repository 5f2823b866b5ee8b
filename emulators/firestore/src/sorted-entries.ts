/**
 * A sorted list kept in blocks of at most `2 × BLOCK` items: an insert or a removal moves at most one
 * block's items (not the whole list, as one sorted array would), a position is found by binary search over
 * the blocks' first positions. Index entries live in one per index (index-entries.ts), so a write to a
 * collection of a million documents costs the same as to a collection of a thousand.
 */
const BLOCK = 512;

export class SortedBlocks<T> {
  private blocks: T[][] = [];
  /** Position of each block's first item (valid while `startsValid`). */
  private starts: number[] = [];
  private startsValid = true;
  private count = 0;
  /** The block `at` found last. */
  private lastBlock = 0;

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get length(): number {
    return this.count;
  }

  /** Replaces the content with `items`, sorted here. */
  reset(items: T[]): void {
    items.sort(this.compare);
    this.blocks = [];
    for (let i = 0; i < items.length; i += BLOCK) this.blocks.push(items.slice(i, i + BLOCK));
    this.count = items.length;
    this.startsValid = false;
  }

  /** Every item in order (a copy). */
  toArray(): T[] {
    return this.blocks.flat();
  }

  private refreshStarts(): void {
    if (this.startsValid) return;
    this.starts = new Array<number>(this.blocks.length);
    let at = 0;
    this.blocks.forEach((block, i) => {
      this.starts[i] = at;
      at += block.length;
    });
    this.startsValid = true;
  }

  /** The block holding position `index` (0 <= index < length). */
  private blockAt(index: number): number {
    this.refreshStarts();
    let low = 0;
    let high = this.blocks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The item at a position; reading positions in order finds each block once. */
  at(index: number): T {
    this.refreshStarts();
    let block = this.lastBlock;
    const start = this.starts[block];
    if (start === undefined || index < start || index >= start + this.blocks[block]!.length) {
      block = this.blockAt(index);
      this.lastBlock = block;
    }
    return this.blocks[block]![index - this.starts[block]!]!;
  }

  /** The block where `item` belongs: the first whose last item is not before it (or the last block). */
  private blockFor(item: T): number {
    let low = 0;
    let high = this.blocks.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const block = this.blocks[middle]!;
      if (this.compare(block[block.length - 1]!, item) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private static within<T>(block: T[], item: T, compare: (a: T, b: T) => number): number {
    let low = 0;
    let high = block.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(block[middle]!, item) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  insert(item: T): void {
    if (this.blocks.length === 0) this.blocks.push([]);
    const b = this.blockFor(item);
    const block = this.blocks[b]!;
    block.splice(SortedBlocks.within(block, item, this.compare), 0, item);
    if (block.length > 2 * BLOCK) this.blocks.splice(b + 1, 0, block.splice(BLOCK));
    this.count += 1;
    this.startsValid = false;
  }

  /** Removes the item equal to `item` (compare 0); false when there is none. */
  remove(item: T): boolean {
    if (this.blocks.length === 0) return false;
    const b = this.blockFor(item);
    const block = this.blocks[b]!;
    const at = SortedBlocks.within(block, item, this.compare);
    if (at >= block.length || this.compare(block[at]!, item) !== 0) return false;
    block.splice(at, 1);
    if (block.length === 0) this.blocks.splice(b, 1);
    this.count -= 1;
    this.startsValid = false;
    return true;
  }

  /** The first position in [from, to) whose item satisfies `atOrAfter` (false, then true, along the order). */
  lowerBound(atOrAfter: (item: T) => boolean, from = 0, to = this.count): number {
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (atOrAfter(this.at(middle))) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}
