import { globalDb } from "../lib/firebase";

/** Reads one small document to prove the database answers; resolves false after `timeoutMs`. */
export async function databaseAnswers(timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const read = globalDb()
    .collection("system")
    .doc("health")
    .get()
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface DispatcherState {
  lastRunAt: string;
  runs: number;
}

/** Records one dispatcher run (in a transaction, so concurrent runs count exactly). */
export async function recordDispatcherRun(scheduledTime: string): Promise<DispatcherState> {
  const ref = globalDb().collection("system").doc("dispatcher");
  return globalDb().runTransaction(async (transaction) => {
    const snapshot = await transaction.get(ref);
    const previous: unknown = snapshot.get("runs");
    const runs = (typeof previous === "number" ? previous : 0) + 1;
    const state: DispatcherState = { lastRunAt: scheduledTime, runs };
    transaction.set(ref, state);
    return state;
  });
}
