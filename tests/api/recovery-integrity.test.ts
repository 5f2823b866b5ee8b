/**
 * Recovering from damaged backups, through the API on the stack: each of four kinds of damage to one
 * message's stored chunk (a flipped byte, a truncated object, a deleted object, the chunk of another
 * organisation put in its place) makes that message fail with "integrity check failed", named in the
 * recovery's answer and in its report, while every good message is restored and the counts add up.
 * Exports complete without the damaged items: streamed ones leave them out (the Drive archive's report names
 * the damaged file); export jobs complete with the good items, name the damaged ones in their problems and
 * report, and their file, downloaded through a signed link, holds every good item byte for byte.
 */
import { RECOVERY_ITEM_REASONS, type Recovery } from "@alpvault/contracts/recovery";
import { unzip } from "../../emulators/workspace/src/index";
import { EXPORT_REPORT_NAME } from "../../functions/src/export/service";
import { parseMbox } from "../../functions/src/export/mbox";
import { organizationWithData } from "../support/backup-runs";
import { backedUp, chunkOf, deleteObject, flipByte, replaceWith, truncate } from "../support/damage";
import { recoveriesOf } from "../support/recoveries";
import { exportsOf } from "../support/exports";
import { readMbox } from "../support/mbox-reader";
import { EXPORT_ITEM_REASONS, EXPORT_MESSAGES, type ExportJob } from "@alpvault/contracts/exports";
import { Readable } from "node:stream";

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

