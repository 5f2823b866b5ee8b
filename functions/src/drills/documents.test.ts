/**
 * Drill settings, runs and items as the drills repository writes them (a run as `startDrill` starts it)
 * decode and read back as written; a run that does not decode is left out of the list and fails a read.
 */
import { logger } from "firebase-functions";
import { regionDb } from "../lib/firebase";
import { tenantDb } from "../lib/tenancy";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import { applySync } from "../resources/repo";
import { startDrill } from "./service";
import {
  EMPTY_COUNTS,
  finishRun,
  listItems,
  listRuns,
  readItem,
  readRun,
  readSettings,
  saveRunProgress,
  setNextDrillAt,
  takeRunLease,
  updateItem,
  writeItems,
  writeSettings,
  type StoredDrillItem,
} from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const NOW = new Date("2026-03-01T10:00:00.000Z");
const LATER = "2026-03-01T10:05:00.000Z";

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test("when settings are saved and a drill runs, then the settings, the run and its items read back as written", async () => {
  await setNextDrillAt(scope, "2026-04-01T02:00:00.000Z");
  expect(await readSettings(scope)).toMatchObject({
    enabled: false,
    nextDrillAt: "2026-04-01T02:00:00.000Z",
  });
  await applySync(
    scope,
    [
      {
        resourceId: "sandbox",
        type: "email",
        name: "Sandbox",
        email: "sandbox@example.test",
        status: "active",
      },
    ],
    NOW.toISOString(),
  );
  const settings = {
    ...(await readSettings(scope)),
    enabled: true,
    sandboxResourceId: "sandbox",
    sandboxEmail: "sandbox@example.test",
    updatedAt: NOW.toISOString(),
    updatedBy: "admin@example.test",
  };
  await tenantDb(scope).runTransaction(async (transaction) => writeSettings(transaction, scope, settings));
  expect(await readSettings(scope)).toEqual(settings);

  const enqueued: unknown[] = [];
  const started = await startDrill(
    scope,
    "admin@example.test",
    NOW,
    async (_region, task) => void enqueued.push(task),
  );
  expect(enqueued).toHaveLength(1);
  const leased = await takeRunLease(scope, started.drillRunId, "worker", LATER, NOW.toISOString());
  expect(leased).toMatchObject({
    drillRunId: started.drillRunId,
    state: "running",
    startedAt: NOW.toISOString(),
  });
  const item: StoredDrillItem = {
    seq: 0,
    itemKey: "m1",
    resourceId: "user-1",
    resourceName: "Ada",
    service: "gmail",
    name: "Figures",
    outcome: null,
    reason: null,
    spares: [{ itemKey: "m2", name: "Minutes" }],
  };
  await writeItems(scope, started.drillRunId, [item]);
  await updateItem(scope, started.drillRunId, 0, {
    restoring: true,
    restoredId: "copy-1",
    outcome: "matched",
  });
  const checked = { ...item, restoring: true, restoredId: "copy-1", outcome: "matched" as const };
  expect(await readItem(scope, started.drillRunId, 0)).toEqual(checked);
  expect(await listItems(scope, started.drillRunId)).toEqual([checked]);
  const run = { ...leased!, resourceIds: ["user-1"], counts: { ...EMPTY_COUNTS, sample: 1, matched: 1 } };
  expect(await saveRunProgress(scope, run, "worker")).toBe(true);
  await finishRun(scope, run, { state: "passed" }, new Date(LATER));
  expect(await readRun(scope, started.drillRunId)).toEqual({
    ...run,
    state: "passed",
    finishedAt: LATER,
    durationMs: 300_000,
    failureReason: null,
    lease: null,
  });
  expect((await readSettings(scope)).activeRunId).toBeNull();
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when a drill run does not decode, then the list leaves it out and reading it fails with its kind and path", async () => {
  const runs = regionDb("region-ch").collection("organizations").doc("org-1").collection("drillRuns");
  await runs.doc("broken").set({ state: "passed", requestedAt: "2026-03-02T10:00:00.000Z" });
  const { runs: listed, total } = await listRuns(scope, 1, 10);
  expect(total).toBe(2);
  expect(listed).toHaveLength(1);
  await expect(readRun(scope, "broken")).rejects.toMatchObject({
    kind: "drill run",
    path: "organizations/org-1/drillRuns/broken",
  });
});
