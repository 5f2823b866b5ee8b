/**
 * Data residency in the workers: a task of an organisation that reaches another region's queue is dropped
 * by that region's worker, and runs in its own region's.
 */
import { regionDatabaseId } from "@alpvault/contracts/regions";
import {
  assignDefaultPolicy,
  enqueueTaskTo,
  finishedRun,
  runsOf,
  writePendingRun,
} from "../support/backup-runs";
import { drainTasks } from "../support/background";
import { googleSubOf, onboarded, withRegionDb } from "../support/organizations";

test("when a backup task of an EU organisation reaches Switzerland's queue, then Switzerland's worker drops it; the EU's runs it", async () => {
  const setup = await onboarded("eu");
  const resourceId = `user-${await googleSubOf(setup.workspace.user)}`;
  // Protected, and backed up once in its region.
  await assignDefaultPolicy(setup.call, setup.organization, resourceId);
  const [assigned] = await runsOf(setup.organization, resourceId);
  expect((await finishedRun(setup.organization, resourceId, assigned!.runId)).state).toBe("succeeded");
  // A run as the API writes one, not enqueued, then handed to the wrong region's queue.
  const runId = await withRegionDb(regionDatabaseId("eu"), async (db) => {
    const organizationRef = db.doc(`organizations/${setup.organization.organizationId}`);
    return (await writePendingRun(organizationRef, resourceId, "residency.test")).id;
  });
  const task = { organizationId: setup.organization.organizationId, resourceId, runId };
  await enqueueTaskTo("runBackup", task, "ch");
  const delivered = await drainTasks();
  expect(delivered.map(({ task: { regionId, queue }, outcome }) => ({ regionId, queue, outcome }))).toEqual([
    { regionId: "ch", queue: "runBackup", outcome: "done" },
  ]);
  expect((await runsOf(setup.organization, resourceId)).find((run) => run.runId === runId)?.state).toBe(
    "pending",
  );
  await enqueueTaskTo("runBackup", task, "eu");
  expect((await finishedRun(setup.organization, resourceId, runId)).state).toBe("succeeded");
});
