/**
 * Held calls, shared by the emulators' test-only `hold` faults: a call matched by a hold rule waits until
 * the rule is released (or for `HOLD_AT_MOST_MS`), and a test can wait until a number of calls are held.
 * A test sees the product's work in flight at the call it chose instead of racing it.
 */

/** How long a held call waits at most for its rule's release (a hang guard: the test forgot to release). */
export const HOLD_AT_MOST_MS = 120_000;

interface Hold {
  parked: (() => void)[];
  count: number;
  watchers: { count: number; resolve: (held: number) => void }[];
}

export class Holds {
  private readonly holds = new Map<string, Hold>();

  /** Parks a call under the rule `id` until it is released (or `HOLD_AT_MOST_MS` has passed). */
  hold(id: string): Promise<void> {
    const hold = this.holdOf(id);
    return new Promise((resolve) => {
      const timer = setTimeout(go, HOLD_AT_MOST_MS);
      function go(): void {
        clearTimeout(timer);
        resolve();
      }
      hold.parked.push(go);
      hold.count += 1;
      for (const watcher of hold.watchers.filter((each) => hold.count >= each.count)) {
        watcher.resolve(hold.count);
      }
      hold.watchers = hold.watchers.filter((each) => hold.count < each.count);
    });
  }

  /**
   * Resolves with the number of calls the rule `id` has parked once it is at least `count`; undefined
   * after `withinMs` (the calls never came).
   */
  held(id: string, count: number, withinMs: number): Promise<number | undefined> {
    const hold = this.holdOf(id);
    if (hold.count >= count) return Promise.resolve(hold.count);
    return new Promise((resolve) => {
      const watcher = {
        count,
        resolve: (held: number) => {
          clearTimeout(timer);
          resolve(held);
        },
      };
      const timer = setTimeout(() => {
        hold.watchers = hold.watchers.filter((each) => each !== watcher);
        resolve(undefined);
      }, withinMs);
      hold.watchers.push(watcher);
    });
  }

  /** Whether the rule `id` has held a call or is waited on. */
  has(id: string): boolean {
    return this.holds.has(id);
  }

  /** Lets every call the rule `id` holds go on. */
  release(id: string): void {
    const hold = this.holds.get(id);
    if (!hold) return;
    this.holds.delete(id);
    for (const go of hold.parked) go();
    for (const watcher of hold.watchers) watcher.resolve(hold.count);
  }

  releaseAll(): void {
    for (const id of [...this.holds.keys()]) this.release(id);
  }

  private holdOf(id: string): Hold {
    let hold = this.holds.get(id);
    if (!hold) {
      hold = { parked: [], count: 0, watchers: [] };
      this.holds.set(id, hold);
    }
    return hold;
  }
}
