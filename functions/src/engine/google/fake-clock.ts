/** A clock for tests: time moves only when `advance()` says so; sleepers wake when their time comes. */
import type { Clock } from "./token-bucket";

interface Sleeper {
  until: number;
  resolve: () => void;
}

export class FakeClock implements Clock {
  private time: number;
  private sleepers: Sleeper[] = [];
  /** Every sleep asked for, in milliseconds, in order. */
  readonly sleeps: number[] = [];

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => this.sleepers.push({ until: this.time + ms, resolve }));
  }

  /** Moves time forward, waking sleepers in order and letting their continuations run. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await flush();
      const next = this.sleepers.filter((s) => s.until <= end).sort((a, b) => a.until - b.until)[0];
      if (!next) break;
      this.time = Math.max(this.time, next.until);
      this.sleepers = this.sleepers.filter((s) => s !== next);
      next.resolve();
    }
    this.time = end;
    await flush();
  }

  get pendingSleeps(): number {
    return this.sleepers.length;
  }
}

/** Lets every queued promise continuation run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}
