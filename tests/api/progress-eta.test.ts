/**
 * Watching work finish, on the stack: a recovery estimated before it starts (`POST …/recoveries/estimate`:
 * the items and bytes it then really restores, and the time at Gmail's import limit; the recovery's own
 * validation, 404 and 403), the totals, bytes, pace and time left of a running recovery and of an export,
 * and a first backup's totals and time left on the resources list.
 */
import type { RecoveryEstimate } from "@alpvault/contracts/eta";
import type { ExportJob } from "@alpvault/contracts/exports";
import type { ResourcesPage } from "@alpvault/contracts/organizations";
import { RECOVERY_MESSAGES, type Recovery } from "@alpvault/contracts/recovery";
import { SCOPES } from "../../emulators/workspace/src/index";
import {
  REGION_DB,
  assignDefaultPolicy,
  finishedRun,
  holdStorageCalls,
  organizationDoc,
  organizationWithData,
  resourceOf,
  runsOf,
} from "../support/backup-runs";
import { exportsOf } from "../support/exports";
import { asUser, onboarded, withRegionDb } from "../support/organizations";
import { recoveriesOf } from "../support/recoveries";
import { drainTasks } from "../support/background";
import { gmailFor, holdCalls, workspaceAdmin } from "../support/workspace";

jest.setTimeout(240_000);

/** Gmail's 2026 model (the stack's): `messages.import` costs 25 units, a user may spend 6,000 a minute. */
const IMPORT_UNITS = 25;
const USER_UNITS_PER_MINUTE = 6_000;
const IMPORT_LIMIT = {
  kind: "gmail-user",
  text: "Gmail's import limit of 240 messages a minute per mailbox",
};

let setup: Awaited<ReturnType<typeof organizationWithData>>;
let adminResourceId: string;
const MESSAGES = 6;

const recoveries = () => recoveriesOf(setup.call, setup.organization);
const estimate = (body: Record<string, unknown>) =>
  setup.call(`/organizations/${setup.organization.organizationId}/recoveries/estimate`, {
    method: "POST",
    body,
  });
/** MM-DD-YYYY, `days` from today (UTC). */
const searchDate = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const [year, month, day] = date.split("-");
  return `${month}-${day}-${year}`;
};
const storedRecoveries = () =>
  withRegionDb(
    REGION_DB,
    async (db) => (await organizationDoc(setup.organization)(db).collection("recoveries").get()).size,
  );

beforeAll(async () => {
  setup = await organizationWithData(MESSAGES);
  // A Form: Google offers no export of it, so it is backed up without content and a recovery skips it.
  const form = await workspaceAdmin("POST", `/users/${setup.workspace.user}/drive/files`, {
    name: "Survey",
    mimeType: "application/vnd.google-apps.form",
  });
  expect(form.status).toBe(200);
  await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  const [run] = await runsOf(setup.organization, setup.resource.resourceId);
  expect(await finishedRun(setup.organization, setup.resource.resourceId, run!.runId)).toMatchObject({
    state: "succeeded",
  });
  adminResourceId = (await resourceOf(setup.call, setup.organization, setup.workspace.admin)).resourceId;
});

/**
 * Starts the recovery of `body`: once it ends, it restored the items and bytes `estimated` said, and skipped
 * the rest of the `total` items it was asked for.
 */
async function expectRecoveredAsEstimated(
  body: Record<string, unknown>,
  estimated: RecoveryEstimate,
  total: number,
): Promise<void> {
  const started = await recoveries().start(body);
  const done = await recoveries().finished((started.body as Recovery).recoveryId);
  expect(done.progress).toMatchObject({
    total,
    restored: estimated.items,
    skipped: total - estimated.items,
    bytes: estimated.bytes,
  });
}

const mailBytes = () => [...setup.raws.values()].reduce((total, raw) => total + raw.length, 0);

