/**
 * A resource's page and the organisation's activity (docs/requirements.md#backup-activity), in the running
 * product: real backups by the worker, then the resource's figures, its runs newest first page by page (a
 * partial run names what it skipped and why, a failed one its reason), the recoveries and exports of that
 * resource only, and the day's runs, items, bytes and storage per service as the runs and resources say.
 */
import type { ActivityResponse, BackupRunsPage } from "@alpvault/contracts/activity";
import type { ResourceDetail } from "@alpvault/contracts/organizations";
import type { RecoveryList } from "@alpvault/contracts/recovery";
import type { ExportList } from "@alpvault/contracts/exports";
import { withRegionDb } from "../support/organizations";
import { drainTasks } from "../support/background";
import {
  assignDefaultPolicy,
  backupNow,
  enqueueTask,
  finishedRun,
  organizationDoc,
  organizationWithData,
  regionDbOf,
  resourceOf,
  runsOf,
} from "../support/backup-runs";
import { workspaceAdmin } from "../support/workspace";

jest.setTimeout(240_000);

type Setup = Awaited<ReturnType<typeof organizationWithData>>;

/** Starts a backup of the user's resource and waits for its end. */
async function backUp(setup: Setup): Promise<string> {
  const answer = await backupNow(setup.call, setup.organization, setup.resource.resourceId);
  expect(answer.status).toBe(202);
  const { runId } = answer.body as { runId: string };
  await finishedRun(setup.organization, setup.resource.resourceId, runId);
  return runId;
}