describe("export jobs", () => {
  const jobs = () => exportsOf(setup.call, setup.organization);
  const items = () => backedUp(setup);

  async function finishedJob(body: Record<string, unknown>): Promise<ExportJob> {
    const started = await jobs().start(body);
    expect(started.status).toBe(202);
    const job = started.body as ExportJob;
    expect(["pending", "running"]).toContain(job.state);
    return jobs().finished(job.exportId);
  }

  function expectDamagedNamed(job: ExportJob, good: number, bad: number) {
    expect(job.state).toBe("succeeded");
    expect(job.progress).toMatchObject({ total: good + bad, exported: good, failed: bad });
    expect(job.progress.bytes).toBeGreaterThan(0);
    expect(job.expiresAt! > job.finishedAt!).toBe(true);
    expect(job.problems.map((problem) => problem.itemKey).sort()).toEqual(
      bad === damaged.size ? [...damaged.keys()].sort() : expect.any(Array),
    );
    for (const problem of job.problems) expect(problem.reason).toBe(EXPORT_ITEM_REASONS.integrity);
  }

  test("when the mailbox is exported as a job, then the MBOX in the bucket holds every good message byte for byte and the damaged four are named", async () => {
    const job = await finishedJob({
      resourceId: setup.resource.resourceId,
      service: "gmail",
      format: "mbox",
    });
    expectDamagedNamed(job, MESSAGES - damaged.size, damaged.size);
    for (const problem of job.problems) expect(problem.name).toMatch(/^Quarterly figures \d /);
    expect(job.fileName).toMatch(/\.mbox$/);

    const { bytes, link, disposition } = await jobs().download(job.exportId);
    expect(new URL(link.url).searchParams.get("X-Goog-Signature")).toMatch(/^[0-9a-f]+$/);
    expect(disposition).toBe(`attachment; filename="${job.fileName}"`);
    // Neither the object's name nor the download's URL names the mailbox.
    const address = (setup.resource.email ?? "").toLowerCase();
    expect(address).toContain("@");
    expect(job.fileName).toMatch(
      new RegExp(`^${setup.resource.resourceId}-mail-\\d{4}-\\d{2}-\\d{2}\\.mbox$`),
    );
    expect(decodeURIComponent(link.url).toLowerCase()).not.toContain(address);
    expect(decodeURIComponent(link.url)).toContain(`/x/${job.exportId}/export.mbox`);
    expect(bytes.length).toBe(job.progress.bytes);
    const messages: Buffer[] = [];
    for await (const message of readMbox(Readable.from([bytes]))) messages.push(message);
    expect(messages).toHaveLength(MESSAGES - damaged.size);
    for (const item of await items()) {
      const raw = setup.raws.get(item.sourceId)!;
      expect(messages.some((message) => message.equals(raw))).toBe(!damaged.has(item.itemKey));
    }

    const report = await setup.call(`${jobs().base}/${job.exportId}/report`);
    expect(report.status).toBe(200);
    const rows = report.bytes.toString("utf8").trim().split("\r\n");
    expect(rows[0]).toBe("item,name,reason");
    expect(
      rows
        .slice(1)
        .map((row) => row.split(",")[0])
        .sort(),
    ).toEqual([...damaged.keys()].sort());
    for (const row of rows.slice(1)) expect(row.endsWith(`,${EXPORT_ITEM_REASONS.integrity}`)).toBe(true);

    const after = (await setup.call(`${jobs().base}/${job.exportId}`)).body as ExportJob;
    expect(after.downloads).toBe(1);
    expect(after.lastDownloadedAt).not.toBeNull();
    const listed = (await setup.call(jobs().base)).body as { exports: ExportJob[] };
    expect(listed.exports.map((entry) => entry.exportId)).toContain(job.exportId);
  });

  test("when chosen messages are exported as .eml files, then the archive holds the good ones and a report entry naming the damaged ones", async () => {
    const all = await items();
    const chosen = all.slice(0, 3).map((item) => item.itemKey); // flipped, truncated, and a deleted chunk
    const job = await finishedJob({
      resourceId: setup.resource.resourceId,
      service: "gmail",
      format: "eml",
      itemIds: [...chosen, all[5]!.itemKey],
    });
    expect(job.state).toBe("succeeded");
    expect(job.progress).toMatchObject({ total: 4, exported: 1, failed: 3 });
    const { bytes } = await jobs().download(job.exportId);
    const entries = unzip(bytes);
    const emls = [...entries.keys()].filter((name) => name.endsWith(".eml"));
    expect(emls).toHaveLength(1);
    expect(entries.get(emls[0]!)!.equals(setup.raws.get(all[5]!.sourceId)!)).toBe(true);
    const report = entries.get(EXPORT_REPORT_NAME)!.toString("utf8");
    for (const itemKey of chosen) expect(report).toContain(`${itemKey},`);
    expect(report).not.toContain(all[5]!.itemKey);
  });

  test("when the drive is exported as a job, then the ZIP leaves the damaged file out and its report entry names it", async () => {
    const job = await finishedJob({ resourceId: setup.resource.resourceId, service: "drive" });
    expect(job.state).toBe("succeeded");
    expect(job.format).toBe("zip");
    expect(job.progress.failed).toBe(1);
    expect(job.problems[0]).toMatchObject({ name: "budget.txt", reason: EXPORT_ITEM_REASONS.integrity });
    const { bytes } = await jobs().download(job.exportId);
    const entries = unzip(bytes);
    expect([...entries.keys()].some((name) => name.endsWith("budget.txt"))).toBe(false);
    expect(entries.size).toBe(job.progress.exported + 1);
    expect(entries.get(EXPORT_REPORT_NAME)?.toString("utf8")).toMatch(
      /budget\.txt,integrity check failed\r\n$/,
    );
  });

  test("when an export asks for a format its service does not offer, or names a bad id, then 400 with the reason", async () => {
    for (const body of [
      { resourceId: setup.resource.resourceId, service: "drive", format: "mbox" },
      { resourceId: setup.resource.resourceId, service: "gmail", format: "zip" },
      { resourceId: "../x", service: "gmail" },
      { resourceId: setup.resource.resourceId, service: "gmail", itemIds: ["a/b"] },
      { resourceId: setup.resource.resourceId, service: "gmail", surprise: true },
    ]) {
      const answer = await jobs().start(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ message: EXPORT_MESSAGES.invalid });
    }
    const missing = await setup.call(`${jobs().base}/nosuchexport`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ message: EXPORT_MESSAGES.exportNotFound });
  });

  test("when another organisation's admin asks for an export, its report or its link, then it is refused and nothing is revealed", async () => {
    const job = (await jobs().start({ resourceId: setup.resource.resourceId, service: "gmail" }))
      .body as ExportJob;
    await jobs().finished(job.exportId);
    const stranger = await organizationWithData(0);
    for (const [path, method] of [
      [`${jobs().base}/${job.exportId}`, "GET"],
      [`${jobs().base}/${job.exportId}/report`, "GET"],
      [`${jobs().base}/${job.exportId}/download`, "POST"],
      [jobs().base, "GET"],
    ] as const) {
      const answer = await stranger.call(path, { method });
      expect([403, 404]).toContain(answer.status);
      expect(answer.bytes.toString("utf8")).not.toMatch(/Quarterly|X-Goog-Signature/);
    }
  });
});
