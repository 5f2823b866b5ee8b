/**
 * Section "mailbox": one generated mailbox of 10,000 messages (`bench` profile, about 47 KB a message),
 * backed up in full at Gmail's page size (500), then again incrementally with nothing changed.
 *
 * - Throughput: the units the emulator charged (Google's view), sampled every 100 ms, per quota minute over
 *   the run's steady part (see `steadyRate`), as a fraction of the per-user limit (6,000 units a minute).
 *   The caller's first full bucket is spent before the run starts (see `spendFirstBucket`). The caller
 *   aims at 97 % of the limit, so 0.97 is the most this can show.
 * - Units per message and the incremental run's units: what the run's metered caller counted (every
 *   attempt sent), checked against what the emulator charged.
 * - Time scale 30: a quota minute lasts 2 s, and the full run about 70 s. A run fetches one message at a
 *   time, so a faster clock would measure this process's speed instead of the quota. For the same reason
 *   the figure holds only while a message takes less than 1/291 of a quota minute, the answer included:
 *   about 7 ms here, about 206 ms at a real minute against Google (whose answer time this cannot measure;
 *   the emulator answers on the loopback within a millisecond or two).
 */
import { meteredCaller } from "../../functions/src/backup/google/caller";
import { GOOGLE_QUOTA_LIMITS } from "../../functions/src/backup/google/costs";
import { quotaAwareCaller } from "../../functions/src/backup/google/quota-caller";
import type { MeasuredFigure } from "./engine-child";
import { BackupStore, busyShare, sampler, steadyRate } from "./engine-store";
import { BenchWorkspace } from "./engine-workspace";

const TIME_SCALE = 30;
const MESSAGES = 10_000;
const SEED = 6_001;
const LIMIT = GOOGLE_QUOTA_LIMITS.gmail.perUserPerMinute;
/** The caller's default `targetFraction`: its buckets hold and refill this share of the limit. */
const CALLER_FRACTION = 0.97;

const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;
const count = (value: number): string => value.toLocaleString("en-US");

export async function measureMailbox(): Promise<MeasuredFigure[]> {
  const workspace = await BenchWorkspace.start(TIME_SCALE, {
    users: 1,
    messagesPerUser: MESSAGES,
    filesPerUser: 1,
    seed: SEED,
  });
  try {
    const user = workspace.users[0];
    if (!user) throw new Error("the generated organisation has no active user");
    const { minuteMs } = workspace;
    const shared = quotaAwareCaller({ minuteMs });
    const store = new BackupStore();
    const spent = await workspace.spendFirstBucket(user, shared, LIMIT * CALLER_FRACTION);

    const before = workspace.charged("gmail");
    const full = meteredCaller(shared);
    const units = sampler(100, () => workspace.charged("gmail").units);
    const { value: run, busy } = await busyShare(() =>
      store.backup(user, workspace.gmailSource(user, full), full.usage),
    );
    const steady = steadyRate(units.stop(), run, minuteMs);
    const after = workspace.charged("gmail");
    const charged = { units: after.units - before.units, rejected: after.rejected - before.rejected };
    const { items, bytes } = run.result.progress;
    if (items !== workspace.generated.messages) {
      throw new Error(`the full run stored ${items} of ${workspace.generated.messages} messages`);
    }

    shared.resetStats();
    const incremental = meteredCaller(shared);
    const second = await store.backup(user, workspace.gmailSource(user, incremental), incremental.usage);
    const calls = Object.entries(shared.stats().methods)
      .map(([method, figures]) => `${method} ×${figures.calls} (${figures.units} units)`)
      .join(", ");

    return [
      {
        id: "gmail-ceiling-fraction",
        value: steady.perMinute / LIMIT,
        note:
          `time scale ${TIME_SCALE} (a quota minute = ${(minuteMs / 1000).toFixed(1)} s); ${count(items)} generated ` +
          `messages (${(bytes / 1e6).toFixed(0)} MB); the caller's first full bucket was spent just before ` +
          `(${spent} messages.get), so the run is at the limit from its start when the engine keeps up; the ` +
          `run took ${steady.runMinutes.toFixed(1)} quota minutes, steady part (without the first minute and ` +
          `the last half) ${steady.minutes.toFixed(1)} minutes at ${count(Math.round(steady.perMinute))} ` +
          `units/min of ${count(LIMIT)}; the caller aims at ${percent(CALLER_FRACTION)}; calls refused by the ` +
          `emulator: ${charged.rejected}; event loop busy ${percent(busy)} (engine and emulator share this process)`,
      },
      {
        id: "gmail-units-per-message",
        value: full.usage.units / items,
        note:
          `${count(full.usage.units)} units for ${count(items)} messages (caller, every attempt; ` +
          `${full.usage.retries} retries); the emulator charged ${count(charged.units)}`,
      },
      {
        id: "gmail-incremental-units",
        value: incremental.usage.units,
        note:
          `right after the full run, nothing changed: ${calls || "no calls"}; ` +
          `${second.result.progress.items} items stored`,
      },
    ];
  } finally {
    await workspace.stop();
  }
}
