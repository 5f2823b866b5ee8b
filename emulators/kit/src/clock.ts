/**
 * Where an emulator's time comes from. Everything an emulator waits for on Google's behalf (an answer's
 * latency, a body's bandwidth, an injected delay) and every instant its quotas are counted at goes through
 * a `Clock`: the system's in the local stack, a `ManualClock` in tests, so that a test moves time instead
 * of waiting for it and what it checks does not depend on how fast the machine is.
 *
 * The shape is the backup engine's (`now`, `sleep`), so one clock can drive the engine and the emulators of
 * one test together.
 */
import { setImmediate as nextTurn, setTimeout as realDelay } from "node:timers/promises";

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves once `ms` milliseconds have passed on this clock (0 or less: soon, without waiting). */
  sleep(ms: number): Promise<void>;
}

/** The system's clock: real time (a sleep of 0 waits for the timers' next turn, as `setTimeout` does). */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms) => realDelay(Math.max(0, ms)).then(() => undefined),
};

interface Sleeper {
  until: number;
  order: number;
  resolve: () => void;
}

/** 2026-11-30 09:00 UTC: a Monday, far from midnight Pacific time (the quota day's end). */
const DEFAULT_START = Date.UTC(2026, 10, 30, 9, 0, 0);

/**
 * A clock for tests: time moves only when the test moves it, by `advance(ms)`, or by `run(work)`, which
 * lets `work` go on and, whenever everything else in the process has settled and only sleepers are left,
 * moves time to the earliest of them. Real work (requests on the loopback, hashing) takes no time on it.
 */
export class ManualClock implements Clock {
  private time: number;
  private sleepers: Sleeper[] = [];
  private count = 0;
  /** Grows with every `now()` and `sleep()`: something still happens while it does. */
  private activity = 0;

  constructor(start: number = DEFAULT_START) {
    this.time = start;
  }

  now(): number {
    this.activity += 1;
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.activity += 1;
    if (!(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      this.sleepers.push({ until: this.time + ms, order: (this.count += 1), resolve });
    });
  }

  /** Sleeps not yet over. */
  get pendingSleeps(): number {
    return this.sleepers.length;
  }

  /** Moves time forward by `ms`, waking the sleepers it passes in order and letting each go on. */
  async advance(ms: number): Promise<void> {
    const end = this.time + Math.max(0, ms);
    for (let next = this.earliest(end); next; next = this.earliest(end)) {
      this.wake(next);
      await nextTurn();
    }
    this.time = end;
    await nextTurn();
  }

  /**
   * Waits for `work`, moving time to the next sleeper each time the process has settled: nothing asked
   * the clock anything over a few turns of the event loop (requests on the loopback arrive, handlers run
   * and answers are read in those turns). Without sleepers, real time passes until something happens.
   */
  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const finished = work.finally(() => {
      done = true;
    });
    finished.catch(() => undefined);
    while (!done) {
      await this.settle(() => done);
      if (done) break;
      const next = this.earliest(Infinity);
      if (next) this.wake(next);
      else await realDelay(1);
    }
    return finished;
  }

  /** Turns of the event loop until a few pass without anyone asking the clock anything. */
  private async settle(done: () => boolean): Promise<void> {
    for (let quiet = 0; quiet < 3 && !done();) {
      const seen = this.activity;
      await nextTurn();
      quiet = seen === this.activity ? quiet + 1 : 0;
    }
  }

  private earliest(limit: number): Sleeper | undefined {
    let found: Sleeper | undefined;
    for (const sleeper of this.sleepers) {
      if (sleeper.until > limit) continue;
      if (
        !found ||
        sleeper.until < found.until ||
        (sleeper.until === found.until && sleeper.order < found.order)
      )
        found = sleeper;
    }
    return found;
  }

  /** Moves time to the sleeper's instant and wakes every sleeper due by then. */
  private wake(next: Sleeper): void {
    this.time = Math.max(this.time, next.until);
    const due = this.sleepers.filter((sleeper) => sleeper.until <= this.time);
    this.sleepers = this.sleepers.filter((sleeper) => sleeper.until > this.time);
    due.sort((a, b) => a.until - b.until || a.order - b.order).forEach((sleeper) => sleeper.resolve());
  }
}
