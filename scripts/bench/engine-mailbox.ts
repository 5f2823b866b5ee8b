/**
 * Section "mailbox": one generated mailbox of 10,000 messages (`bench` profile, about 47 KB a message) and
 * 40 large ones (2 to 30 MB, a PDF-like attachment each, spread over the mailbox's dates), backed up in full
 * at Gmail's page size (500) under the emulator's latency and bandwidth model, then again incrementally with
 * nothing changed.
 *
 * - Throughput: the units the emulator charged (Google's view), sampled every 100 ms, per quota minute over
 *   the run's steady part (see `steadyRate`), as a fraction of the per-user limit (6,000 units a minute).
 *   The caller's first full bucket is spent before the run starts (see `spendFirstBucket`). The caller
 *   aims at 97 % of the limit, so 0.97 is the most this can show.
 * - Latency: every answer takes the model's time (`messages.get` about 70 ms plus 60 ms per MiB, bodies at
 *   8 MiB/s; see `emulators/workspace/src/latency.ts`), compressed by the time scale with the quota minute,
 *   so as many calls are in flight as at a real minute. The runner adapts how many messages it keeps in
 *   flight (`AdaptiveConcurrency`); the note gives how many it ended with.
 * - Units per message and the incremental run's units: what the run's metered caller counted (every
 *   attempt sent), checked against what the emulator charged.
 * - Time scale 10: a quota minute lasts 6 s, and the full run about 3.5 minutes. Only this process's own
 *   work is not compressed (the engine has a tenth of the CPU time per message it would have against
 *   Google), which makes the figure harsher than production's; the note gives the event loop's busy share.
 *   At time scale 30 this 2-core machine measured 0.943 with the event loop half busy: the engine and the
 *   emulator then share one thread at 145 messages a second.
 */
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { GOOGLE_QUOTA_LIMITS } from "../../functions/src/engine/google/costs";
import type { GmailSource } from "../../functions/src/engine/gmail/source";
import type { MeasuredFigure } from "./types";
import { BackupStore, busyShare, sampler, steadyRate } from "./engine-store";
import { BenchWorkspace, CALLER_FRACTION } from "./engine-workspace";

const TIME_SCALE = 10;
const MESSAGES = 10_000;
const SEED = 6_001;
const LIMIT = GOOGLE_QUOTA_LIMITS.gmail.perUserPerMinute;
const MB = 1_000_000;
/** The large messages' attachments: one of 30 MB, 4 of 10 MB, 15 of 5 MB, 20 of 2 MB. */
const LARGE_MESSAGES = [
  30,
  ...Array<number>(4).fill(10),
  ...Array<number>(15).fill(5),
  ...Array<number>(20).fill(2),
].map((size) => size * MB);

/**
 * The source, counting the messages in flight each time one starts: the run's adaptive concurrency at
 * work (the first 500 starts, its first batch, and the last 500).
 */
function inFlightCounter(inner: GmailSource): { source: GmailSource; summary(): string } {
  const starts: number[] = [];
  let now = 0;
  const source = Object.create(inner) as GmailSource;
  source.fetch = async (ref) => {
    now += 1;
    starts.push(now);
    try {
      return await inner.fetch(ref);
    } finally {
      now -= 1;
    }
  };
  const mean = (values: number[]): string =>
    (values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)).toFixed(1);
  return {
    source,
    summary: () =>
      `mean ${mean(starts.slice(0, 500))} over the first 500 messages, ${mean(starts.slice(-500))} over the ` +
      `last 500, at most ${Math.max(0, ...starts)}`,
  };
}

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
    const largeBytes = workspace.addLargeMessages(user, LARGE_MESSAGES);
    const expected = workspace.generated.messages + LARGE_MESSAGES.length;
    const { minuteMs } = workspace;
    const shared = quotaAwareCaller({ minuteMs });
    const store = new BackupStore();
    const spent = await workspace.spendFirstBucket(user, shared, LIMIT * CALLER_FRACTION);

    const before = workspace.charged("gmail");
    const full = meteredCaller(shared);
    const units = sampler(100, () => workspace.charged("gmail").units);
    // As the worker builds it: label renames are noticed in the catalog (labels.list, 1 unit a run).
    const labelNames = { catalog: store.catalog, resourceId: user };
    const inFlight = inFlightCounter(workspace.gmailSource(user, full, labelNames));
    const { value: run, busy } = await busyShare(() => store.backup(user, inFlight.source, full.usage));
    const steady = steadyRate(units.stop(), run, minuteMs);
    const after = workspace.charged("gmail");
    const charged = { units: after.units - before.units, rejected: after.rejected - before.rejected };
    const { items, bytes } = run.result.progress;
    if (items !== expected) throw new Error(`the full run stored ${items} of ${expected} messages`);

    shared.resetStats();
    const incremental = meteredCaller(shared);
    const second = await store.backup(
      user,
      workspace.gmailSource(user, incremental, labelNames),
      incremental.usage,
    );
    const calls = Object.entries(shared.stats().methods)
      .map(([method, figures]) => `${method} ×${figures.calls} (${figures.units} units)`)
      .join(", ");

    return [
      {
        id: "gmail-ceiling-fraction",
        value: steady.perMinute / LIMIT,
        note:
          `time scale ${TIME_SCALE} (a quota minute = ${(minuteMs / 1000).toFixed(1)} s); ${count(items)} generated ` +
          `messages (${(bytes / 1e6).toFixed(0)} MB, of which ${LARGE_MESSAGES.length} large ones ` +
          `${(largeBytes / 1e6).toFixed(0)} MB); latency model on (scaled 1/${TIME_SCALE}); messages in flight: ` +
          `${inFlight.summary()}; calls waited ${(full.usage.quotaWaitMs / 1000).toFixed(1)} s for quota in all; ` +
          `the caller's first full bucket was spent just before ` +
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
