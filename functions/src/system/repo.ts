import { FieldValue } from "firebase-admin/firestore";
import type { RegionId } from "@alpvault/contracts/regions";
import type { PacedApi } from "../engine/google/daily-budget";
import { globalDb } from "../lib/firebase";
import { decodeDocument } from "../lib/stored";
import { DISPATCHER_RUNS, GOOGLE_QUOTA_DAY } from "./documents";

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
  /** Runs of every region's dispatcher. */
  runs: number;
}

/**
 * Records one run of a region's dispatcher (in a transaction, so concurrent runs count exactly): the
 * total, and each region's last run and count under `regions`.
 */
export async function recordDispatcherRun(
  regionId: RegionId,
  scheduledTime: string,
): Promise<DispatcherState> {
  const ref = globalDb().collection("system").doc("dispatcher");
  return globalDb().runTransaction(async (transaction) => {
    const recorded = decodeDocument(DISPATCHER_RUNS, await transaction.get(ref));
    const state: DispatcherState = { lastRunAt: scheduledTime, runs: (recorded?.runs ?? 0) + 1 };
    const regionRuns = (recorded?.regions[regionId]?.runs ?? 0) + 1;
    transaction.set(
      ref,
      { ...state, regions: { [regionId]: { lastRunAt: scheduledTime, runs: regionRuns } } },
      { merge: true },
    );
    return state;
  });
}

/**
 * What the deployment's Google Cloud project spent of one Google API on one quota day (YYYY-MM-DD,
 * Pacific time), counted by every worker: the daily budget's ledger (`engine/google/daily-budget.ts`).
 */
const googleDayRef = (api: PacedApi, day: string) =>
  globalDb().collection("googleQuotaDays").doc(`${api}-${day}`);

export async function googleUnitsSpent(api: PacedApi, day: string): Promise<number> {
  return decodeDocument(GOOGLE_QUOTA_DAY, await googleDayRef(api, day).get())?.units ?? 0;
}

/** Adds units spent (atomically: workers add at the same time). */
export async function addGoogleUnitsSpent(api: PacedApi, day: string, units: number): Promise<void> {
  if (!(units > 0)) return;
  await googleDayRef(api, day).set({ api, day, units: FieldValue.increment(units) }, { merge: true });
}