describe("a resource's page and the organisation's activity", () => {
  let setup: Setup;
  const base = () => `/organizations/${setup.organization.organizationId}`;
  const runIds: string[] = [];

  beforeAll(async () => {
    setup = await organizationWithData(6);
    await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
    const [first] = await runsOf(setup.organization, setup.resource.resourceId);
    await finishedRun(setup.organization, setup.resource.resourceId, first!.runId);
    runIds.push(first!.runId);
    // A Google Form cannot be exported: the next backup skips its content and says so (a partial run).
    const form = await workspaceAdmin("POST", `/users/${setup.workspace.user}/drive/files`, {
      name: "Survey",
      mimeType: "application/vnd.google-apps.form",
    });
    expect(form.status).toBe(200);
    runIds.push(await backUp(setup));
    runIds.push(await backUp(setup));
  });

  test("when the resource is read, then it has its item counts and sizes as the catalog says", async () => {
    const answer = await setup.call(`${base()}/resources/${setup.resource.resourceId}`);
    expect(answer.status).toBe(200);
    const detail = answer.body as ResourceDetail;
    expect(detail).toMatchObject({ resourceId: setup.resource.resourceId, mailItems: 6, protected: true });
    expect(detail.driveItems).toBeGreaterThanOrEqual(2);
    const listed = await resourceOf(setup.call, setup.organization, setup.workspace.user);
    expect(detail.mailBackupBytes).toBe(listed.mailBackupBytes);
    expect(detail.driveBackupBytes).toBe(listed.driveBackupBytes);
  });

  test("when the runs are read two by two, then every run comes once, newest first, each marked as it ended", async () => {
    const seen: BackupRunsPage["runs"] = [];
    let token: string | null = null;
    for (let page = 0; page < 5; page++) {
      const query: string = token ? `?pageSize=2&pageToken=${encodeURIComponent(token)}` : "?pageSize=2";
      const answer = await setup.call(`${base()}/resources/${setup.resource.resourceId}/runs${query}`);
      expect(answer.status).toBe(200);
      const body = answer.body as BackupRunsPage;
      seen.push(...body.runs);
      token = body.nextPageToken;
      if (!token) break;
    }
    expect(seen.map((run) => run.runId)).toEqual([...runIds].reverse());
    const [third, second, first] = seen;
    expect(first).toMatchObject({ outcome: "ok", trigger: "policy-assigned", items: 7, skippedItems: 0 });
    expect(second).toMatchObject({ outcome: "partial", trigger: "backup-now", skippedItems: 1 });
    expect(second?.services.drive?.skipped).toEqual({ "not-exportable": 1 });
    expect(third).toMatchObject({ outcome: "ok", items: 0 });
    for (const run of seen) expect(Date.parse(run.finishedAt ?? "")).toBeGreaterThan(0);
  });

  test("when a run fails, then the history marks it failed with its reason", async () => {
    // The app loses its Gmail scope: Google refuses the next backup's token.
    await workspaceAdmin("POST", `/customers/${setup.workspace.domain}/scopes:revoke`, {
      scopes: ["https://www.googleapis.com/auth/gmail.readonly"],
    });
    try {
      runIds.push(await backUp(setup));
    } finally {
      await workspaceAdmin("POST", `/customers/${setup.workspace.domain}/app:install`, {});
    }
    const answer = await setup.call(`${base()}/resources/${setup.resource.resourceId}/runs?pageSize=1`);
    const newest = (answer.body as BackupRunsPage).runs[0];
    expect(newest?.runId).toBe(runIds[runIds.length - 1]);
    expect(newest?.outcome === "failed" || newest?.services.gmail?.state === "failed").toBe(true);
  });

  test("when the activity is read, then today counts every run by outcome, their items and bytes, and the storage per service", async () => {
    const answer = await setup.call(`${base()}/activity?days=7`);
    expect(answer.status).toBe(200);
    const { days } = answer.body as ActivityResponse;
    expect(days).toHaveLength(7);
    const today = days[6]!;
    expect(today.date).toBe(new Date().toISOString().slice(0, 10));
    const stored = await withRegionDb(regionDbOf(setup.organization), async (db) => {
      const snapshot = await organizationDoc(setup.organization)(db)
        .collection("backupRuns")
        .where("resourceId", "==", setup.resource.resourceId)
        .get();
      return snapshot.docs.map(
        (doc) => doc.data() as { state: string; progress: { items: number; bytes: number } },
      );
    });
    const total = today.runs.ok + today.runs.partial + today.runs.failed;
    expect(total).toBe(stored.length);
    expect(today.runs.partial).toBeGreaterThanOrEqual(1);
    expect(today.items).toBe(stored.reduce((sum, run) => sum + run.progress.items, 0));
    expect(today.bytes).toBe(stored.reduce((sum, run) => sum + run.progress.bytes, 0));
    const resource = await resourceOf(setup.call, setup.organization, setup.workspace.user);
    expect(today.storage).toEqual({
      gmail: resource.mailBackupBytes,
      drive: resource.driveBackupBytes,
      calendar: resource.calendarBackupBytes,
      contacts: resource.contactsBackupBytes,
    });
    expect(days[0]).toMatchObject({ runs: { ok: 0, partial: 0, failed: 0 }, items: 0, storage: null });
  });

  test("when an ended run's task is delivered again, then the day does not count it twice", async () => {
    const before = ((await setup.call(`${base()}/activity?days=7`)).body as ActivityResponse).days[6]!;
    await enqueueTask({
      organizationId: setup.organization.organizationId,
      resourceId: setup.resource.resourceId,
      runId: runIds[0]!,
    });
    expect((await drainTasks()).map((delivery) => delivery.outcome)).toEqual(["done"]);
    const after = ((await setup.call(`${base()}/activity?days=7`)).body as ActivityResponse).days[6]!;
    expect(after.runs).toEqual(before.runs);
    expect(after.items).toBe(before.items);
    expect(after.bytes).toBe(before.bytes);
  });

  test("when the resource's recoveries and exports are asked for, then only theirs are listed", async () => {
    const recoveries = await setup.call(`${base()}/recoveries?resourceId=${setup.resource.resourceId}`);
    expect(recoveries.status).toBe(200);
    expect((recoveries.body as RecoveryList).recoveries).toEqual([]);
    const started = await setup.call(`${base()}/exports`, {
      method: "POST",
      body: { resourceId: setup.resource.resourceId, service: "gmail" },
    });
    expect(started.status).toBe(202);
    const exports = await setup.call(`${base()}/exports?resourceId=${setup.resource.resourceId}`);
    expect(exports.status).toBe(200);
    expect((exports.body as ExportList).exports.map((job) => job.resourceId)).toEqual([
      setup.resource.resourceId,
    ]);
    const other = await setup.call(`${base()}/exports?resourceId=drive-nothing-here`);
    expect((other.body as ExportList).exports).toEqual([]);
  });

  test("when the queries are malformed, then each is a 400 with its message, and an unknown resource a 404", async () => {
    const resource = `${base()}/resources/${setup.resource.resourceId}`;
    const cases: [string, number][] = [
      [`${base()}/activity?days=3`, 400],
      [`${base()}/activity?days=abc`, 400],
      [`${base()}/activity?days=7&days=8`, 400],
      [`${resource}/runs?pageSize=0`, 400],
      [`${resource}/runs?pageSize=101`, 400],
      [`${resource}/runs?pageToken=not-a-token`, 400],
      [`${base()}/resources/user-unknown/runs`, 404],
      [`${base()}/resources/user-unknown`, 404],
      [`${base()}/resources/a.b`, 404],
      [`${base()}/recoveries`, 400],
      [`${base()}/recoveries?resourceId=${encodeURIComponent("a/b")}`, 400],
      [`${base()}/exports?resourceId=${encodeURIComponent("__x__")}`, 400],
    ];
    for (const [path, status] of cases) {
      const answer = await setup.call(path);
      expect({ path, status: answer.status }).toEqual({ path, status });
      expect(answer.body).toMatchObject({ code: status, message: expect.any(String) });
    }
    // A token of another resource's history is refused.
    const token = Buffer.from(
      JSON.stringify({ r: "user-other", t: new Date().toISOString(), i: "abc" }),
    ).toString("base64url");
    expect((await setup.call(`${resource}/runs?pageToken=${token}`)).status).toBe(400);
  });
});
