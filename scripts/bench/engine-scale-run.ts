/** The scale section's backup runs: one per mailbox, each delivery within its share of the daily pace. */
import { meteredCaller, type quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { deliveryShare, quotaDayOf } from "../../functions/src/engine/google/daily-budget";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { type BackupStore, ORGANIZATION_ID } from "./engine-store";
import { type BenchWorkspace } from "./engine-workspace";

/** The longest the section waits for the pace (real time) before it gives up. */
const LONGEST_WAIT_MS = 5 * 60_000;

export interface ScaledRun {
  user: string;
  startedAt: number;
  finishedAt: number;
  items: number;
  itemErrors: number;
  deliveries: number;
  /** Deliveries that ended because they spent their share. */
  stoppedByShare: number;
  /** The first delivery's share (units). */
  firstShare: number;
  units: number;
}

/** What one backup run needs: the shared caller and store, the daily budget and the ledger of its spending. */
export interface RunContext {
  workspace: BenchWorkspace;
  store: BackupStore;
  shared: ReturnType<typeof quotaAwareCaller>;
  /** What the project spent of Gmail per quota day, as every worker records it after a delivery. */
  ledger: Map<string, number>;
  budget: number;
  runSlots: number;
  timeScale: number;
  quotaNow: () => number;
  /** Deliveries that waited for the daily pace, all runs together. */
  pace: { waits: number };
}

/** One mailbox's backup run, delivery after delivery (each within its share of the daily pace) until done. */
export async function backupRun(context: RunContext, user: string, index: number): Promise<ScaledRun> {
  const { workspace, store, shared, ledger, budget, runSlots, timeScale, quotaNow, pace } = context;
  const runId = `scale-run-${index + 1}`;
  store.catalog.createRun({ runId, resourceId: user, cursor: null });
  const run: ScaledRun = {
    user,
    startedAt: performance.now(),
    finishedAt: 0,
    items: 0,
    itemErrors: 0,
    deliveries: 0,
    stoppedByShare: 0,
    firstShare: 0,
    units: 0,
  };
  for (;;) {
    const instant = quotaNow();
    const day = quotaDayOf(instant).day;
    const share = deliveryShare({ budget, used: ledger.get(day) ?? 0, instant, runSlots });
    if ("waitUntil" in share) {
      pace.waits += 1;
      const waitMs = (share.waitUntil - instant) / timeScale;
      if (waitMs > LONGEST_WAIT_MS) {
        throw new Error(`a delivery would wait ${(waitMs / 60_000).toFixed(0)} minutes for the daily pace`);
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      continue;
    }
    run.deliveries += 1;
    if (run.deliveries === 1) run.firstShare = share.units;
    const metered = meteredCaller(shared);
    const overShare = (): boolean => metered.usageOf("gmail").units >= share.units;
    let result;
    try {
      result = await runBackup({
        run: { runId, resourceId: user },
        source: workspace.gmailSource(user, metered, { catalog: store.catalog, resourceId: user }),
        blobStore: store.blobStore,
        catalog: store.catalog,
        dataKey: store.dataKey,
        organizationId: ORGANIZATION_ID,
        usage: metered.usage,
        stopWhen: overShare,
      });
    } finally {
      const units = metered.usageOf("gmail").units;
      ledger.set(day, (ledger.get(day) ?? 0) + units);
      run.units += units;
    }
    if (result.outcome === "continue") {
      if (overShare()) run.stoppedByShare += 1;
      continue;
    }
    if (result.outcome !== "succeeded") {
      throw new Error(`a backup run ended "${result.outcome}": ${JSON.stringify(result)}`);
    }
    run.finishedAt = performance.now();
    run.items = result.progress.items;
    run.itemErrors = result.itemErrors;
    return run;
  }
}
