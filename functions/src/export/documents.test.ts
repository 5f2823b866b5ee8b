/**
 * Exports, their problems and their tails as the export repository writes them decode and read back as
 * written; an export that does not decode is left out of the list and fails a read with its kind and path.
 */
import { logger } from "firebase-functions";
import { regionDb } from "../lib/firebase";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import {
  createExport,
  expiredExports,
  exportProblems,
  finishExport,
  listExports,
  newExportId,
  readExport,
  readExportTail,
  recordExportDownload,
  saveExportCheckpoint,
  takeExportLease,
  writeExportProblem,
} from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const NOW = new Date("2026-03-01T10:00:00.000Z");

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test("when an export is created, delivered, checkpointed and finished, then it, its problems and its tail read back as written", async () => {
  const exportId = newExportId(scope);
  const job = {
    exportId,
    service: "gmail" as const,
    format: "mbox" as const,
    resourceId: "user-1",
    resourceName: "ada@example.test",
    fileName: "ada.mbox",
    objectName: `o/org-1/exports/${exportId}`,
    itemIds: null,
    asOf: null,
    within: null,
    requestedBy: "admin@example.test",
  };
  const created = await createExport(scope, job, NOW, { items: 3, bytes: 300 });
  expect(await readExport(scope, exportId)).toEqual(created);
  const leased = await takeExportLease(
    scope,
    exportId,
    "worker",
    "2026-03-01T10:05:00.000Z",
    NOW.toISOString(),
  );
  expect(leased).toMatchObject({ state: "running", deliveries: 1, startedAt: NOW.toISOString() });
  const problem = { itemKey: "m3", name: "Minutes", reason: "damaged" };
  await writeExportProblem(scope, exportId, problem);
  const checkpoint = { ...created.checkpoint, index: 3, uploaded: 262_144, entries: 2, sourceBytes: 300 };
  const progress = { ...created.progress, exported: 2, failed: 1, bytes: 250 };
  const tail = Buffer.from("the last bytes");
  expect(
    await saveExportCheckpoint(
      scope,
      { exportId, checkpoint, progress, problems: [problem] },
      tail,
      "worker",
    ),
  ).toBe(true);
  expect((await readExportTail(scope, exportId)).equals(tail)).toBe(true);
  const problems: unknown[] = [];
  for await (const each of exportProblems(scope, exportId)) problems.push(each);
  expect(problems).toEqual([problem]);
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
  const running = (await readExport(scope, exportId))!;
  expect(running).toMatchObject({
    checkpoint: { ...checkpoint, tail: tail.length },
    progress,
    problems: [problem],
  });
  const expiresAt = "2026-03-08T10:00:00.000Z";
  expect(await finishExport(scope, running, { state: "succeeded", expiresAt }, NOW, "worker")).toBe(true);
  expect(await recordExportDownload(scope, exportId, NOW)).toMatchObject({
    downloads: 1,
    state: "succeeded",
  });
  expect(await listExports(scope, 5)).toEqual([
    {
      ...running,
      state: "succeeded",
      finishedAt: NOW.toISOString(),
      expiresAt,
      lease: null,
      failureReason: null,
      downloads: 1,
      lastDownloadedAt: NOW.toISOString(),
    },
  ]);
  expect(await expiredExports(scope, "2026-03-09T00:00:00.000Z", 5)).toHaveLength(1);
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when an export does not decode, then the list leaves it out and reading it fails with its kind and path", async () => {
  const exports = regionDb("region-ch").collection("organizations").doc("org-1").collection("exports");
  await exports.doc("broken").set({ state: "running", requestedAt: "2026-03-02T10:00:00.000Z" });
  expect((await listExports(scope, 5)).map((each) => each.exportId)).not.toContain("broken");
  await expect(readExport(scope, "broken")).rejects.toMatchObject({
    kind: "export",
    path: "organizations/org-1/exports/broken",
  });
});

test("when an export was written before a label or folder could be named, then it reads as holding chosen items or a whole resource", async () => {
  const exportId = newExportId(scope);
  await createExport(
    scope,
    {
      exportId,
      service: "drive",
      format: "zip",
      resourceId: "user-1",
      resourceName: "ada@example.test",
      fileName: "ada.zip",
      objectName: `o/org-1/exports/${exportId}`,
      itemIds: null,
      asOf: null,
      within: "My Drive/Reports",
      requestedBy: "admin@example.test",
    },
    NOW,
    { items: 1, bytes: 10 },
  );
  const ref = regionDb("region-ch")
    .collection("organizations")
    .doc("org-1")
    .collection("exports")
    .doc(exportId);
  const { within, ...before } = (await ref.get()).data() ?? {};
  expect(within).toBe("My Drive/Reports");
  await ref.set(before);
  expect(await readExport(scope, exportId)).toMatchObject({ exportId, within: null });
});