test("when a whole mailbox's recovery is estimated, then nothing starts, and the recovery then restores exactly its items and bytes", async () => {
  const body = {
    resourceId: setup.resource.resourceId,
    service: "gmail",
    location: "other",
    targetResourceId: adminResourceId,
    method: "folder",
    folderName: "Estimated",
  };
  const before = await storedRecoveries();
  const answer = await estimate(body);
  expect(answer.status).toBe(200);
  // 6 imports × 25 units = 150 units at 6,000 a minute: 1.5 s.
  expect(answer.body).toEqual({
    items: MESSAGES,
    bytes: mailBytes(),
    seconds: Math.ceil((MESSAGES * IMPORT_UNITS * 60) / USER_UNITS_PER_MINUTE),
    limit: IMPORT_LIMIT,
  });
  expect(await storedRecoveries()).toBe(before);

  const started = await recoveries().start(body);
  expect(started.status).toBe(202);
  expect((started.body as Recovery).progress).toEqual({
    total: MESSAGES,
    restored: 0,
    skipped: 0,
    failed: 0,
    bytes: 0,
    totalBytes: mailBytes(),
    itemsPerMinute: null,
    etaSeconds: null,
    limit: null,
  });
  const done = await recoveries().finished((started.body as Recovery).recoveryId);
  const estimated = answer.body as RecoveryEstimate;
  expect(done.progress).toMatchObject({
    total: estimated.items,
    restored: estimated.items,
    bytes: estimated.bytes,
    totalBytes: estimated.bytes,
    etaSeconds: null,
    limit: null,
  });
});

test("when named items at a date are estimated, then only those held then count, as the recovery finds them", async () => {
  const [first, second] = [...setup.raws.keys()] as [string, string];
  const body = (date: string) => ({
    resourceId: setup.resource.resourceId,
    service: "gmail",
    itemIds: [first, second, "18c0000000000000"],
    location: "other",
    targetResourceId: adminResourceId,
    method: "folder",
    folderName: "Dated",
    date,
  });
  // Yesterday the backups held nothing yet.
  expect((await estimate(body(searchDate(-1)))).body).toMatchObject({ items: 0, bytes: 0, seconds: 0 });
  const answer = await estimate(body(searchDate(0)));
  const estimated = answer.body as RecoveryEstimate;
  expect(estimated).toMatchObject({
    items: 2,
    bytes: setup.raws.get(first)!.length + setup.raws.get(second)!.length,
  });
  // The id the backups never held is skipped: the estimate left it out.
  await expectRecoveredAsEstimated(body(searchDate(0)), estimated, 3);
});

test("when a whole drive's recovery is estimated, then the file kept without content is left out, as the recovery skips it", async () => {
  const body = {
    resourceId: setup.resource.resourceId,
    service: "drive",
    location: "original",
    method: "folder",
    folderName: "Estimated-Files",
  };
  const estimated = (await estimate(body)).body as RecoveryEstimate;
  expect(estimated).toMatchObject({ items: 1, bytes: setup.file.bytes.length });
  expect(estimated.limit.kind).toBe("drive-user");
  // At a date after every backup, the same: counted from the catalog's dates instead.
  expect((await estimate({ ...body, date: searchDate(0) })).body).toEqual(estimated);
  await expectRecoveredAsEstimated(body, estimated, 2);
});

test("when an estimate breaks the recovery's rules or names what is not there, then 400 and 404 with its texts; a non-admin 403, another organisation 404", async () => {
  const base = {
    resourceId: setup.resource.resourceId,
    service: "gmail",
    location: "original",
    method: "folder",
    folderName: "Restored",
  };
  expect(await estimate({ ...base, folderName: "Not allowed!" })).toMatchObject({
    status: 400,
    body: { code: 400, message: RECOVERY_MESSAGES.folderCharacters },
  });
  expect(await estimate({ ...base, location: "other" })).toMatchObject({
    status: 400,
    body: { code: 400, message: RECOVERY_MESSAGES.targetRequired },
  });
  expect(await estimate({ ...base, resourceId: "user-nobody" })).toMatchObject({
    status: 404,
    body: { code: 404, message: RECOVERY_MESSAGES.resourceNotFound },
  });
  const path = `/organizations/${setup.organization.organizationId}/recoveries/estimate`;
  const user = await asUser(setup.workspace.user);
  expect(await user(path, { method: "POST", body: base })).toMatchObject({
    status: 403,
    body: { code: 403 },
  });
  const other = await onboarded();
  expect(await other.call(path, { method: "POST", body: base })).toMatchObject({
    status: 404,
    body: { code: 404 },
  });
});

