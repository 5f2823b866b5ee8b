/**
 * A token bucket: up to `capacity` units, refilled continuously at `refillPerSecond`. `take(units)` waits
 * until the units are there; waiters are served first come, first served, so a large request is never
 * starved by a stream of small ones. Time comes from an injectable clock (a fake one in tests).
 */

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface TokenBucketOptions {
  capacity: number;
  refillPerSecond: number;
  /** Units available at the start (default: full). */
  initial?: number;
  clock?: Clock;
}

interface Waiter {
  units: number;
  resolve: () => void;
}

export class TokenBucket {
  readonly capacity: number;
  readonly refillPerSecond: number;
  private tokens: number;
  private updatedAt: number;
  private readonly clock: Clock;
  private readonly waiters: Waiter[] = [];
  private serving = false;

  constructor(options: TokenBucketOptions) {
    if (!(options.capacity > 0)) throw new RangeError("capacity must be > 0");
    if (!(options.refillPerSecond > 0)) throw new RangeError("refillPerSecond must be > 0");
    this.capacity = options.capacity;
    this.refillPerSecond = options.refillPerSecond;
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.tokens = Math.min(options.initial ?? options.capacity, options.capacity);
    this.updatedAt = this.clock.now();
  }

  /** Units available now. */
  available(): number {
    this.refill();
    return this.tokens;
  }

  /** Requests waiting for units. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Waits until `units` are available (after every earlier waiter), then takes them. */
  take(units: number): Promise<void> {
    if (!(units >= 0)) throw new RangeError("units must be >= 0");
    if (units > this.capacity) {
      throw new RangeError(`A request of ${units} units can never fit a bucket of ${this.capacity}`);
    }
    if (this.waiters.length === 0 && this.tryTake(units)) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ units, resolve });
      // Not awaited: serve() answers the waiters, and only waits on the clock, which never fails.
      void this.serve();
    });
  }

  /** Takes `units` if they are available now and nobody waits before; false otherwise. */
  tryTake(units: number): boolean {
    if (this.waiters.length > 0) return false;
    this.refill();
    if (this.tokens < units) return false;
    this.tokens -= units;
    return true;
  }

  /**
   * Empties the bucket (Google said the limit was hit, so our view of it was too generous): every request
   * waits for the refill.
   */
  drain(): void {
    this.refill();
    this.tokens = Math.min(this.tokens, 0);
  }

  /** Milliseconds until `units` are available (0: now). */
  waitTime(units: number): number {
    this.refill();
    if (this.tokens >= units) return 0;
    return Math.ceil(((units - this.tokens) / this.refillPerSecond) * 1000);
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.updatedAt);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsed / 1000) * this.refillPerSecond);
    this.updatedAt = now;
  }

  /** Serves waiters in order, sleeping until the head one fits. One server loop at a time. */
  private async serve(): Promise<void> {
    if (this.serving) return;
    this.serving = true;
    try {
      for (let head = this.waiters[0]; head; head = this.waiters[0]) {
        const wait = this.waitTime(head.units);
        if (wait > 0) {
          await this.clock.sleep(wait);
          continue;
        }
        this.tokens -= head.units;
        this.waiters.shift();
        head.resolve();
      }
    } finally {
      this.serving = false;
    }
  }
}

/** A counting semaphore with first come, first served waiting. */
export class Semaphore {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError("limit must be >= 1");
  }

  get inUse(): number {
    return this.active;
  }

  /** Waits for a slot; returns the function that gives it back (idempotent). */
  async acquire(): Promise<() => void> {
    if (this.active < this.limit && this.queue.length === 0) this.active += 1;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.active -= 1;
    };
  }
}
