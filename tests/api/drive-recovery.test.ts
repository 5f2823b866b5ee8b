/**
 * Recovering Drive files through the API, end to end on the stack (docs/requirements.md#screens-and-navigation recovery modal and search, #validation):
 * a user's drive is backed up, then "attacked": a file is overwritten with other bytes and renamed, another
 * deleted. The first backup is moved three days back in the catalog (as if it had run then), and a new
 * backup records the attack.
 *
 * - A search with a date shows each file as it was then (name, size, version); without a date, as now. An
 *   export with the date holds the files as they were then.
 * - A recovery with that date and "overwrite" puts the old bytes and name back into the same file as a new
 *   revision, recreates the deleted file in its folder with its sharing, and a repeated delivery adds
 *   nothing.
 * - A recovery that died between an upload and its ledger entry finds the file and uploads nothing.
 * - "Recover all data" of the drive to another user in a separate folder, without sharing, rebuilds the
 *   folder tree there with the last backed-up bytes and no permission but the owner's.
 */
import { Readable } from "node:stream";
import type { Recovery } from "@alpvault/contracts/recovery";
import { SEARCH_MESSAGES, type DriveSearchResult, type SearchResponse } from "@alpvault/contracts/search";
import type { drive_v3 } from "@googleapis/drive";
import { SCOPES, unzip } from "../../emulators/workspace/src/index";
import {
  assignDefaultPolicy,
  backdateCatalog,
  backupNow,
  enqueueTaskTo,
  finishedRun,
  organizationWithData,
  resourceOf,
  runsOf,
} from "../support/backup-runs";
import { drainTasks } from "../support/background";
import { recoveriesOf, resumeDeadRecovery } from "../support/recoveries";
import { driveFor } from "../support/workspace";
import { termsBody } from "../support/requests";

jest.setTimeout(240_000);