test("when a recovery runs, then it reports its bytes, the time left at Gmail's import limit and that limit", async () => {
  // Its imports are held at Google: the recovery is read while it runs.
  const imports = await holdCalls("gmail.users.messages.import", setup.workspace.admin);
  const started = await recoveries().start({
    resourceId: setup.resource.resourceId,
    service: "gmail",
    location: "other",
    targetResourceId: adminResourceId,
    method: "folder",
    folderName: "Watched",
  });
  const { recoveryId } = started.body as Recovery;
  const path = `/organizations/${setup.organization.organizationId}/recoveries/${recoveryId}`;
  const work = drainTasks();
  let running: Recovery;
  try {
    await imports.held();
    running = (await setup.call(path)).body as Recovery;
  } finally {
    await imports.release();
  }
  await work;
  expect(running.state).toBe("running");
  const { progress } = running;
  const left = progress.total - progress.restored - progress.skipped - progress.failed;
  expect(progress).toMatchObject({ total: MESSAGES, totalBytes: mailBytes(), limit: IMPORT_LIMIT });
  // Under a minute in: no measured pace yet, the quota's time for what is left.
  expect(progress.itemsPerMinute).toBeNull();
  expect(progress.etaSeconds).toBe(Math.ceil((left * IMPORT_UNITS * 60) / USER_UNITS_PER_MINUTE));
  expect((await recoveries().finished(recoveryId)).progress).toMatchObject({
    restored: MESSAGES,
    bytes: mailBytes(),
    limit: null,
  });
});

test("when a mailbox is exported, then the job knows its items and bytes from the start and says no Google quota applies while it runs", async () => {
  const exports = exportsOf(setup.call, setup.organization);
  const answer = await exports.start({ resourceId: setup.resource.resourceId, service: "gmail" });
  expect(answer.status).toBe(202);
  const job = answer.body as ExportJob;
  expect(job.progress).toEqual({
    total: MESSAGES,
    exported: 0,
    failed: 0,
    bytes: 0,
    totalBytes: mailBytes(),
    itemsPerMinute: null,
    etaSeconds: null,
    limit: null,
  });
  // Its reads of the backups are held: the export is read while it runs.
  const reads = await holdStorageCalls("storage.objects.get", setup.organization);
  const work = drainTasks();
  let running: ExportJob;
  try {
    await reads.held();
    running = (await setup.call(`${exports.base}/${job.exportId}`)).body as ExportJob;
  } finally {
    await reads.release();
  }
  await work;
  expect(running.state).toBe("running");
  expect(running.progress).toMatchObject({ total: MESSAGES, totalBytes: mailBytes() });
  expect(running.progress.limit?.kind).toBe("none");
  expect((await exports.finished(job.exportId)).progress).toMatchObject({
    total: MESSAGES,
    exported: MESSAGES,
    limit: null,
  });
});

test("when a mailbox's first backup runs, then the resources list shows the mailbox's message count as its total and the time left", async () => {
  const other = await organizationWithData(8);
  // Its message fetches are held at Google: the backup is read while it runs.
  const fetches = await holdCalls("gmail.users.messages.get", other.workspace.user);
  const { data: profile } = await gmailFor(other.workspace.user, [SCOPES.gmailReadonly]).users.getProfile({
    userId: "me",
  });
  const path = `/organizations/${other.organization.organizationId}/resources?pageSize=100`;
  await assignDefaultPolicy(other.call, other.organization, other.resource.resourceId);
  const work = drainTasks();
  let seen: ResourcesPage["resources"][number]["activeBackup"];
  try {
    await fetches.held();
    const page = (await other.call(path)).body as ResourcesPage;
    seen = page.resources.find((resource) => resource.resourceId === other.resource.resourceId)!.activeBackup;
  } finally {
    await fetches.release();
  }
  await work;
  expect(seen?.state).toBe("running");
  expect(seen).not.toBeNull();
  expect(seen!.totalItems).toBe(profile.messagesTotal);
  expect(seen!.limit?.kind).toMatch(/^gmail-user$|^measured$/);
  expect(seen!.etaSeconds).toEqual(expect.any(Number));
  const [run] = await runsOf(other.organization, other.resource.resourceId);
  expect(await finishedRun(other.organization, other.resource.resourceId, run!.runId)).toMatchObject({
    state: "succeeded",
  });
});
