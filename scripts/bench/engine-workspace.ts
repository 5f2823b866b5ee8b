/**
 * The engine bench's Workspace: an emulator in this process holding a generated `bench` organisation
 * (quotas on, 2026 model, time-scaled), and the engine's sources built the way the worker builds them
 * (`functions/src/backups/wiring.ts`: official clients without their own retries; Gmail's page size 500).
 */
import { randomBytes } from "node:crypto";

import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";

import {
  applyPlan,
  type ApplyResult,
  type Harness,
  type PlanOptions,
  planOrganisation,
  SCOPES,
  startHarness,
  testMessage,
} from "../../emulators/workspace/src/index";
import type { GoogleCaller, GoogleRequest } from "../../functions/src/engine/google/caller";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import type { GoogleApi } from "../../functions/src/engine/google/caller";
import { unitCost } from "../../functions/src/engine/google/costs";
import { DriveSource } from "../../functions/src/engine/drive/source";
import { GmailSource, type GmailSourceOptions } from "../../functions/src/engine/gmail/source";

/** The quota-aware caller's default `targetFraction`: its buckets hold and refill this share of a limit. */
export const CALLER_FRACTION = 0.97;

/**
 * Spends a user's full first bucket (the caller's and the emulator's, both token buckets of a minute's
 * quota) at once, with `calls` cheap calls of `request` sent by `send`: a run started next is at the limit
 * from its first call, as in the middle of a long one, instead of spending a bucket on top of the limit
 * first. Answers the calls.
 */
export async function spendCalls(
  caller: GoogleCaller,
  request: GoogleRequest,
  calls: number,
  send: () => Promise<unknown>,
): Promise<number> {
  await Promise.all(Array.from({ length: calls }, () => caller.call(request, send)));
  return calls;
}

/** Real milliseconds of one quota minute at a time scale (the emulator's and the caller's clocks agree). */
export const minuteMsAt = (timeScale: number): number => 60_000 / timeScale;

/** An in-process Workspace emulator with a generated `bench` organisation. */
export class BenchWorkspace {
  private constructor(
    readonly harness: Harness,
    readonly timeScale: number,
    /** Mailbox owners that can be backed up (not suspended), in the plan's order. */
    readonly users: string[],
    readonly generated: ApplyResult,
  ) {}

  /**
   * Google's answers take the latency model's time divided by the time scale (`latency: false` for none):
   * a quota minute and the answers within it are compressed together, so as many calls are in flight as
   * at a real minute against Google. Only this process's own work is not compressed: at a time scale of
   * 30 the engine has 1/30 of the CPU time per message it would have in production.
   */
  static async start(
    timeScale: number,
    plan: Omit<PlanOptions, "profile">,
    options: { latency?: boolean } = {},
  ): Promise<BenchWorkspace> {
    const harness = await startHarness({
      quota: { enabled: true, model: "2026", timeScale },
      latency: { enabled: options.latency ?? true, scale: 1 / timeScale },
      empty: true,
    });
    try {
      const planned = planOrganisation({ profile: "bench", ...plan });
      const generated = applyPlan(harness.emulator, planned);
      const users = planned.users.filter((user) => !user.suspended).map((user) => user.email);
      return new BenchWorkspace(harness, timeScale, users, generated);
    } catch (error) {
      await harness.stop();
      throw error;
    }
  }

  get minuteMs(): number {
    return minuteMsAt(this.timeScale);
  }

  /** A user's Gmail as the worker builds it (with `labelNames`, the catalog where renames are noticed). */
  gmailSource(
    user: string,
    caller: GoogleCaller,
    labelNames?: GmailSourceOptions["labelNames"],
  ): GmailSource {
    const auth = this.harness.jwt(user, [SCOPES.gmailReadonly]);
    return new GmailSource({
      gmail: new gmail_v1.Gmail(googleClientOptions({ auth, rootUrl: `${this.harness.url}/` })),
      user,
      caller,
      ...(labelNames ? { labelNames } : {}),
    });
  }

