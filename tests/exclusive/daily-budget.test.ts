/**
 * The project's daily Google budget: when the ledger says the quota day is spent,
 * a backup's delivery starts nothing and records when the run goes on; the dispatcher leaves the run alone
 * until then instead of taking it for stranded, and delivers it once that time has passed. When Google
 * itself answers that its daily limit is reached, the run is paced the same way (not failed), and the
 * ledger counts the day as spent so other deliveries wait without asking Google.
 *
 * The ledger is the deployment's (every organisation's backups read it), so this file runs alone, after the
 * other stack tests (the `exclusive` project).
 */
import { QUOTA_MODELS } from "../../functions/src/engine/google/costs";
import { dailyBudget, quotaDayOf } from "../../functions/src/engine/google/daily-budget";
import {
  assignDefaultPolicy,
  finishedRun,
  itemsOf,
  organizationDoc,
  organizationWithData,
  regionDbOf,
  runsOf,
  type StoredRun,
} from "../support/backup-runs";
import { dispatch, drainTasks } from "../support/background";
import { withRegionDb } from "../support/organizations";
import { FaultsOfThisFile } from "../support/workspace";

jest.setTimeout(180_000);

const DAY_MS = 24 * 3600_000;

/** The ledger's documents for today's quota day and the next (a run near midnight Pacific stays paced). */
function ledgerDocs(): string[] {
  const today = quotaDayOf(Date.now());
  const next = quotaDayOf(today.endsAt + 1);
  return ["gmail", "drive"].flatMap((api) => [`${api}-${today.day}`, `${api}-${next.day}`]);
}

async function setLedger(units: number | undefined): Promise<void> {
  await withRegionDb("(default)", async (db) => {
    for (const id of ledgerDocs()) {
      const ref = db.collection("googleQuotaDays").doc(id);
      if (units === undefined) await ref.delete();
      else await ref.set({ api: id.split("-")[0], day: id.slice(id.indexOf("-") + 1), units });
    }
  });
}

type PacedRun = StoredRun & { resumesAt?: string; pacedAt?: string };

/** The run once its delivery found the budget spent (the assignment's task delivered now). */
async function pacedRun(setup: Awaited<ReturnType<typeof organizationWithData>>): Promise<PacedRun> {
  await drainTasks();
  const [run] = (await runsOf(setup.organization, setup.resource.resourceId)) as PacedRun[];
  if (!run?.resumesAt || !run.pacedAt) throw new Error(`The run was not paced: ${JSON.stringify(run)}`);
  return run;
}

describe("a backup while the project's daily Google budget is spent", () => {
  let setup: Awaited<ReturnType<typeof organizationWithData>>;
  let paced: PacedRun;

  beforeAll(async () => {
    setup = await organizationWithData(4);
    // Far past any model's daily threshold: nothing is left to share today.
    await setLedger(1e12);
    await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
    paced = await pacedRun(setup);
  });

  afterAll(async () => {
    await setLedger(undefined);
  });

  test("when its delivery runs, then it backs up nothing and the run says it goes on at the quota day's end", async () => {
    const dayEnd = quotaDayOf(Date.parse(paced.pacedAt as string)).endsAt;
    expect(Date.parse(paced.resumesAt as string)).toBe(dayEnd);
    expect(Date.parse(paced.resumesAt as string)).toBeLessThanOrEqual(Date.now() + DAY_MS);
    expect(paced.state === "pending" || paced.state === "running").toBe(true);
    expect(await itemsOf(setup.organization, setup.resource.resourceId)).toEqual([]);
  });

  test("when the dispatcher runs meanwhile, then it does not deliver the paced run again", async () => {
    // A run it took for stranded would be delivered and paced again, with a new pacedAt.
    expect(await dispatch(setup.organization.organizationId)).toMatchObject({ backupsRedispatched: 0 });
    expect(await drainTasks()).toEqual([]);
    const [run] = (await runsOf(setup.organization, setup.resource.resourceId)) as PacedRun[];
    expect(run?.runId).toBe(paced.runId);
    expect(run?.pacedAt).toBe(paced.pacedAt);
    expect(run?.resumesAt).toBe(paced.resumesAt);
  });

  test("when the budget allows again and its time has come, then the dispatcher delivers it and the same run backs everything up", async () => {
    await setLedger(undefined);
    await withRegionDb(regionDbOf(setup.organization), async (db) => {
      await organizationDoc(setup.organization)(db)
        .collection("backupRuns")
        .doc(paced.runId)
        .update({ resumesAt: new Date(Date.now() - 1000).toISOString() });
    });
    expect(await dispatch(setup.organization.organizationId)).toMatchObject({ backupsRedispatched: 1 });
    const run = await finishedRun(setup.organization, setup.resource.resourceId, paced.runId);
    expect(run.state).toBe("succeeded");
    const items = await itemsOf(setup.organization, setup.resource.resourceId);
    expect(items.filter((item) => item.kind === "gmail-message")).toHaveLength(4);
    expect(items.filter((item) => item.kind === "drive-file")).toHaveLength(1);
    expect(await runsOf(setup.organization, setup.resource.resourceId)).toHaveLength(1);
  });
});

describe("a backup when Google answers that the project's daily Gmail limit is reached", () => {
  const faults = new FaultsOfThisFile();
  let setup: Awaited<ReturnType<typeof organizationWithData>>;

  beforeAll(async () => {
    await setLedger(undefined);
    setup = await organizationWithData(3);
    // Google's answer once the project's threshold is spent (Gmail's "Resolve errors": dailyLimitExceeded).
    await faults.add({
      method: "gmail.users.messages.get",
      user: setup.workspace.user,
      action: { kind: "error", status: 403, reason: "dailyLimitExceeded", message: "Daily Limit Exceeded" },
    });
    await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  });

  afterAll(async () => {
    await faults.removeAll();
    await setLedger(undefined);
  });

  test("when its delivery meets it, then the run is not failed, goes on at the quota day's end, and the ledger counts Gmail's day as spent", async () => {
    const run = await pacedRun(setup);
    expect(run.state === "pending" || run.state === "running").toBe(true);
    expect(Date.parse(run.resumesAt as string)).toBe(quotaDayOf(Date.parse(run.pacedAt as string)).endsAt);
    const day = quotaDayOf(Date.parse(run.pacedAt as string)).day;
    const ledger = await withRegionDb("(default)", async (db) =>
      (await db.collection("googleQuotaDays").doc(`gmail-${day}`).get()).data(),
    );
    expect(ledger?.units).toBeGreaterThanOrEqual(dailyBudget(QUOTA_MODELS["2026"], "gmail") as number);
  });
});
