/**
 * Section "restore": messages of one generated mailbox (`bench` profile, about 47 KB a message: the bytes a
 * backup holds) restored into another mailbox with the production `GmailRestorer` (`labelIds`, then
 * `import`, as the recovery worker does for each message, into a "separate folder" label), through one
 * `quotaAwareCaller`, against the Workspace emulator with quotas on (2026 model: `messages.import` costs
 * 25 units, 6,000 units a minute per user, so at most 240 imports a quota minute).
 *
 * Two runs into two mailboxes, each with a fresh caller: `RESTORE_CONCURRENCY` imports in flight at once,
 * then one at a time. Throughput is measured as the engine bench measures backups (`steadyRate`): the
 * units the emulator charged, sampled every 100 ms, per quota minute without the run's first minute and
 * last half minute, as a fraction of the per-user limit; the caller's first full bucket is spent just before
 * each run (`spendFirstBucket`), and the labels are created before it, as the first messages of a real
 * recovery would. The caller aims at 97 % of the limit, so 0.970 is the most this can show.
 *
 * Time scale 10 (a quota minute lasts 6 s), under the emulator's latency and bandwidth model compressed by
 * the same factor (`messages.import` about 450 ms plus 150 ms per MiB at a real minute, uploads at
 * 8 MiB/s), so as many imports are in flight as against Google. One import at a time reaches the limit
 * only while an import takes less than 1/233 of a quota minute (258 ms at a real minute): with Google's
 * answer times it cannot (Little's law: 3.9 imports a second × about 0.5 s each needs two or more in
 * flight), which is why the recovery worker restores several items at once; the sequential figure shows
 * the difference.
 */
import { gmail_v1 } from "@googleapis/gmail";

