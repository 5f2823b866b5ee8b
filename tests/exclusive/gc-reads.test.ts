/**
 * What the garbage collector reads, in the Firestore emulator's own figures (docs/firestore-emulator.md):
 * over versions that say when they ended (`endedAt`) it reads no item document (no document get beyond its
 * lock's); over versions written before the field it reads those items' documents.
 *
 * The emulator counts every request it serves, so these tests run on a Firestore emulator of their own
 * (started here on a free port, strict indexes as everywhere), where nothing else reads: the stack's
 * scheduler and workers read its Firestore all the time.
 */
import { randomBytes } from "node:crypto";
import { getFirestore } from "firebase-admin/firestore";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import { collectGarbage } from "../../functions/src/backups/retention/gc";
import { firestoreOfThisFile } from "../support/own-firestore";
import { DAY, REGION, T0, organizationWithPolicy, withoutEndings, writeItems } from "../support/gc-catalog";

jest.setTimeout(120_000);

const emulator = firestoreOfThisFile();

/** The region database's reads while `work` runs, as the emulator counted them, by RPC. */
async function emulatorReads(work: () => Promise<unknown>): Promise<Record<string, number>> {
  const reads = emulator().reads;
  if (!reads) throw new Error("This Firestore emulator does not count its reads");
  reads.reset();
  await work();
  const byRpc: Record<string, number> = {};
  for (const request of reads
    .snapshot()
    .recent.filter((entry) => entry.database.endsWith(`/region-${REGION}`))) {
    byRpc[request.rpc] = (byRpc[request.rpc] ?? 0) + request.billedReads;
  }
  return byRpc;
}

/** An organisation with 150 items of two versions under a 30-day policy and 50 of one without a policy. */
async function catalog() {
  const organizationId = `org-gc-reads-${randomBytes(5).toString("hex")}`;
  await organizationWithPolicy(getFirestore("region-ch"), organizationId, {
    retentionDays: 30,
    archiving: false,
  });
  await writeItems(organizationId, "kept", 150, [T0, T0 + DAY]);
  await writeItems(organizationId, "free", 50, [T0]);
  const keys = deriveKeys(newDataKey());
  const collect = () =>
    collectGarbage({
      scope: { organizationId, regionId: REGION },
      blobStore: new MemoryBlobStore(),
      keys: () => Promise.resolve(keys),
      now: new Date(T0 + 40 * DAY),
    });
  return { organizationId, collect };
}

const sum = (reads: Record<string, number>) => Object.values(reads).reduce((total, n) => total + n, 0);

describe("the garbage collector's reads, as the emulator counts them", () => {
  test("when every version says when it ended, then the collector reads the versions and no item document", async () => {
    const { collect } = await catalog();
    let result: unknown;

    const reads = await emulatorReads(async () => {
      result = await collect();
    });

    expect(result).toMatchObject({ outcome: "done", versionsPruned: 150, liveChunks: 200 });
    // Document gets: the lock's, in its transactions (taken, extended at the second resource, released).
    expect(reads.BatchGetDocuments ?? 0).toBeLessThanOrEqual(4);
    // 350 versions, and the few lock, policy, resource and run reads.
    expect(sum(reads)).toBeLessThanOrEqual(350 + 10);
  });

  test("when versions were written before they said when they ended, then the collector reads those items' documents", async () => {
    const { organizationId, collect } = await catalog();
    await withoutEndings(getFirestore("region-ch"), organizationId, "kept", 150);
    let result: unknown;

    const reads = await emulatorReads(async () => {
      result = await collect();
    });

    expect(result).toMatchObject({ outcome: "done", versionsPruned: 150, liveChunks: 200 });
    expect(reads.BatchGetDocuments ?? 0).toBeGreaterThanOrEqual(150);
    expect(sum(reads)).toBeGreaterThanOrEqual(350 + 150);
  });
});
