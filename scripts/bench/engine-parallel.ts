/**
 * Section "parallel": 5 generated mailboxes backed up at once through one `quotaAwareCaller` (one worker
 * process), each run with its own metered caller, into one organisation's store. Throughput: the Gmail
 * units the emulator charged for all of them, per quota minute over the steady part (see `steadyRate`),
 * as a fraction of the combined limit min(5 × per-user limit, per-project limit).
 *
 * Time scale 6 (a quota minute lasts 10 s): the five runs and the emulator share this process's one
 * thread, which a faster clock would saturate (the note gives the event loop's busy share).
 */
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { GOOGLE_QUOTA_LIMITS } from "../../functions/src/engine/google/costs";
import type { MeasuredFigure } from "./types";
import { BackupStore, busyShare, sampler, steadyRate } from "./engine-store";
import { BenchWorkspace, CALLER_FRACTION } from "./engine-workspace";

const TIME_SCALE = 6;
const MAILBOXES = 5;
/** About 8 quota minutes of each user's quota. */
const MESSAGES = 2_300;
const SEED = 6_002;

export async function measureParallel(): Promise<MeasuredFigure[]> {
  // The generated roster has suspended users too: two more than needed leaves enough active ones.
  const workspace = await BenchWorkspace.start(TIME_SCALE, {
    users: MAILBOXES + 2,
    messagesPerUser: MESSAGES,
    filesPerUser: 1,
    seed: SEED,
  });
  try {
    const users = workspace.users.slice(0, MAILBOXES);
    if (users.length < MAILBOXES) throw new Error(`only ${users.length} active users were generated`);
    const { minuteMs } = workspace;
    const limits = GOOGLE_QUOTA_LIMITS.gmail;
    const ceiling = Math.min(MAILBOXES * limits.perUserPerMinute, limits.perProjectPerMinute);
    const shared = quotaAwareCaller({ minuteMs });
    const store = new BackupStore();
    const spent = await Promise.all(
      users.map((user) =>
        workspace.spendFirstBucket(user, shared, limits.perUserPerMinute * CALLER_FRACTION),
      ),
    );

    const before = workspace.charged("gmail");
    const units = sampler(100, () => workspace.charged("gmail").units);
    const { value: runs, busy } = await busyShare(() =>
      Promise.all(
        users.map(async (user) => {
          const caller = meteredCaller(shared);
          return store.backup(user, workspace.gmailSource(user, caller), caller.usage);
        }),
      ),
    );
    // The steady part ends with the first run to end: after it, fewer than five users spend.
    const steady = steadyRate(
      units.stop(),
      {
        startedAt: Math.min(...runs.map((run) => run.startedAt)),
        finishedAt: Math.min(...runs.map((run) => run.finishedAt)),
      },
      minuteMs,
    );
    const rejected = workspace.charged("gmail").rejected - before.rejected;
    const messages = runs.reduce((sum, run) => sum + run.result.progress.items, 0);
    const lengths = runs.map((run) => ((run.finishedAt - run.startedAt) / minuteMs).toFixed(1)).join(", ");

    return [
      {
        id: "gmail-parallel-ceiling-fraction",
        value: steady.perMinute / ceiling,
        note:
          `time scale ${TIME_SCALE} (a quota minute = ${(minuteMs / 1000).toFixed(0)} s); ${MAILBOXES} mailboxes ` +
          `of ${MESSAGES.toLocaleString("en-US")} generated messages (${messages.toLocaleString("en-US")} ` +
          `stored); each user's first full bucket spent just before (${spent.join(", ")} messages.get); runs ` +
          `of ${lengths} quota minutes; steady part (from the second minute to half a minute before the first ` +
          `run ended) ${steady.minutes.toFixed(1)} minutes at ` +
          `${Math.round(steady.perMinute).toLocaleString("en-US")} units/min of ` +
          `${ceiling.toLocaleString("en-US")}; the caller aims at 97 %; calls refused by the emulator: ` +
          `${rejected}; event loop busy ${(busy * 100).toFixed(0)} % ` +
          `(five runs and the emulator in one thread)`,
      },
    ];
  } finally {
    await workspace.stop();
  }
}
