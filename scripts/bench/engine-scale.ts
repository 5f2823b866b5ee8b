/**
 * Section "scale": an organisation of 200 mailboxes backed up at once, as the deployment's 200 run slots
 * (`backupRunSlots` under the 2026 model) would, through one `quotaAwareCaller`, under the project's daily
 * budget as the worker applies it (`worker.ts`): each delivery of a run gets its share of what the pace
 * leaves (`deliveryShare` with 200 run slots, from an in-memory ledger of what the project spent today),
 * stops once its Gmail units reach the share (`stopWhen` on the delivery's metered caller) and, while the
 * run is not over, the next delivery starts with a new share (or when the pace allows one).
 *
 * - Throughput: the Gmail units the emulator charged (Google's view), per quota minute over the steady
 *   part (from a minute after the first run started to half a minute before the first run ended, see
 *   `steadyRate`), as a fraction of min(200 × per-user limit, per-project limit): 1,200,000 units a
 *   minute either way, about 58,000 `messages.get` a quota minute. Each user's caller bucket is spent
 *   just before (see `spendFirstBucket`), so the runs are at the limit from their start.
 * - Errors: units the emulator refused (429 and 403, per minute or per day) and calls that failed for good.
 * - The day's threshold: the project's daily Gmail threshold is lowered (a quota override, as in the
 *   Cloud console) so that what the pace allows when the runs start is 1.2 times what they need; the
 *   figure is what the emulator charged that quota day over the threshold. The budget cannot bind within
 *   the run without stopping it: a share of `MIN_DELIVERY_UNITS` for each of 200 run slots needs 200,000
 *   units left in the pace, and the pace grows by 0.9 × threshold ÷ 1,440 a quota minute (50,000 at the
 *   model's 80,000,000), so runs that spent their shares wait 4 quota minutes or more for the next one:
 *   the hour's lead of the pace, not the per-minute ceiling, is what 200 mailboxes at once spend first.
 * - Time scale 0.15 (a quota minute lasts 400 s): the 200 runs and the emulator share this process's one
 *   thread, and 58,000 messages a quota minute are 145 a second there; the note gives the event loop's
 *   busy share (a trial at time scale 0.4, 307 messages a second, saturated it and measured the machine:
 *   0.769). Messages are small (about 2.7 KB, inserted directly) so that 160,000 of them fit in the
 *   emulator's memory and the engine's work per message stays what it is for headers and short bodies.
 */
