/**
 * A mailbox's items in flight follow what the run sees: more while Google's answers are slow and the
 * user's quota is not spent, fewer when the quota is what holds the run back. Against the Workspace
 * emulator in-process with its latency model set for `messages.get`, the product's quota caller and the
 * runner; what is in flight is counted where the runner fetches.
 */
import { startHarness, type Harness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { newDataKey } from "../../functions/src/engine/format/keys";
import { meteredCaller } from "../../functions/src/engine/google/caller";
import { quotaAwareCaller, type QuotaCallerOptions } from "../../functions/src/engine/google/quota-caller";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import {
  ITEM_CONCURRENCY,
  MAX_ITEM_CONCURRENCY,
  runBackup,
} from "../../functions/src/engine/runner/run-backup";
import type { GmailSource } from "../../functions/src/engine/gmail/source";
import type { FetchedItem, ItemRef, Source } from "../../functions/src/engine/sources/source";
import { Mailboxes } from "../support/backup";

const MESSAGES = 150;

/**
 * Each test has its own emulator: the first needs slow answers (the run should then keep more in flight),
 * the second fast ones, so that the quota is what an item waits for even when the machine is busy (with
 * slow answers on two loaded cores an item's own time grew until its wait for quota was too small a share
 * to lower the limit).
 */
function withMessagesGetTaking(medianMs: number): () => Mailboxes {
  let harness: Harness;
  let mail: Mailboxes;
  beforeAll(async () => {
    harness = await startHarness({
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
  return () => mail;
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

async function backUp(mail: Mailboxes, callerOptions: QuotaCallerOptions) {
  const user = await mail.newUser("adaptive");
  for (let index = 0; index < MESSAGES; index += 1) await mail.addMessage(user, `Message ${index}`);
  const caller = meteredCaller(quotaAwareCaller(callerOptions));
  const { source, inFlightAtStart } = counting(mail.gmailSource(user, caller, MESSAGES));
  const catalog = new MemoryCatalog();
  catalog.createRun({ runId: "run-1", resourceId: user, cursor: null });
  const result = await runBackup({
    run: { runId: "run-1", resourceId: user },
    source,
    blobStore: new MemoryBlobStore(),
    catalog,
    dataKey: newDataKey(),
    organizationId: "org-adaptive",
    usage: caller.usage,
  });
  expect(result).toMatchObject({ outcome: "succeeded", progress: { items: MESSAGES } });
  return { inFlightAtStart, usage: caller.usage };
}

describe("with Google's answers slow (60 ms a message)", () => {
  const mail = withMessagesGetTaking(60);

  test("when the user's quota is far from spent, then the run keeps more messages in flight, up to the most the caller allows", async () => {
    // The quota caller's minute is a real minute: its bucket starts full, with room for far more than the
    // 150 messages, so no call waits for quota however slowly the machine runs.
    const { inFlightAtStart, usage } = await backUp(mail(), { minuteMs: 60_000 });

    expect(usage.quotaWaitMs).toBeLessThan(50);
    expect(Math.max(...inFlightAtStart.slice(0, ITEM_CONCURRENCY))).toBe(ITEM_CONCURRENCY);
    expect(Math.max(...inFlightAtStart)).toBe(MAX_ITEM_CONCURRENCY);
  }, 30_000);
});

describe("with Google's answers fast (2 ms a message)", () => {
  const mail = withMessagesGetTaking(2);

  test("when the user's quota is what holds the run back, then the run keeps fewer messages in flight than it began with", async () => {
    // 400 units a second: about 19 messages.get a second, while one message takes a few milliseconds of
    // its own. The bucket starts full (19 messages), so the run may first rise, then comes down once its
    // items spend most of their time waiting for quota.
    const { inFlightAtStart, usage } = await backUp(mail(), {
      minuteMs: 1_000,
      limits: { gmail: { perUserPerMinute: 400 } },
    });

    expect(usage.quotaWaitMs).toBeGreaterThan(1_000);
    expect(Math.max(...inFlightAtStart.slice(0, ITEM_CONCURRENCY))).toBe(ITEM_CONCURRENCY);
    expect(Math.max(...inFlightAtStart.slice(-40))).toBeLessThan(ITEM_CONCURRENCY);
  }, 30_000);
});
