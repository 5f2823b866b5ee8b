/**
 * A delivery spends at most its share of the project's daily Google budget: the worker gives the runner
 * a stop condition on the run's units of that API, and the run checkpoints and goes on in a later
 * delivery, backing up nothing twice. Against the Workspace emulator in-process with the product's caller.
 */
import { startHarness, type Harness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { newDataKey } from "../../functions/src/engine/format/keys";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup, type RunBackupResult } from "../../functions/src/engine/runner/run-backup";
import { Mailboxes } from "../support/backup";

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

test("when a delivery's Gmail share is spent, then the run stops at a checkpoint and the next deliveries finish it without fetching a message twice", async () => {
  const user = await mail.newUser("share");
  for (let index = 0; index < 24; index += 1) await mail.addMessage(user, `Message ${index}`);
  const shared = quotaAwareCaller();
  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  catalog.createRun({ runId: "run-1", resourceId: user, cursor: null });
  const SHARE = 100; // units: a listing and a few messages.get (20 units each)

  const deliveries: { result: RunBackupResult; gmailUnits: number }[] = [];
  for (let delivery = 0; delivery < 20; delivery += 1) {
    const metered = meteredCaller(shared);
    const result = await runBackup({
      run: { runId: "run-1", resourceId: user },
      source: mail.gmailSource(user, metered, 3),
      blobStore,
      catalog,
      dataKey,
      organizationId: "org-share",
      usage: metered.usage,
      stopWhen: () => metered.usageOf("gmail").units >= SHARE,
    });
    deliveries.push({ result, gmailUnits: metered.usageOf("gmail").units });
    if (result.outcome !== "continue") break;
  }

  expect(deliveries.at(-1)?.result).toMatchObject({ outcome: "succeeded", progress: { items: 24 } });
  expect(deliveries.length).toBeGreaterThanOrEqual(3);
  for (const { result } of deliveries.slice(0, -1)) expect(result.outcome).toBe("continue");
  // A delivery overshoots its share by at most the messages in flight when it was spent (and a listing).
  for (const { gmailUnits } of deliveries) expect(gmailUnits).toBeLessThanOrEqual(SHARE + 8 * 20 + 20);
  expect(shared.stats().methods["gmail.users.messages.get"]?.calls).toBe(24);
  expect(catalog.items(user)).toHaveLength(24);
});
