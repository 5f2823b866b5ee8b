/**
 * Recovering from damaged backups, through the API on the stack: each of four kinds of damage to one
 * message's stored chunk (a flipped byte, a truncated object, a deleted object, the chunk of another
 * organisation put in its place) makes that message fail with "integrity check failed", named in the
 * recovery's answer and in its report, while every good message is restored and the counts add up.
 * Exports complete without the damaged items (the Drive archive's report names the damaged file).
 */
import { RECOVERY_ITEM_REASONS, type Recovery } from "@alpvault/contracts/recovery";
import { unzip } from "../../emulators/workspace/src/drive/unzip";
import { EXPORT_REPORT_NAME } from "../../functions/src/export/service";
import { parseMbox } from "../../functions/src/export/mbox";
import { organizationWithData } from "../support/backup-runs";
import { backedUp, chunkOf, deleteObject, flipByte, replaceWith, truncate } from "../support/damage";
import { recoveriesOf } from "../support/recoveries";

jest.setTimeout(240_000);

type Setup = Awaited<ReturnType<typeof organizationWithData>>;

const MESSAGES = 6;
let setup: Setup;
let damaged: Map<string, string>;
let recovery: Recovery;
let report: string;

beforeAll(async () => {
  setup = await organizationWithData(MESSAGES);
  const other = await organizationWithData(1);
  const items = await backedUp(setup);
  expect(items).toHaveLength(MESSAGES);
  const [foreign] = await backedUp(other);
  const [flipped, truncated, deleted, swapped] = items;
  damaged = new Map();

  await flipByte(await chunkOf(setup, flipped!));
  damaged.set(flipped!.itemKey, "a flipped byte");

  await truncate(await chunkOf(setup, truncated!));
  damaged.set(truncated!.itemKey, "a truncated object");

  await deleteObject(await chunkOf(setup, deleted!));
  damaged.set(deleted!.itemKey, "a deleted object");

  await replaceWith(await chunkOf(setup, swapped!), await chunkOf(other, foreign!));
  damaged.set(swapped!.itemKey, "another organisation's chunk");
  const [file] = await backedUp(setup, "drive-file");
  await flipByte(await chunkOf(setup, file!));

  const recoveries = recoveriesOf(setup.call, setup.organization);
  const started = await recoveries.start({
    resourceId: setup.resource.resourceId,
    service: "gmail",
    location: "original",
    method: "folder",
    folderName: "Integrity",
  });
  expect(started.status).toBe(202);
  recovery = await recoveries.finished((started.body as Recovery).recoveryId);
  const answer = await setup.call(
    `/organizations/${setup.organization.organizationId}/recoveries/${recovery.recoveryId}/report`,
  );
  expect(answer.status).toBe(200);
  expect(answer.contentType).toMatch(/^text\/csv/);
  report = answer.bytes.toString("utf8");
});

test("when four messages' chunks are damaged, then the recovery restores the others and fails naming the four", () => {
  const { total, restored, skipped, failed } = recovery.progress;
  expect(recovery.state).toBe("failed");
  expect(failed).toBe(damaged.size);
  expect(restored).toBe(MESSAGES - damaged.size);
  expect(total).toBe(restored + skipped + failed);
  expect(recovery.failureReason).toBe(`${damaged.size} of ${total} items could not be recovered`);
  expect(recovery.problems.map((problem) => problem.itemKey).sort()).toEqual([...damaged.keys()].sort());
  for (const problem of recovery.problems) {
    expect(problem).toMatchObject({ outcome: "failed", reason: RECOVERY_ITEM_REASONS.integrity });
    expect(problem.name).toMatch(/^Quarterly figures \d /);
  }
});

test("when the report is downloaded, then it has one line per message with its outcome and why", () => {
  const lines = report.trim().split("\r\n");
  expect(lines[0]).toBe("item,name,outcome,reason");
  const rows = lines.slice(1).map((line) => line.split(","));
  expect(rows).toHaveLength(MESSAGES);
  for (const [itemKey, name, outcome, reason] of rows) {
    expect(name).toMatch(/^Quarterly figures \d /);
    if (damaged.has(itemKey!)) expect([outcome, reason]).toEqual(["failed", RECOVERY_ITEM_REASONS.integrity]);
    else expect([outcome, reason]).toEqual(["restored", ""]);
  }
});

test("when another organisation's admin asks for the report, then it is refused and nothing is revealed", async () => {
  const stranger = await organizationWithData(0);
  const answer = await stranger.call(
    `/organizations/${setup.organization.organizationId}/recoveries/${recovery.recoveryId}/report`,
  );
  expect([403, 404]).toContain(answer.status);
  expect(answer.bytes.toString("utf8")).not.toContain("Quarterly");
});

test("when the mailbox is exported, then the download completes with every good message and leaves the damaged ones out", async () => {
  const answer = await setup.call(`/organizations/${setup.organization.organizationId}/exports/mbox`, {
    method: "POST",
    body: { resourceId: setup.resource.resourceId, service: "gmail" },
  });
  expect(answer.status).toBe(200);
  const messages = parseMbox(answer.bytes);
  expect(messages).toHaveLength(MESSAGES - damaged.size);
  const items = await backedUp(setup);
  for (const item of items) {
    const raw = setup.raws.get(item.sourceId)!;
    expect(messages.some((message) => message.equals(raw))).toBe(!damaged.has(item.itemKey));
  }
});

test("when the drive is exported, then the archive completes and its report names the damaged file instead of holding it", async () => {
  const answer = await setup.call(`/organizations/${setup.organization.organizationId}/exports/zip`, {
    method: "POST",
    body: { resourceId: setup.resource.resourceId, service: "drive" },
  });
  expect(answer.status).toBe(200);
  const entries = unzip(answer.bytes);
  expect([...entries.keys()].some((name) => name.endsWith("budget.txt"))).toBe(false);
  expect(entries.get(EXPORT_REPORT_NAME)?.toString("utf8")).toMatch(
    /^folder,name,reason\r\n[^\r\n]*,budget\.txt,integrity check failed\r\n$/,
  );
});
