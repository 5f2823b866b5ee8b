/**
 * Integrity verification on the stack: four messages' stored chunks are damaged four ways (a flipped
 * byte, a truncated object, a deleted object, another organisation's chunk in its place). A verification
 * run finds each, names it in GET …/integrity, raises an alert and writes an audit entry; self-healing
 * removes the broken objects and the next backup fetches the four messages again from Google although they
 * did not change there; after it, their content reads back as it was and a new verification reads clean.
 */
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import type { IntegrityReport, ResourceIntegrityView, VerifyRun } from "@alpvault/contracts/integrity";
import { restoreVersion } from "../support/backup";
import {
  auditOperations,
  backupNow,
  blobStore,
  finishedRun,
  itemsOf,
  objectScope,
  organizationWithData,
  resourceOf,
  type StoredItem,
} from "../support/backup-runs";
import { backedUp, chunkOf, deleteObject, flipByte, replaceWith, truncate } from "../support/damage";
import { asUser } from "../support/organizations";
import { drainTasks, pendingTasks } from "../support/background";
import { afterBackgroundWork } from "../support/wait";

jest.setTimeout(300_000);

type Setup = Awaited<ReturnType<typeof organizationWithData>>;

const MESSAGES = 6;
let setup: Setup;
let items: StoredItem[];
let damaged: StoredItem[];
let firstRun: VerifyRun;
let afterDamage: IntegrityReport;

const base = () => `/organizations/${setup.organization.organizationId}/integrity`;

async function report(): Promise<IntegrityReport> {
  const answer = await setup.call(base());
  expect(answer.status).toBe(200);
  return answer.body as IntegrityReport;
}

/** Starts a verification of the resource and waits until it has ended. */
async function verify(): Promise<VerifyRun> {
  const started = await setup.call(`${base()}/verify`, {
    method: "POST",
    body: { resourceId: setup.resource.resourceId },
  });
  expect(started.status).toBe(202);
  const run = started.body as VerifyRun;
  expect(run).toMatchObject({ trigger: "manual", resourceIds: [setup.resource.resourceId] });
  return afterBackgroundWork(
    `Verification ${run.runId}`,
    async () => (await report()).runs.find((candidate) => candidate.runId === run.runId),
    (found) => found?.state === "succeeded" || found?.state === "failed",
  ) as Promise<VerifyRun>;
}

const viewOf = (integrity: IntegrityReport): ResourceIntegrityView =>
  integrity.resources.find((resource) => resource.resourceId === setup.resource.resourceId)!;

/** The subject the catalog shows for a message (its search fields as written). */
const subjectOf = (item: StoredItem) =>
  (item as StoredItem & { search: { display?: { subject: string } } }).search.display?.subject ?? "";

beforeAll(async () => {
  setup = await organizationWithData(MESSAGES);
  const other = await organizationWithData(1);
  items = await backedUp(setup);
  expect(items).toHaveLength(MESSAGES);
  const [foreign] = await backedUp(other);
  const [flipped, truncated, deleted, swapped] = items;
  damaged = [flipped!, truncated!, deleted!, swapped!];
  await flipByte(await chunkOf(setup, flipped!));
  await truncate(await chunkOf(setup, truncated!));
  await deleteObject(await chunkOf(setup, deleted!));
  await replaceWith(await chunkOf(setup, swapped!), await chunkOf(other, foreign!));
  firstRun = await verify();
  afterDamage = await report();
});

test("when the organisation has had no daily verification yet, then the report says the first is due a day after set-up", async () => {
  const { dailyVerification } = await report();
  expect(dailyVerification.lastAt).toBeNull();
  // Set up minutes ago: the first daily verification is a day later (the manual ones do not count).
  const dueIn = Date.parse(dailyVerification.nextAt) - Date.now();
  expect(dueIn).toBeGreaterThan(23 * 3600 * 1000);
  expect(dueIn).toBeLessThanOrEqual(24 * 3600 * 1000);
});

test("when four messages' chunks are damaged four ways, then a verification finds and names each of them", () => {
  expect(firstRun.state).toBe("succeeded");
  expect(firstRun.progress.damagedItems).toBe(4);
  expect(firstRun.progress.checkedItems).toBe(MESSAGES + 1); // the messages and the file
  const view = viewOf(afterDamage);
  expect(view.lastVerifiedAt).toBe(view.integrity?.verifiedAt);
  expect(view.integrity).toMatchObject({ state: "damaged", damagedItems: 4, checkedItems: MESSAGES + 1 });
  expect(view.integrity!.damaged.map((item) => item.itemKey).sort()).toEqual(
    damaged.map((item) => item.itemKey).sort(),
  );
  for (const item of view.integrity!.damaged) {
    const stored = damaged.find((candidate) => candidate.itemKey === item.itemKey)!;
    expect(item).toEqual({
      itemKey: stored.itemKey,
      kind: "gmail-message",
      name: subjectOf(stored),
      refetch: "pending",
    });
    expect(item.name).toMatch(/^Quarterly figures \d /);
  }
  expect(afterDamage.resources[0]!.resourceId).toBe(setup.resource.resourceId); // damaged first
});