const FOLDER = "application/vnd.google-apps.folder";
const PLAN = Buffer.from("Plan for the third quarter\n".repeat(3000));
const PHOTO = Buffer.from(Array.from({ length: 200_000 }, (_, index) => (index * 131) % 256));
const LOCKED = Buffer.from(Array.from({ length: 120_000 }, (_, index) => (index * 17 + 5) % 253));
const DAY = 24 * 60 * 60 * 1000;
/** When the first backup is said to have run. */
const firstBackupAt = new Date(Date.now() - 3 * DAY).toISOString();
/** The day after it (MM-DD-YYYY): the state the first backup captured, before the attack. */
const beforeTheAttack = (() => {
  const day = new Date(Date.now() - 2 * DAY);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${two(day.getUTCMonth() + 1)}-${two(day.getUTCDate())}-${day.getUTCFullYear()}`;
})();

let setup: Awaited<ReturnType<typeof organizationWithData>>;
let drive: drive_v3.Drive;
let projectsId: string;
let planId: string;
let photoId: string;

const recoveries = () => recoveriesOf(setup.call, setup.organization);

async function waitForBackup(runId?: string) {
  const runs = await runsOf(setup.organization, setup.resource.resourceId);
  const run = runId ? runs.find((candidate) => candidate.runId === runId) : runs[0];
  expect(await finishedRun(setup.organization, setup.resource.resourceId, run!.runId)).toMatchObject({
    state: "succeeded",
  });
}

async function search(query: Record<string, string>): Promise<SearchResponse> {
  const answer = await setup.call(`/organizations/${setup.organization.organizationId}/search`, {
    method: "POST",
    body: termsBody({ service: "drive", resource: setup.workspace.user, ...query }),
  });
  expect(answer.status).toBe(200);
  return answer.body as SearchResponse;
}

async function bytesOf(client: drive_v3.Drive, fileId: string): Promise<Buffer> {
  const answer = await client.files.get({ fileId, alt: "media" }, { responseType: "arraybuffer" });
  return Buffer.from(answer.data as ArrayBuffer);
}

async function children(client: drive_v3.Drive, parent: string) {
  const { data } = await client.files.list({
    q: `'${parent}' in parents and trashed = false`,
    fields: "files(id,name,mimeType)",
  });
  return data.files ?? [];
}

beforeAll(async () => {
  setup = await organizationWithData(1);
  drive = driveFor(setup.workspace.user, [SCOPES.drive]);
  projectsId = (await drive.files.create({ requestBody: { name: "Projects", mimeType: FOLDER } })).data.id!;
  const upload = async (name: string, mimeType: string, body: Buffer) =>
    (
      await drive.files.create({
        requestBody: { name, parents: [projectsId] },
        media: { mimeType, body: Readable.from([body]) },
        fields: "id",
      })
    ).data.id!;
  planId = await upload("plan.txt", "text/plain", PLAN);
  photoId = await upload("photo.bin", "application/octet-stream", PHOTO);
  await drive.permissions.create({
    fileId: photoId,
    requestBody: { type: "anyone", role: "reader" },
    sendNotificationEmail: false,
  });
  await drive.permissions.create({
    fileId: planId,
    requestBody: { type: "anyone", role: "reader" },
    sendNotificationEmail: false,
  });
  await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  await waitForBackup();
  await backdateCatalog(setup.organization, setup.resource.resourceId, firstBackupAt);

  // The attack: the plan is overwritten and renamed, the photo deleted.
  await drive.files.update({
    fileId: planId,
    requestBody: { name: "plan.txt.locked" },
    media: { mimeType: "text/plain", body: Readable.from([LOCKED]) },
  });
  await drive.files.delete({ fileId: photoId });
  const answer = await backupNow(setup.call, setup.organization, setup.resource.resourceId);
  expect(answer.status).toBe(202);
  await waitForBackup((answer.body as { runId: string }).runId);
});

test("when the drive is searched with a date before the attack, then each file shows as it was then; without a date, as it is now", async () => {
  const now = await search({});
  const byId = (results: SearchResponse) =>
    new Map((results.results as DriveSearchResult[]).map((result) => [result.googleId, result]));
  const current = byId(now);
  expect(current.get(planId)).toMatchObject({ name: "plan.txt.locked", size: LOCKED.length });
  expect(current.get(photoId)?.deletedAtSource).not.toBeNull();

  const then = byId(await search({ date: beforeTheAttack }));
  expect(then.get(planId)).toMatchObject({
    name: "plan.txt",
    size: PLAN.length,
    path: "My Drive/Projects",
    deletedAtSource: null,
    lastBackup: firstBackupAt,
  });
  expect(then.get(planId)?.versionId).not.toBe(current.get(planId)?.versionId);
  expect(then.get(photoId)).toMatchObject({ name: "photo.bin", size: PHOTO.length, deletedAtSource: null });
  // The keyword matches the current name; a date before the first backup shows nothing.
  expect((await search({ keyword: "locked", date: beforeTheAttack })).results).toHaveLength(1);
  const long = new Date(Date.now() - 10 * DAY);
  const longAgo = `${String(long.getUTCMonth() + 1).padStart(2, "0")}-${String(long.getUTCDate()).padStart(2, "0")}-${long.getUTCFullYear()}`;
  expect((await search({ date: longAgo })).total).toBe(0);
});

test("when the drive is exported as of the day before the attack, then the ZIP holds the files as they were then; without a date, as last backed up", async () => {
  const exportZip = (body: Record<string, unknown>) =>
    setup.call(`/organizations/${setup.organization.organizationId}/exports/zip`, {
      method: "POST",
      body: { resourceId: setup.resource.resourceId, service: "drive", ...body },
    });
  const then = await exportZip({ date: beforeTheAttack });
  expect(then.status).toBe(200);
  const held = unzip(then.bytes);
  expect([...held.keys()].sort()).toEqual([
    "My Drive/Projects/photo.bin",
    "My Drive/Projects/plan.txt",
    "My Drive/budget.txt",
  ]);
  expect(held.get("My Drive/Projects/plan.txt")?.equals(PLAN)).toBe(true);
  expect(held.get("My Drive/Projects/photo.bin")?.equals(PHOTO)).toBe(true);
  const last = unzip((await exportZip({})).bytes);
  expect(last.get("My Drive/Projects/plan.txt.locked")?.equals(LOCKED)).toBe(true);
  expect(await exportZip({ date: "13-01-2026" })).toMatchObject({
    status: 400,
    body: { code: 400, message: SEARCH_MESSAGES.invalidDate },
  });
});

test("when a recovery's date is not a real day, then the API answers 400 with the search card's text", async () => {
  expect(
    await recoveries().start({
      resourceId: setup.resource.resourceId,
      service: "drive",
      location: "original",
      method: "overwrite",
      date: "02-30-2026",
    }),
  ).toMatchObject({ status: 400, body: { code: 400, message: SEARCH_MESSAGES.invalidDate } });
});

test("when the files are recovered as of the day before the attack with 'overwrite', then the plan gets its bytes and name back as a new revision and the photo is recreated in its folder with its sharing, once", async () => {
  const revisionsBefore = (await drive.revisions.list({ fileId: planId })).data.revisions?.length ?? 0;
  const answer = await recoveries().start({
    resourceId: setup.resource.resourceId,
    service: "drive",
    itemIds: [planId, photoId],
    location: "original",
    method: "overwrite",
    permissions: true,
    date: beforeTheAttack,
  });
  expect(answer.status).toBe(202);
  const started = answer.body as Recovery;
  expect(started.asOf).toMatch(/T00:00:00.000Z$/);
  expect(await recoveries().finished(started.recoveryId)).toMatchObject({
    state: "succeeded",
    progress: { total: 2, restored: 2, skipped: 0, failed: 0 },
  });

  const plan = await drive.files.get({ fileId: planId, fields: "name,parents" });
  expect(plan.data).toMatchObject({ name: "plan.txt", parents: [projectsId] });
  expect((await bytesOf(drive, planId)).equals(PLAN)).toBe(true);
  expect((await drive.revisions.list({ fileId: planId })).data.revisions).toHaveLength(revisionsBefore + 1);

  const inProjects = await children(drive, projectsId);
  expect(inProjects.map((file) => file.name).sort()).toEqual(["photo.bin", "plan.txt"]);
  const photo = inProjects.find((file) => file.name === "photo.bin")!;
  expect((await bytesOf(drive, photo.id!)).equals(PHOTO)).toBe(true);
  const sharing = await drive.permissions.list({ fileId: photo.id!, fields: "permissions(type,role)" });
  expect(sharing.data.permissions).toContainEqual({ type: "anyone", role: "reader" });

  // The same task delivered again: the recovery is over, nothing is restored twice.
  await enqueueTaskTo("runRecovery", {
    organizationId: setup.organization.organizationId,
    recoveryId: started.recoveryId,
  });
  expect((await drainTasks()).map((delivery) => delivery.outcome)).toEqual(["done"]);
  expect((await children(drive, projectsId)).map((file) => file.name).sort()).toEqual([
    "photo.bin",
    "plan.txt",
  ]);
  expect((await drive.revisions.list({ fileId: planId })).data.revisions).toHaveLength(revisionsBefore + 1);
});

test("when a Drive recovery died between an upload and its ledger entry, then the resumed recovery finds the file in the folder and uploads nothing", async () => {
  // What the dead worker left: the folder path and the uploaded file, and the ledger saying "importing".
  const folder = async (name: string, parent: string) =>
    (await drive.files.create({ requestBody: { name, mimeType: FOLDER, parents: [parent] }, fields: "id" }))
      .data.id!;
  const projects = await folder("Projects", await folder("Resumed-files", "root"));
  await drive.files.create({
    requestBody: { name: "photo.bin", parents: [projects] },
    media: { mimeType: "application/octet-stream", body: Readable.from([PHOTO]) },
  });
  const recoveryId = await resumeDeadRecovery(setup.organization, {
    service: "drive",
    resourceId: setup.resource.resourceId,
    folderName: "Resumed-files",
    itemId: photoId,
    requestedBy: setup.workspace.admin,
  });
  expect(await recoveries().finished(recoveryId)).toMatchObject({
    state: "succeeded",
    progress: { restored: 1, failed: 0 },
  });
  const inFolder = await children(drive, projects);
  expect(inFolder.map((file) => file.name)).toEqual(["photo.bin"]);
  expect((await bytesOf(drive, inFolder[0]!.id!)).equals(PHOTO)).toBe(true);
});

test("when all the drive's data is recovered to another user in a separate folder without sharing, then the folder tree is rebuilt there with the last backed-up bytes and only the owner's permission", async () => {
  const admin = await resourceOf(setup.call, setup.organization, setup.workspace.admin);
  const answer = await recoveries().start({
    resourceId: setup.resource.resourceId,
    service: "drive",
    location: "other",
    targetResourceId: admin.resourceId,
    method: "folder",
    folderName: "From-the-user",
    permissions: false,
  });
  expect(answer.status).toBe(202);
  expect(await recoveries().finished((answer.body as Recovery).recoveryId)).toMatchObject({
    state: "succeeded",
    progress: { total: 3, restored: 3, failed: 0 },
  });
  const adminDrive = driveFor(setup.workspace.admin, [SCOPES.drive]);
  const top = (await children(adminDrive, "root")).filter((file) => file.name === "From-the-user");
  expect(top).toHaveLength(1);
  const inTop = await children(adminDrive, top[0]!.id!);
  expect(inTop.map((file) => file.name).sort()).toEqual(["Projects", "budget.txt"]);
  const budget = inTop.find((file) => file.name === "budget.txt")!;
  expect((await bytesOf(adminDrive, budget.id!)).equals(setup.file.bytes)).toBe(true);
  const projects = inTop.find((file) => file.name === "Projects")!;
  expect(projects.mimeType).toBe(FOLDER);
  const restored = await children(adminDrive, projects.id!);
  // The catalog's last versions: the locked plan (the backup after the attack) and the deleted photo.
  expect(restored.map((file) => file.name).sort()).toEqual(["photo.bin", "plan.txt.locked"]);
  for (const file of restored) {
    const expected = file.name === "photo.bin" ? PHOTO : LOCKED;
    expect((await bytesOf(adminDrive, file.id!)).equals(expected)).toBe(true);
    const permissions = await adminDrive.permissions.list({
      fileId: file.id!,
      fields: "permissions(type,role)",
    });
    expect(permissions.data.permissions).toEqual([{ type: "user", role: "owner" }]);
  }
  // Nothing went to the user's own drive.
  expect((await children(drive, "root")).map((file) => file.name)).not.toContain("From-the-user");
});
