/**
 * The backups module's documents as its repositories write them decode, and read back as written: runs
 * from their request to their end (and the resource's status they leave), data keys, daily activity, the
 * GC lock and verification runs. A run that does not decode is left out of the lists and fails a read.
 */
import { randomBytes } from "node:crypto";
import { logger } from "firebase-functions";
import { regionDb } from "../lib/firebase";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import { defaultKeyWrapper, newDataKey, wrapDataKey } from "../engine/format/keys";
import { applySync, listResources } from "../resources/repo";
import { takeLease, saveCheckpoint, finishRun } from "./catalog/runs-repo";
import { addRunToDay, readDays, recordDayStorage, resourceRuns } from "./history-repo";
import {
  activeRuns,
  dataKeyRecords,
  makeActiveDataKey,
  readBackupResource,
  readRun,
  recordRunEnd,
  requestRun,
  seedRun,
  setRunResumesAt,
} from "./repo";
import { lastCollectionAt, releaseLock, takeLock, unfinishedRuns } from "./retention/repo";
import { readVerifyResource, recordResourceIntegrity, trackResources } from "./verify/repo";
import { finishVerifyRun, readVerifyRun, requestVerifyRun, takeVerifyLease } from "./verify/runs-repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const NOW = new Date("2026-03-01T10:00:00.000Z");
const LATER = "2026-03-01T10:05:00.000Z";

