/**
 * A mailbox's items in flight follow what the run sees: more while Google's answers are slow and the
 * user's quota is not spent, fewer when the quota is what holds the run back. Against the Workspace
 * emulator in-process with its latency model set for `messages.get`, the product's quota caller and the
 * runner; what is in flight is counted where the runner fetches. One `ManualClock` is the emulator's, the
 * caller's and the run's: Google's answer times, the quota waits and the items' times are all on it, and
 * the test moves it, so the run's pace is the same on a busy machine as on a quiet one.
 */
import { ManualClock, startHarness, type Harness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { newDataKey } from "../../functions/src/engine/format/keys";
import { emptyCounts } from "../../functions/src/engine/google/caller";
import {
  meteredCaller,
  quotaAwareCaller,
  type QuotaCallerOptions,
} from "../../functions/src/engine/google/quota-caller";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import {
  ITEM_CONCURRENCY,
  MAX_ITEM_CONCURRENCY,
  runBackup,
} from "../../functions/src/engine/runner/run-backup";
import type { GmailSource } from "../../functions/src/engine/gmail/source";
import type { ChangeBatch, FetchedItem, ItemRef, Source } from "../../functions/src/engine/sources/source";
import { Mailboxes } from "../support/backup";

const MESSAGES = 100;

/**
 * Each test has its own emulator and clock: the first needs slow answers (the run should then keep more in
 * flight), the second fast ones, so that the quota is what an item waits for.
 */
function withMessagesGetTaking(medianMs: number): () => { mail: Mailboxes; clock: ManualClock } {
  let harness: Harness;
  let mail: Mailboxes;
  const clock = new ManualClock();
  beforeAll(async () => {
    harness = await startHarness({
      clock,
      quota: { enabled: false },
      latency: {
        enabled: true,
        methods: {
          "*": { medianMs: 1, sigma: 0.01 },
          "gmail.*": { medianMs: 1, sigma: 0.01 },
          "gmail.users.messages.get": { medianMs, sigma: 0.01 },
        },
      },
    });
    mail = new Mailboxes(harness);
  });
  afterAll(async () => {
    await harness.stop();
  });
  return () => ({ mail, clock });
}

/** The source, counting the items in flight whenever one starts. */
function counting(inner: GmailSource): { source: Source; inFlightAtStart: number[] } {
  const inFlightAtStart: number[] = [];
  let inFlight = 0;
  const source = Object.create(inner) as GmailSource;
  source.fetch = async (ref: ItemRef): Promise<FetchedItem> => {
    inFlight += 1;
    inFlightAtStart.push(inFlight);
    try {
      return await inner.fetch(ref);
    } finally {
      inFlight -= 1;
    }
  };
  return { source, inFlightAtStart };
}

async function backUp(
  { mail, clock }: { mail: Mailboxes; clock: ManualClock },
  callerOptions: QuotaCallerOptions,
) {
  const user = await mail.newUser("adaptive");
  for (let index = 0; index < MESSAGES; index += 1) await mail.addMessage(user, `Message ${index}`);
  const caller = meteredCaller(quotaAwareCaller({ ...callerOptions, clock }));
  const { source, inFlightAtStart } = counting(mail.gmailSource(user, caller, MESSAGES));
  const catalog = new MemoryCatalog();
  catalog.createRun({ runId: "run-1", resourceId: user, cursor: null });
  const result = await clock.run(
    runBackup({
      run: { runId: "run-1", resourceId: user },
      source,
      blobStore: new MemoryBlobStore(),
      catalog,
      dataKey: newDataKey(),
      organizationId: "org-adaptive",
      usage: caller.usage,
      now: () => clock.now(),
    }),
  );
  expect(result).toMatchObject({ outcome: "succeeded", progress: { items: MESSAGES } });
  return { inFlightAtStart, usage: caller.usage };
}

describe("with Google's answers slow (60 ms a message)", () => {
  const mail = withMessagesGetTaking(60);

  test("when the user's quota is far from spent, then the run keeps more messages in flight, up to the most the caller allows", async () => {
    // The user's bucket starts full, with room for far more than the 150 messages: no call waits for quota.
    const { inFlightAtStart, usage } = await backUp(mail(), {});

    expect(usage.quotaWaitMs).toBe(0);
    expect(Math.max(...inFlightAtStart.slice(0, ITEM_CONCURRENCY))).toBe(ITEM_CONCURRENCY);
    expect(Math.max(...inFlightAtStart)).toBe(MAX_ITEM_CONCURRENCY);
  });
});

describe("with Google's answers fast (2 ms a message)", () => {
  const mail = withMessagesGetTaking(2);

  test("when the user's quota is what holds the run back, then the run keeps fewer messages in flight than it began with", async () => {
    // 400 units a minute: about 19 messages.get a minute, while one message takes 2 ms of its own. The
    // bucket starts full (19 messages), so the run may first rise, then comes down once its items spend
    // most of their time waiting for quota.
    const { inFlightAtStart, usage } = await backUp(mail(), { limits: { gmail: { perUserPerMinute: 400 } } });

    expect(usage.quotaWaitMs).toBeGreaterThan(60_000);
    expect(Math.max(...inFlightAtStart.slice(0, ITEM_CONCURRENCY))).toBe(ITEM_CONCURRENCY);
    expect(Math.max(...inFlightAtStart.slice(-40))).toBeLessThan(ITEM_CONCURRENCY);
  });
});

describe("items' time on the run's clock", () => {
  /**
   * A mailbox whose every message waits 2 ms for quota (counted in the run's usage, as the quota caller
   * counts it) and 98 ms for Google's answer, both on the clock: 2 % of an item's time is quota, so the run
   * raises its items in flight. Measured in real time instead, an item would take a fraction of a
   * millisecond and its 2 ms of counted wait would look like most of it.
   */
  test("when items spend 2 % of their time on the run's clock waiting for quota, then the run raises its items in flight to the most, whatever real time they take", async () => {
    const clock = new ManualClock();
    const usage = emptyCounts();
    const keys = Array.from({ length: 120 }, (_, index) => `m${index}`);
    let inFlight = 0;
    const inFlightAtStart: number[] = [];
    const source: Source = {
      kind: "gmail",
      async *listChanges(): AsyncIterable<ChangeBatch> {
        yield {
          changes: keys.map((itemKey) => ({ type: "upsert" as const, item: { itemKey } })),
          nextCursor: "after",
          fullListing: true,
          done: true,
        };
      },
      async fetch(ref: ItemRef): Promise<FetchedItem> {
        inFlight += 1;
        inFlightAtStart.push(inFlight);
        await clock.sleep(2);
        usage.quotaWaitMs += 2;
        await clock.sleep(98);
        inFlight -= 1;
        const raw = Buffer.from(`Subject: ${ref.itemKey}\r\n\r\nBody of ${ref.itemKey}\r\n`);
        return {
          itemKey: ref.itemKey,
          versionKey: `v-${ref.itemKey}`,
          contentKey: `c-${ref.itemKey}`,
          content: (async function* () {
            yield raw;
          })(),
          size: raw.length,
          metadata: { labels: [], threadId: ref.itemKey, internalDate: 0 },
          search: {
            kind: "mail",
            subject: ref.itemKey,
            fromName: "",
            fromEmail: "",
            to: [],
            date: new Date(0).toISOString(),
            labels: [],
            size: raw.length,
            keywords: [],
          },
        };
      },
    };
    const catalog = new MemoryCatalog();
    catalog.createRun({ runId: "run-1", resourceId: "clock-mailbox", cursor: null });
    const result = await clock.run(
      runBackup({
        run: { runId: "run-1", resourceId: "clock-mailbox" },
        source,
        blobStore: new MemoryBlobStore(),
        catalog,
        dataKey: newDataKey(),
        organizationId: "org-adaptive",
        usage,
        now: () => clock.now(),
      }),
    );
    expect(result).toMatchObject({ outcome: "succeeded", progress: { items: keys.length } });
    expect(Math.max(...inFlightAtStart.slice(0, ITEM_CONCURRENCY))).toBe(ITEM_CONCURRENCY);
    expect(Math.max(...inFlightAtStart)).toBe(MAX_ITEM_CONCURRENCY);
  });
});