import { SCOPES } from "../../emulators/workspace/src/index";
import { GOOGLE_QUOTA_LIMITS } from "../../functions/src/engine/google/costs";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import { quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import type { MailLabel } from "../../functions/src/engine/sources/source";
import { GmailRestorer } from "../../functions/src/engine/gmail/restorer";
import type { MeasuredFigure } from "./types";
import { busyShare, sampler, steadyRate } from "./engine-store";
import { BenchWorkspace } from "./engine-workspace";
import { RESTORE_CONCURRENCY } from "./recovery-restore-settings";

const TIME_SCALE = 10;
/** About 4.7 quota minutes of imports at the caller's 97 %. */
const MESSAGES = 1_100;
const SEED = 7_001;
const LIMIT = GOOGLE_QUOTA_LIMITS.gmail.perUserPerMinute;
const CALLER_FRACTION = 0.97;
const FOLDER = "Recovered 2026-11-22";
/** The scopes the recovery task delegates (functions/src/recovery/task.ts). */
const RESTORE_SCOPES = [SCOPES.gmailInsert, SCOPES.gmailLabels, SCOPES.gmailModify];

interface BackedUpMessage {
  raw: Buffer;
  labels: MailLabel[];
}

const count = (value: number): string => value.toLocaleString("en-US");

/** A mailbox's messages and their labels (id and name), as a backup holds them. */
function backedUp(workspace: BenchWorkspace, email: string): BackedUpMessage[] {
  const { emulator } = workspace.harness;
  const userId = emulator.directory.user(email)?.id;
  const mailbox = emulator.gmail.snapshot().mailboxes?.find((entry) => entry.userId === userId);
  if (!userId || !mailbox) throw new Error(`no mailbox for ${email}`);
  const names = new Map(emulator.gmail.labels(userId).map((label) => [label.id, label.name]));
  return mailbox.messages.map((message) => ({
    raw: Buffer.from(message.raw, "base64"),
    labels: message.labelIds.map((id) => ({ id, name: names.get(id) ?? id })),
  }));
}

interface RestoreRun {
  fraction: number;
  note: string;
}

async function restoreRun(
  workspace: BenchWorkspace,
  target: string,
  messages: BackedUpMessage[],
  concurrency: number,
): Promise<RestoreRun> {
  const { minuteMs } = workspace;
  const caller = quotaAwareCaller({ minuteMs });
  const gmail = new gmail_v1.Gmail(
    googleClientOptions({
      auth: workspace.harness.jwt(target, RESTORE_SCOPES),
      rootUrl: `${workspace.harness.url}/`,
    }),
  );
  const restorer = new GmailRestorer(gmail, target, caller);
  // The labels first (labels.list, labels.create): the recovery's first messages create them.
  const allLabels = new Map(messages.flatMap((message) => message.labels).map((label) => [label.id, label]));
  await restorer.labelIds([...allLabels.values()], FOLDER);
  const spent = await workspace.spendFirstBucket(target, caller, LIMIT * CALLER_FRACTION);
  caller.resetStats();

  const before = workspace.charged("gmail");
  const units = sampler(100, () => workspace.charged("gmail").units);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < messages.length; index = next++) {
      const message = messages[index] as BackedUpMessage;
      await restorer.import(message.raw, await restorer.labelIds(message.labels, FOLDER));
    }
  };
  const startedAt = performance.now();
  const { busy } = await busyShare(() => Promise.all(Array.from({ length: concurrency }, worker)));
  const finishedAt = performance.now();
  const steady = steadyRate(units.stop(), { startedAt, finishedAt }, minuteMs);
  const after = workspace.charged("gmail");
  const stats = caller.stats().methods["gmail.users.messages.import"];
  if (stats?.calls !== messages.length || stats.failures > 0) {
    throw new Error(
      `imported ${stats?.calls ?? 0} of ${messages.length} messages (${stats?.failures} failed)`,
    );
  }
  const perImportMs = (finishedAt - startedAt) / messages.length;
  return {
    fraction: steady.perMinute / LIMIT,
    note:
      `${concurrency} import${concurrency === 1 ? "" : "s"} in flight; time scale ${TIME_SCALE} (a quota minute = ` +
      `${(minuteMs / 1000).toFixed(0)} s); ${count(messages.length)} backed-up messages ` +
      `(${(messages.reduce((sum, m) => sum + m.raw.length, 0) / 1e6).toFixed(0)} MB) into a folder label; ` +
      `first full bucket spent just before (${spent} messages.get); run ${steady.runMinutes.toFixed(1)} quota ` +
      `minutes, steady part ${steady.minutes.toFixed(1)} minutes at ${count(Math.round(steady.perMinute))} ` +
      `units/min of ${count(LIMIT)}; ${perImportMs.toFixed(1)} ms per message on average; the caller aims ` +
      `at 97 %; retries ${stats.retries}; calls refused by the emulator: ${after.rejected - before.rejected}; ` +
      `event loop busy ${(busy * 100).toFixed(0)} % (restorer and emulator share this process)`,
  };
}

export async function measureRestore(): Promise<MeasuredFigure[]> {
  const workspace = await BenchWorkspace.start(TIME_SCALE, {
    users: 5,
    messagesPerUser: MESSAGES,
    filesPerUser: 1,
    seed: SEED,
  });
  try {
    const [source, concurrentTarget, sequentialTarget] = workspace.users;
    if (!source || !concurrentTarget || !sequentialTarget) {
      throw new Error(`only ${workspace.users.length} active users were generated (3 needed)`);
    }
    const messages = backedUp(workspace, source);
    const concurrent = await restoreRun(workspace, concurrentTarget, messages, RESTORE_CONCURRENCY);
    const sequential = await restoreRun(workspace, sequentialTarget, messages, 1);
    return [
      { id: "gmail-restore-ceiling-fraction", value: concurrent.fraction, note: concurrent.note },
      { id: "gmail-restore-ceiling-fraction-sequential", value: sequential.fraction, note: sequential.note },
    ];
  } finally {
    await workspace.stop();
  }
}