test("when damage is found, then the resources list carries it, an alert is raised and the audit log names the items", async () => {
  const resource = await resourceOf(setup.call, setup.organization, setup.workspace.user);
  expect(resource.integrity).toMatchObject({ state: "damaged", damagedItems: 4 });
  expect(resource.lastVerifiedAt).not.toBeNull();
  const alerts = await setup.call(`/organizations/${setup.organization.organizationId}/alerts`);
  const alert = (alerts.body as { alerts: { kind: string; message: string }[] }).alerts.find(
    (candidate) => candidate.kind === "integrity-damaged",
  );
  expect(alert?.message).toContain(`Backup integrity check of ${setup.workspace.user} found 4 damaged items`);
  const entries = (await auditOperations(setup.call, setup.organization)).filter(
    (entry) => entry.operation === "integrity.damaged",
  );
  expect(entries).toHaveLength(1);
  expect(entries[0]!.object).toBe(setup.workspace.user);
  for (const item of damaged) expect(entries[0]!.failureReason).toContain(subjectOf(item));
});

test("when the damage is healed, then the broken objects are gone so the next upload can write them again", async () => {
  const bucket = blobStore().bucket;
  for (const item of damaged) {
    const [exists] = await bucket.file(await chunkOf(setup, item)).exists();
    expect(exists).toBe(false);
  }
});

test("when the resource is backed up after the damage, then the damaged messages are fetched again and read back whole", async () => {
  const started = await backupNow(setup.call, setup.organization, setup.resource.resourceId);
  expect(started.status).toBe(202);
  const run = await finishedRun(
    setup.organization,
    setup.resource.resourceId,
    (started.body as { runId: string }).runId,
  );
  expect(run.state).toBe("succeeded");
  expect(run.progress?.items).toBe(4); // the four damaged messages, nothing else changed at Google
  const view = viewOf(await report());
  expect(view.integrity!.damaged.map((item) => item.refetch)).toEqual([
    "refetched",
    "refetched",
    "refetched",
    "refetched",
  ]);
  const scope = await objectScope(setup.organization);
  const now = await itemsOf(setup.organization, setup.resource.resourceId);
  for (const item of damaged) {
    const stored = now.find((candidate) => candidate.itemKey === item.itemKey)!;
    const content = await restoreVersion(blobStore(), scope, stored.current);
    expect(content.equals(setup.raws.get(item.sourceId)!)).toBe(true);
  }
});

test("when a verification runs after the healing backup, then it reads clean", async () => {
  const run = await verify();
  expect(run).toMatchObject({
    state: "succeeded",
    progress: { damagedItems: 0, checkedItems: MESSAGES + 1 },
  });
  const view = viewOf(await report());
  expect(view.integrity).toMatchObject({ state: "ok", damagedItems: 0, damaged: [] });
});

test("when a verification is already running, then another is refused with 409", async () => {
  // The first one's task is not delivered until the test drains it: it is still running when asked again.
  const first = await setup.call(`${base()}/verify`, { method: "POST", body: {} });
  expect(first.status).toBe(202);
  const second = await setup.call(`${base()}/verify`, { method: "POST", body: {} });
  expect(second).toMatchObject({ status: 409, body: { code: 409 } });
  await drainTasks();
  expect((await report()).runs.filter((run) => run.state === "pending" || run.state === "running")).toEqual(
    [],
  );
});

test("when two verifications are asked for at the same moment, then one starts and the other is refused with 409", async () => {
  const answers = await Promise.all(
    [1, 2].map(() => setup.call(`${base()}/verify`, { method: "POST", body: {} })),
  );
  expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
  expect(pendingTasks("verifyBackups")).toHaveLength(1);
  await drainTasks();
});

test("when the body names an unknown resource or holds anything else, then it is 404 or 400", async () => {
  const unknown = await setup.call(`${base()}/verify`, {
    method: "POST",
    body: { resourceId: "user-nobody" },
  });
  expect(unknown).toMatchObject({ status: 404, body: { code: 404 } });
  const extra = await setup.call(`${base()}/verify`, { method: "POST", body: { resourceId: 5, all: true } });
  expect(extra).toMatchObject({ status: 400, body: { code: 400 } });
});

test("when a non-admin of the same domain or another organisation's admin asks, then it is refused and nothing is revealed", async () => {
  const user = await asUser(setup.workspace.user);
  expect(await user(base())).toMatchObject({
    status: 403,
    body: { code: 403, message: ORGANIZATION_MESSAGES.notAdmin },
  });
  expect(await user(`${base()}/verify`, { method: "POST", body: {} })).toMatchObject({ status: 403 });
  const stranger = await organizationWithData(0);
  const answer = await stranger.call(base());
  expect(answer.status).toBe(404);
  expect(JSON.stringify(answer.body)).not.toContain("Quarterly");
  expect((await stranger.call(`${base()}/verify`, { method: "POST", body: {} })).status).toBe(404);
});
