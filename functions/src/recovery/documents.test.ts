/**
 * Recoveries, their ledger and their locks as the recovery repository writes them decode and read back
 * as written; a recovery that does not decode is left out of a resource's list and fails a read, a ledger
 * entry that does not decode is left out of the report.
 */
import { logger } from "firebase-functions";
import { regionDb } from "../lib/firebase";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import {
  activeRecoveries,
  createRecovery,
  finishRecovery,
  ledgerEntries,
  readLedger,
  readRecovery,
  recoveriesOfResource,
  saveRecoveryProgress,
  takeRecoveryLease,
  writeLedger,
  type LedgerEntry,
} from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const NOW = new Date("2026-03-01T10:00:00.000Z");
const recoveries = () =>
  regionDb("region-ch").collection("organizations").doc("org-1").collection("recoveries");

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

async function entries(recoveryId: string): Promise<(LedgerEntry & { itemKey: string })[]> {
  const found: (LedgerEntry & { itemKey: string })[] = [];
  for await (const entry of ledgerEntries(scope, recoveryId)) found.push(entry);
  return found;
}

test("when a recovery is created, leased, advanced and ended, then it, its ledger and its lock read back as written", async () => {
  const request = {
    resourceId: "user-1",
    service: "gmail" as const,
    itemIds: ["m1", "m2"],
    location: "other" as const,
    targetResourceId: "user-2",
    method: "folder" as const,
    folderName: "Recovered",
    permissions: false,
    date: "03-01-2026",
  };
  const created = await createRecovery(scope, request, "admin@example.test", NOW, { items: 2, bytes: 200 });
  if (created.kind !== "created") throw new Error("not created");
  const { recovery } = created;
  expect(await readRecovery(scope, recovery.recoveryId)).toEqual(recovery);
  expect(await createRecovery(scope, request, "admin@example.test", NOW, { items: 2, bytes: 200 })).toEqual({
    kind: "busy",
  });
  const leased = await takeRecoveryLease(
    scope,
    recovery.recoveryId,
    "worker",
    "2026-03-01T10:05:00.000Z",
    NOW.toISOString(),
  );
  expect(leased).toMatchObject({ state: "running", startedAt: NOW.toISOString() });
  await writeLedger(scope, recovery.recoveryId, "m1", { state: "done", targetId: "t1", name: "Figures" });
  await writeLedger(scope, recovery.recoveryId, "m2", { state: "failed", reason: "http-500" });
  const progress = { ...recovery.progress, restored: 1, failed: 1, bytes: 200 };
  const problems = [{ itemKey: "m2", name: "", outcome: "failed" as const, reason: "http-500" }];
  const position = { index: 2, lastItemKey: null, bytes: 200 };
  expect(
    await saveRecoveryProgress(
      scope,
      { recoveryId: recovery.recoveryId, progress, position, problems },
      "worker",
    ),
  ).toBe(true);
  expect(await activeRecoveries(scope)).toEqual([
    { recoveryId: recovery.recoveryId, targetResourceId: "user-2", state: "running" },
  ]);
  expect(await readLedger(scope, recovery.recoveryId, "m1")).toEqual({
    itemKey: "m1",
    state: "done",
    targetId: "t1",
    name: "Figures",
  });
  expect(await entries(recovery.recoveryId)).toEqual([
    { itemKey: "m1", state: "done", targetId: "t1", name: "Figures" },
    { itemKey: "m2", state: "failed", reason: "http-500" },
  ]);
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
  await finishRecovery(scope, { ...leased!, progress, position, problems }, { state: "succeeded" }, NOW);
  expect(await recoveriesOfResource(scope, "user-2", 5)).toEqual([
    {
      ...leased,
      progress,
      position,
      problems,
      state: "succeeded",
      finishedAt: NOW.toISOString(),
      lease: null,
    },
  ]);
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when a recovery or a ledger entry does not decode, then lists leave it out and reading the recovery fails", async () => {
  await recoveries()
    .doc("broken")
    .set({ resourceId: "user-2", targetResourceId: "user-2", state: "restoring" });
  await recoveries().doc("broken").collection("ledger").doc("m1").set({ itemKey: "m1", state: "lost" });
  expect((await recoveriesOfResource(scope, "user-2", 5)).map((each) => each.recoveryId)).not.toContain(
    "broken",
  );
  expect(await entries("broken")).toEqual([]);
  await expect(readRecovery(scope, "broken")).rejects.toMatchObject({
    kind: "recovery",
    path: "organizations/org-1/recoveries/broken",
  });
});