beforeAll(async () => {
  await applySync(
    scope,
    [{ resourceId: "user-1", type: "email", name: "Ada", email: "ada@example.test", status: "active" }],
    NOW.toISOString(),
  );
});

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test("when a run is requested, seeded, leased, checkpointed and ended, then it reads back as written at every step", async () => {
  const { runId, created } = await requestRun(scope, "user-1", "backup-now", "admin@example.test", NOW);
  expect(created).toBe(true);
  expect(await readRun(scope, runId)).toEqual({
    runId,
    resourceId: "user-1",
    trigger: "backup-now",
    state: "pending",
    requestedAt: NOW.toISOString(),
    requestedBy: "admin@example.test",
    cursor: null,
    progress: { items: 0, bytes: 0, storedBytes: 0 },
    unitsUsed: 0,
    itemErrors: [],
    itemErrorCount: 0,
  });
  expect(await seedRun(scope, runId, "cursor-0")).toBe(true);
  await setRunResumesAt(scope, runId, { resumesAt: LATER, pacedAt: NOW.toISOString() });
  expect(await takeLease(scope, runId, "worker-1", LATER, NOW.toISOString())).toBe("taken");
  await saveCheckpoint(scope, runId, "worker-1", {
    cursor: "cursor-1",
    progress: { items: 2, bytes: 20, storedBytes: 10 },
    unitsUsed: 7,
    newItemErrors: [{ itemKey: "m9", reason: "http-500", kind: "gmail-message" }],
    listing: { kind: "gmail-message", startedAt: NOW.toISOString() },
    services: { gmail: { skipped: { "http-500": 1 }, notes: {} } },
    partial: null,
    expected: {
      items: 4,
      bytes: null,
      stream: "gmail",
      since: NOW.toISOString(),
      from: { items: 0, bytes: 0 },
    },
  });
  expect((await activeRuns(scope)).map((run) => run.runId)).toEqual([runId]);
  expect(await unfinishedRuns(scope)).toHaveLength(1);
  await finishRun(scope, runId, "worker-1", { state: "failed", failureReason: "google-api-error" }, LATER);
  const ended = await readRun(scope, runId);
  expect(ended).toMatchObject({
    state: "failed",
    failureReason: "google-api-error",
    lease: null,
    cursor: "cursor-1",
    resumesAt: LATER,
    itemErrors: [{ itemKey: "m9", reason: "http-500", kind: "gmail-message" }],
    listing: { kind: "gmail-message", startedAt: NOW.toISOString() },
    partial: null,
    expected: { items: 4, bytes: null, stream: "gmail" },
  });
  await recordRunEnd(scope, ended!);
  expect(await readBackupResource(scope, "user-1")).toMatchObject({
    backupCursor: "cursor-1",
    lastRunId: runId,
  });
  const [resource] = await listResources(scope);
  expect(resource).toMatchObject({
    lastBackupFailure: "google-api-error",
    services: { gmail: { state: "failed", failureReason: "google-api-error", skipped: { "http-500": 1 } } },
  });
  expect(await resourceRuns(scope, "user-1", 10, undefined)).toHaveLength(1);
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when data keys, daily activity, the GC lock and a verification are written, then each reads back as written", async () => {
  const wrapper = defaultKeyWrapper(randomBytes(32));
  const record = await wrapDataKey(wrapper, {
    organizationId: "org-1",
    secretId: "default",
    dataKey: newDataKey(),
    now: NOW,
  });
  expect(await makeActiveDataKey(scope, record, NOW)).toEqual(record);
  expect(await dataKeyRecords(scope)).toEqual([record]);

  await addRunToDay(scope, { runId: "run-1", day: "2026-03-01", outcome: "ok", items: 3, bytes: 30 });
  await recordDayStorage(scope, "2026-03-02", { gmail: 100, drive: 5, calendar: 2, contacts: 1 }, LATER);
  expect(await readDays(scope, "2026-03-01", "2026-03-02")).toEqual({
    days: [
      { date: "2026-03-01", runs: { ok: 1, partial: 0, failed: 0 }, items: 3, bytes: 30, storage: null },
      {
        date: "2026-03-02",
        runs: { ok: 0, partial: 0, failed: 0 },
        items: 0,
        bytes: 0,
        storage: { gmail: 100, drive: 5, calendar: 2, contacts: 1 },
        storageAt: LATER,
      },
    ],
    storageBefore: null,
  });

  expect(await takeLock(scope, "gc-1", NOW)).toBe(true);
  await releaseLock(scope, "gc-1", { lastRunAt: LATER, lastResult: { versionsPruned: 0 } });
  expect(await lastCollectionAt(scope)).toBe(LATER);

  const { run } = await requestVerifyRun(scope, {
    trigger: "manual",
    requestedBy: "admin@example.test",
    resourceIds: ["user-1"],
    now: NOW,
  });
  expect(await readVerifyRun(scope, run.runId)).toEqual(run);
  expect(await takeVerifyLease(scope, run.runId, "verifier", LATER, NOW.toISOString())).toBe("taken");
  const progress = { resourcesDone: 1, checkedItems: 2, damagedItems: 0, objectsRead: 4, bytesRead: 40 };
  await finishVerifyRun(scope, run.runId, "verifier", { state: "succeeded" }, progress, LATER);
  expect(await readVerifyRun(scope, run.runId)).toMatchObject({ state: "succeeded", progress, lease: null });
  await trackResources(scope, ["user-1"], NOW.toISOString());
  const integrity = {
    state: "ok" as const,
    checkedItems: 2,
    damagedItems: 0,
    verifiedAt: LATER,
    damaged: [],
  };
  await recordResourceIntegrity(scope, "user-1", integrity);
  expect(await readVerifyResource(scope, "user-1")).toMatchObject({
    trackedSince: NOW.toISOString(),
    integrity,
  });
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when a run does not decode, then the lists leave it out and reading it fails with its kind and path", async () => {
  const runs = regionDb("region-ch").collection("organizations").doc("org-1").collection("backupRuns");
  await runs.doc("broken").set({ resourceId: "user-1", state: "sleeping" });
  expect((await activeRuns(scope)).map((run) => run.runId)).not.toContain("broken");
  await expect(readRun(scope, "broken")).rejects.toMatchObject({
    kind: "backup run",
    path: "organizations/org-1/backupRuns/broken",
    fields: ["state"],
  });
  await runs.doc("broken").delete();
});
