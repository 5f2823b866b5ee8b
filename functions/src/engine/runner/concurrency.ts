/**
 * How many items of one resource a run processes at once, adapted to what the run sees.
 *
 * One item's fetch waits on Google's answer: at 70 ms per `messages.get` four in flight keep a mailbox at
 * its per-user ceiling, but a slow answer, a 30 MB message or a Drive export that takes seconds leaves
 * that user's quota unspent while the others wait for it. The run therefore watches, over a window of
 * finished items, the share of their time its Google calls spent waiting for quota (`quotaWaitMs` of the
 * run's usage, counted by the quota caller):
 *
 * - almost none (below `RAISE_BELOW`), and no retries: the quota is not what holds the run back, Google's
 *   answer times are: one more item in flight, up to `max` (Google answers 429 beyond about ten requests
 *   of one user at once; the caller allows eight);
 * - a large share (above `LOWER_ABOVE`): the run is at its quota and more items in flight only wait (and
 *   hold memory, and are repeated if the delivery stops): down to what the time not spent waiting needs
 *   (Little's law: limit × (1 − share), and a quarter more), at least one fewer, never below `min`.
 *
 * Between the two the limit holds: calls wait a little for quota, so the user's bucket is always in use.
 * Without a usage meter the limit stays where it started.
 */
import type { CallCounts } from "../google/caller";

/** A window's items spent less than this share of their time waiting for quota: one more in flight. */
export const RAISE_BELOW = 0.05;
/** A window's items spent more than this share waiting for quota: one fewer in flight. */
export const LOWER_ABOVE = 0.25;
/** Items per window at least (and twice the limit when that is more). */
const MIN_WINDOW_ITEMS = 8;

export interface ConcurrencyOptions {
  /** Items at once to begin with. */
  initial: number;
  /** Never fewer than this (default 2). */
  min?: number;
  /** Never more than this. */
  max: number;
  /** The run's Google usage: where the quota waits are counted. */
  usage?: CallCounts;
}

export class AdaptiveConcurrency {
  private current: number;
  private readonly min: number;
  private readonly max: number;
  private window = { items: 0, itemMs: 0, waitMs: 0, retries: 0 };

  constructor(private readonly options: ConcurrencyOptions) {
    this.max = Math.max(1, Math.floor(options.max));
    this.min = Math.min(this.max, Math.max(1, Math.floor(options.min ?? 2)));
    this.current = Math.min(this.max, Math.max(this.min, Math.floor(options.initial)));
    this.startWindow();
  }

  /** Items to keep in flight now. */
  get limit(): number {
    return this.current;
  }

  /**
   * One item finished after `ms` on the run's clock (its Google calls, their quota waits, its storage):
   * the clock the quota waits are counted on.
   */
  itemDone(ms: number): void {
    const usage = this.options.usage;
    if (!usage) return;
    this.window.items += 1;
    this.window.itemMs += Math.max(0, ms);
    if (this.window.items < Math.max(MIN_WINDOW_ITEMS, 2 * this.current)) return;
    const waited = usage.quotaWaitMs - this.window.waitMs;
    const retried = usage.retries > this.window.retries;
    const share = this.window.itemMs > 0 ? waited / this.window.itemMs : 0;
    if (share < RAISE_BELOW && !retried) this.current = Math.min(this.max, this.current + 1);
    else if (share > LOWER_ABOVE) {
      // What the window's items did besides waiting needs about limit × (1 − share) in flight; a quarter
      // more keeps a call waiting for quota at all times.
      const needed = Math.ceil(this.current * (1 - Math.min(1, share)) * 1.25);
      this.current = Math.max(this.min, Math.min(this.current - 1, needed));
    }
    this.startWindow();
  }

  private startWindow(): void {
    this.window = {
      items: 0,
      itemMs: 0,
      waitMs: this.options.usage?.quotaWaitMs ?? 0,
      retries: this.options.usage?.retries ?? 0,
    };
  }
}
