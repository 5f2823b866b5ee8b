import { emptyCounts } from "../google/caller";
import { AdaptiveConcurrency } from "./concurrency";

/** Reports `items` finished items of `itemMs` each, during which calls waited `waitMs` for quota. */
function finish(
  concurrency: AdaptiveConcurrency,
  usage: ReturnType<typeof emptyCounts>,
  items: number,
  itemMs: number,
  waitMs: number,
): void {
  for (let index = 0; index < items; index += 1) {
    usage.quotaWaitMs += waitMs / items;
    concurrency.itemDone(itemMs);
  }
}

describe("AdaptiveConcurrency", () => {
  it("when items barely wait for quota, then one more is in flight after each window, up to the most", () => {
    const usage = emptyCounts();
    const concurrency = new AdaptiveConcurrency({ initial: 4, max: 6, usage });
    finish(concurrency, usage, 7, 100, 0);
    expect(concurrency.limit).toBe(4);
    finish(concurrency, usage, 1, 100, 0);
    expect(concurrency.limit).toBe(5);
    finish(concurrency, usage, 10, 100, 10);
    expect(concurrency.limit).toBe(6);
    finish(concurrency, usage, 100, 100, 0);
    expect(concurrency.limit).toBe(6);
  });

  it("when items spend much of their time waiting for quota, then fewer are in flight: what the rest of their time needs, down to the least", () => {
    const usage = emptyCounts();
    const concurrency = new AdaptiveConcurrency({ initial: 8, max: 8, usage });
    // A third of the time waiting: 8 × 2/3 × 1.25 → 7.
    finish(concurrency, usage, 16, 100, 16 * 100 * 0.3);
    expect(concurrency.limit).toBe(7);
    // Four fifths waiting: 7 × 1/5 × 1.25 → 2.
    finish(concurrency, usage, 14, 100, 14 * 100 * 0.8);
    expect(concurrency.limit).toBe(2);
    finish(concurrency, usage, 80, 100, 8 * 100 * 0.9);
    expect(concurrency.limit).toBe(2);
  });

  it("when items wait a little for quota, then the limit holds", () => {
    const usage = emptyCounts();
    const concurrency = new AdaptiveConcurrency({ initial: 4, max: 8, usage });
    finish(concurrency, usage, 80, 100, 1_000);
    expect(concurrency.limit).toBe(4);
  });

  it("when Google asked for retries in a window, then the limit does not rise", () => {
    const usage = emptyCounts();
    const concurrency = new AdaptiveConcurrency({ initial: 4, max: 8, usage });
    usage.retries += 1;
    finish(concurrency, usage, 8, 100, 0);
    expect(concurrency.limit).toBe(4);
    finish(concurrency, usage, 8, 100, 0);
    expect(concurrency.limit).toBe(5);
  });

  it("when there is no usage meter, then the limit stays where it began, within its bounds", () => {
    const concurrency = new AdaptiveConcurrency({ initial: 12, max: 8 });
    for (let index = 0; index < 100; index += 1) concurrency.itemDone(1);
    expect(concurrency.limit).toBe(8);
    expect(new AdaptiveConcurrency({ initial: 0, min: 2, max: 8 }).limit).toBe(2);
  });
});