  driveSource(user: string, caller: GoogleCaller): DriveSource {
    const auth = this.harness.jwt(user, [SCOPES.drive]);
    return new DriveSource({
      drive: new drive_v3.Drive(googleClientOptions({ auth, rootUrl: `${this.harness.url}/` })),
      resource: { kind: "user", email: user },
      caller,
      accessToken: async () => (await auth.getAccessToken()).token ?? "",
    });
  }

  /**
   * Empties `request.user`'s buckets of `request.api` at one instant, the caller's (`callerUnits` taken by
   * calls that send nothing) and the emulator's (charged until it refuses, as Google would answer): a run
   * started next is at the limit from its first call, as in the middle of a long one. Spending them with
   * real calls instead leaves what both buckets refill while those calls are answered, a burst on top of
   * the limit that a short run does not use up. Answers the emulator's charges.
   */
  async emptyBuckets(caller: GoogleCaller, request: GoogleRequest, callerUnits: number): Promise<number> {
    await spendCalls(caller, request, Math.floor(callerUnits / unitCost(request.method)), () =>
      Promise.resolve(),
    );
    let charged = 0;
    for (;;) {
      try {
        this.harness.emulator.quota.begin(request.method, request.user)();
        charged += 1;
      } catch {
        return charged;
      }
    }
  }

  /**
   * Spends what is left in the caller's Gmail bucket of `user` (`units`: its capacity), at once, with
   * `messages.get` of one message: a run started next is at the limit from its first call, as in the
   * middle of a long backup, instead of spending a full bucket on top of the limit first. Answers the calls.
   */
  async spendFirstBucket(user: string, caller: GoogleCaller, units: number): Promise<number> {
    const auth = this.harness.jwt(user, [SCOPES.gmailReadonly]);
    const gmail = new gmail_v1.Gmail(googleClientOptions({ auth, rootUrl: `${this.harness.url}/` }));
    const request = { api: "gmail", user, idempotent: true } as const;
    const list = { ...request, method: "gmail.users.messages.list" };
    const listed = await caller.call(list, () => gmail.users.messages.list({ userId: "me", maxResults: 1 }));
    const id = listed.data.messages?.[0]?.id;
    if (!id) throw new Error("the mailbox is empty");
    const get = { ...request, method: "gmail.users.messages.get" };
    const calls = Math.ceil((units - unitCost(list.method)) / unitCost(get.method));
    return spendCalls(caller, get, calls, () =>
      gmail.users.messages.get({ userId: "me", id, format: "minimal" }),
    );
  }

  /**
   * Adds `sizes.length` large messages (a PDF-like attachment each) to `user`'s mailbox, their dates spread
   * evenly over the mailbox's, so that a full backup meets them all along the run. Answers their bytes.
   */
  addLargeMessages(user: string, sizes: number[]): number {
    const userId = this.harness.emulator.directory.user(user)?.id;
    if (!userId) throw new Error(`no user ${user}`);
    const dates = this.harness.emulator.gmail.messageDates(userId);
    let bytes = 0;
    sizes.forEach((size, index) => {
      const date = dates[Math.floor(((index + 0.5) / sizes.length) * (dates.length - 1))] ?? Date.now();
      const raw = testMessage({
        subject: `Large attachment ${index + 1}`,
        to: user,
        date: new Date(date),
        messageId: `large-${index + 1}@bench.test`,
        attachments: [
          { filename: `scan-${index + 1}.pdf`, contentType: "application/pdf", data: randomBytes(size) },
        ],
      });
      this.harness.emulator.gmail.insertMessage(userId, raw, { internalDate: date });
      bytes += raw.length;
    });
    return bytes;
  }

  /**
   * What the emulator charged (Google's view) for an API: units, calls and refused calls. People's contact
   * writes are a metric of their own (`peopleWrites`).
   */
  charged(api: GoogleApi | "peopleWrites"): { units: number; calls: number; rejected: number } {
    return this.harness.emulator.quota.report().project[api] ?? { units: 0, calls: 0, rejected: 0 };
  }

  stop(): Promise<void> {
    return this.harness.stop();
  }
}
