/**
 * Waiting for the product's background work, the one way tests do it. In a file that runs the product in
 * its own process, the work runs now, when the test says so (`drainTasks`), and what it leaves must show it
 * ended: no waiting at all. Through the local stack (browser journeys, the end-to-end set), Cloud Tasks
 * delivers on its own, so what the work leaves is read again until it shows the end, at most `hangAfterMs`:
 * a hang detector, not a speed check. `scripts/test-waits.ts` fails a test file that waits any other way.
 */
import { drainTasks } from "./background";
import { runsInProcess } from "./in-process/harness";

export async function afterBackgroundWork<T>(
  what: string,
  read: () => Promise<T>,
  ended: (value: T) => boolean,
  hangAfterMs = 150_000,
): Promise<T> {
  if (runsInProcess()) {
    await drainTasks();
    const value = await read();
    if (!ended(value))
      throw new Error(`${what} had not ended once every task was delivered: ${JSON.stringify(value)}`);
    return value;
  }
  const until = Date.now() + hangAfterMs;
  for (;;) {
    const value = await read();
    if (ended(value)) return value;
    if (Date.now() > until)
      throw new Error(`${what} did not end within ${hangAfterMs / 1000} s: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
