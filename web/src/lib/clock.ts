import { useSyncExternalStore } from "react";

/** How often the time on screen moves on: relative times ("5 minutes ago") and deadlines passed. */
const TICK_MS = 30_000;

/** A time that only changes on its ticks, for `useSyncExternalStore`. */
export interface Clock {
  subscribe(listener: () => void): () => void;
  now(): number;
}

/**
 * A clock that reads `read()` when its first listener subscribes and then every `tickMs` while any listens.
 * Between ticks `now()` answers the same time however often it is asked.
 */
export function createClock(read: () => number, tickMs: number): Clock {
  let now = read();
  let timer: ReturnType<typeof setInterval> | undefined;
  const listeners = new Set<() => void>();
  const tick = () => {
    now = read();
    for (const listener of listeners) listener();
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (timer === undefined) {
        timer = setInterval(tick, tickMs);
        // The time may have gone on since the last listener left.
        tick();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== undefined) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    now: () => now,
  };
}

const screenClock = createClock(() => Date.now(), TICK_MS);

/**
 * The current time for what a component shows (milliseconds since the epoch). A render reads it here, not
 * from `Date.now()`, so that it stays pure (the same answer however often React renders) and the screen
 * moves on every 30 s while it is open.
 */
export function useNow(): number {
  return useSyncExternalStore(screenClock.subscribe, screenClock.now);
}