import { GOOGLE_QUOTA_LIMITS, QUOTA_MODELS, unitCost } from "../../functions/src/engine/google/costs";
import {
  BUDGET_FRACTION,
  MIN_DELIVERY_UNITS,
  backupRunSlots,
  dailyBudget,
  pacedAllowance,
  quotaDayOf,
} from "../../functions/src/engine/google/daily-budget";
import { quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { GMAIL_UNITS_PER_PROJECT_PER_DAY } from "../../emulators/workspace/src/index";
import type { MeasuredFigure } from "./types";
import { BackupStore, DiscardingBlobStore, busyShare, sampler, steadyRate } from "./engine-store";
import { fillMailboxes } from "./engine-scale-mail";
import { type RunContext, type ScaledRun, backupRun } from "./engine-scale-run";
import { BenchWorkspace, CALLER_FRACTION } from "./engine-workspace";

export interface ScaleOptions {
  timeScale: number;
  mailboxes: number;
  messagesPerMailbox: number;
  /** Characters of each message's text (its HTML part repeats it). */
  textChars: number;
}

const DEFAULTS: ScaleOptions = { timeScale: 0.15, mailboxes: 200, messagesPerMailbox: 800, textChars: 1_100 };
const SEED = 6_003;
/** What the pace allows when the runs start, as a multiple of what they need. */
const PACE_HEADROOM = 1.2;

const count = (value: number): string => Math.round(value).toLocaleString("en-US");

/** What the scale run measured, as the figures it reports. */
interface ScaleFacts {
  options: ScaleOptions;
  workspace: BenchWorkspace;
  runs: ScaledRun[];
  samples: ReturnType<ReturnType<typeof sampler>["stop"]>;
  before: ReturnType<BenchWorkspace["charged"]>;
  after: ReturnType<BenchWorkspace["charged"]>;
  busy: number;
  shared: ReturnType<typeof quotaAwareCaller>;
  retried: Map<string, number>;
  spent: number[];
  spendMs: number;
  messageBytes: number;
  expected: number;
  ceiling: number;
  threshold: number;
  paceShare: number;
  startDay: ReturnType<typeof quotaDayOf>;
  budget: number;
  runSlots: number;
  waits: number;
}

function scaleFigures(facts: ScaleFacts): MeasuredFigure[] {
  const { options, workspace, runs, samples, before, after, busy, shared, retried, spent, spendMs } = facts;
  const { messageBytes, expected, ceiling, threshold, paceShare, startDay, budget, runSlots, waits } = facts;
  const { timeScale, mailboxes, messagesPerMailbox } = options;
  const { minuteMs } = workspace;
  const { emulator } = workspace.harness;
  const startedAt = Math.min(...runs.map((run) => run.startedAt));
  const firstEnd = Math.min(...runs.map((run) => run.finishedAt));
  const lastEnd = Math.max(...runs.map((run) => run.finishedAt));
  // The steady part ends with the first run to end: after it, fewer than 200 users spend.
  const steady = steadyRate(samples, { startedAt, finishedAt: firstEnd }, minuteMs);
  const wholeRate = (after.units - before.units) / ((lastEnd - startedAt) / minuteMs);

  const rejected = after.rejected - before.rejected;
  const report = emulator.quota.report();
  // Units of the refused calls, at their methods' costs (the emulator charges refused calls nothing).
  const refusedUnits = Object.values(report.users)
    .flatMap((methods) => Object.entries(methods))
    .filter(([method]) => method.startsWith("gmail."))
    .reduce((sum, [method, figures]) => sum + figures.rejected * emulator.quota.cost(method), 0);
  const stats = shared.stats().total;
  const items = runs.reduce((sum, run) => sum + run.items, 0);
  const itemErrors = runs.reduce((sum, run) => sum + run.itemErrors, 0);
  const dayUnits = Object.entries(report.projects)
    .map(([, projects]) => projects[emulator.quota.defaultProject]?.units.gmail ?? 0)
    .reduce((most, value) => Math.max(most, value), 0);
  const days = Object.keys(report.projects).join(", ");
  const deliveries = runs.reduce((sum, run) => sum + run.deliveries, 0);
  const stoppedByShare = runs.reduce((sum, run) => sum + run.stoppedByShare, 0);
  const shares = runs.map((run) => run.firstShare);
  const runUnits = runs.map((run) => run.units);
  const lengths = runs.map((run) => (run.finishedAt - run.startedAt) / minuteMs);
  const scale =
    `time scale ${timeScale} (a quota minute = ${(minuteMs / 1000).toFixed(0)} s); ${mailboxes} mailboxes ` +
    `of ${count(messagesPerMailbox)} small generated messages (${(messageBytes / mailboxes / messagesPerMailbox / 1000).toFixed(1)} KB ` +
    `on average) and 3 generated ones each`;
  const machine = "2 cores, 2026-11-24";

  return [
    {
      id: "scale-ceiling-fraction",
      value: steady.perMinute / ceiling,
      note:
        `${scale}; ${count(items)} of ${count(expected)} messages stored; each user's first caller bucket ` +
        `spent just before (${count(spent.reduce((sum, calls) => sum + calls, 0))} messages.get in ` +
        `${(spendMs / minuteMs).toFixed(2)} quota minutes); runs of ${Math.min(...lengths).toFixed(2)} to ` +
        `${Math.max(...lengths).toFixed(2)} quota minutes; steady part ${steady.minutes.toFixed(2)} minutes at ` +
        `${count(steady.perMinute)} units/min of ${count(ceiling)} (the caller aims at 97 %); from the first ` +
        `start to the last end ${count(wholeRate)} units/min; one caller for all runs (one worker's; in ` +
        `production 200 runs are spread over instances); event loop busy ${(busy * 100).toFixed(0)} % ` +
        `(200 runs and the emulator in one thread); ${machine}`,
    },
    {
      id: "scale-refused-units",
      value: refusedUnits,
      note:
        `Gmail calls the emulator refused (429 or 403: per user, per project, per day, concurrency) during ` +
        `the runs: ${rejected}, ${count(refusedUnits)} units in all since the emulator started; the caller's ` +
        `retries ${stats.retries} (${[...retried].map(([why, times]) => `${why} ×${times}`).join(", ") || "none"}), item errors ${itemErrors}; ${machine}`,
    },
    {
      id: "scale-failed-calls",
      value: stats.failures,
      note: `calls that failed for good after the caller's retries, of ${count(stats.calls)}; ${machine}`,
    },
    {
      id: "scale-daily-threshold-fraction",
      value: dayUnits / threshold,
      note:
        `the project's daily Gmail threshold lowered to ${count(threshold)} units (the model's ` +
        `${count(GMAIL_UNITS_PER_PROJECT_PER_DAY)}) so that the pace allowed ${PACE_HEADROOM} times what ` +
        `the runs need when they started (the quota clock ${(paceShare * 24 - 1).toFixed(1)} h into the ` +
        `Pacific day ${startDay.day}, the pace at ${(paceShare * 100).toFixed(1)} % of the day's budget of ` +
        `${count(budget)}); charged that quota day ${count(dayUnits)} units (days: ${days}); ${deliveries} ` +
        `deliveries for ${mailboxes} runs, ${stoppedByShare} ended by their share, ${waits} waits for the ` +
        `pace; first shares ${count(Math.min(...shares))} to ${count(Math.max(...shares))} units (at least ` +
        `${count(MIN_DELIVERY_UNITS)}), runs spent ${count(Math.min(...runUnits))} to ` +
        `${count(Math.max(...runUnits))}; the budget does not bind within the run: a share for each of ` +
        `${runSlots} run slots needs ${count(runSlots * MIN_DELIVERY_UNITS)} units left in the pace, which ` +
        `grows by ${count(budget / 1_440)} units a quota minute here, so runs stopped by their shares ` +
        `would wait ${((runSlots * MIN_DELIVERY_UNITS) / (budget / 1_440)).toFixed(0)} quota minutes ` +
        `(${((((runSlots * MIN_DELIVERY_UNITS) / (budget / 1_440)) * minuteMs) / 60_000).toFixed(0)} real ` +
        `minutes) for the next; ${machine}`,
    },
  ];
}

export async function measureScale(options: ScaleOptions = DEFAULTS): Promise<MeasuredFigure[]> {
  const { timeScale, mailboxes } = options;
  // The generated roster has one suspended user; each mailbox gets 3 generated broadcast messages too.
  const workspace = await BenchWorkspace.start(timeScale, {
    users: mailboxes + 2,
    messagesPerUser: 0,
    filesPerUser: 1,
    seed: SEED,
  });
  try {
    const users = workspace.users.slice(0, mailboxes);
    if (users.length < mailboxes) throw new Error(`only ${users.length} active users were generated`);
    const { emulator } = workspace.harness;
    const messageBytes = fillMailboxes(emulator, users, options, SEED);
    const expected = users.reduce(
      (sum, user) => sum + emulator.gmail.messageDates(emulator.directory.user(user)?.id ?? "").length,
      0,
    );

    const { minuteMs } = workspace;
    const limits = GOOGLE_QUOTA_LIMITS.gmail;
    const ceiling = Math.min(mailboxes * limits.perUserPerMinute, limits.perProjectPerMinute);
    // Why the caller retried: status and Google's reason.
    const retried = new Map<string, number>();
    const shared = quotaAwareCaller({
      minuteMs,
      onRetry: ({ status, googleReason }) => {
        const key = `${status}${googleReason ? ` ${googleReason}` : ""}`;
        retried.set(key, (retried.get(key) ?? 0) + 1);
      },
    });
    const store = new BackupStore(new DiscardingBlobStore());

    const quotaNow = (): number => emulator.quota.quotaNow();
    const runSlots = backupRunSlots();
    /** What the project spent of Gmail per quota day, as every worker records it after a delivery. */
    const ledger = new Map<string, number>();
    const pace = { waits: 0 };

    const spendStarted = performance.now();
    const spent = await Promise.all(
      users.map((user) =>
        workspace.spendFirstBucket(user, shared, limits.perUserPerMinute * CALLER_FRACTION),
      ),
    );
    const spendMs = performance.now() - spendStarted;

    // The project's daily Gmail threshold, lowered so that the pace allows 1.2 times what the runs need
    // on top of what the project spent today (the buckets just spent).
    const startDay = quotaDayOf(quotaNow());
    const spentToday = workspace.charged("gmail").units;
    ledger.set(startDay.day, spentToday);
    const need = expected * unitCost("gmail.users.messages.get");
    const paceShare = pacedAllowance(1_000_000, startDay, quotaNow()) / 1_000_000;
    const threshold = Math.min(
      GMAIL_UNITS_PER_PROJECT_PER_DAY,
      Math.ceil((spentToday + need * PACE_HEADROOM) / (BUDGET_FRACTION * paceShare)),
    );
    emulator.quota.configure({
      projects: { [emulator.quota.defaultProject]: { dailyUnits: { gmail: threshold } } },
    });
    const model = {
      ...QUOTA_MODELS["2026"],
      dailyUnits: { ...QUOTA_MODELS["2026"].dailyUnits, gmail: threshold },
    };
    const budget = dailyBudget(model, "gmail");
    if (budget === undefined) throw new Error("no daily Gmail budget");

    const context: RunContext = {
      workspace,
      store,
      shared,
      ledger,
      budget,
      runSlots,
      timeScale,
      quotaNow,
      pace,
    };
    const before = workspace.charged("gmail");
    const units = sampler(1_000, () => workspace.charged("gmail").units);
    const { value: runs, busy } = await busyShare(() =>
      Promise.all(users.map((user, index) => backupRun(context, user, index))),
    );
    const samples = units.stop();
    const after = workspace.charged("gmail");
    return scaleFigures({
      options,
      workspace,
      runs,
      samples,
      before,
      after,
      busy,
      shared,
      retried,
      spent,
      spendMs,
      messageBytes,
      expected,
      ceiling,
      threshold,
      paceShare,
      startDay,
      budget,
      runSlots,
      waits: pace.waits,
    });
  } finally {
    await workspace.stop();
  }
}
