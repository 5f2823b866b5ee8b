/**
 * Audit entries and the chain's head as the audit repository writes and seals them decode and read back
 * as written. An entry changed around the API is left out of the log's pages (it no longer decodes as an
 * entry) but still reaches the chain's check, which reports it as a broken link rather than failing.
 */
import { logger } from "firebase-functions";
import { regionDb } from "../lib/firebase";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import { appendAudit, listAudit, readAuditHead } from "./repo";
import { verifyAudit } from "./service";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const range = { from: "2026-03-01T00:00:00.000Z", to: "2026-03-02T00:00:00.000Z" };
const day = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, minute));

beforeEach(() => {
  jest.spyOn(logger, "error").mockImplementation(() => undefined);
  jest.spyOn(logger, "warn").mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

test("when entries are appended and sealed, then they and the head read back as written", async () => {
  await appendAudit(scope, {
    operation: "user.logged-in",
    actor: "admin@example.test",
    object: "Console",
    date: day(1),
  });
  await appendAudit(scope, {
    operation: "backup-item.searched",
    actor: "admin@example.test",
    object: "ada",
    date: day(2),
    key: "search-1",
  });
  await appendAudit(scope, {
    operation: "access.refused",
    actor: "user@example.test",
    object: "Console",
    failureReason: "Not an admin",
    date: day(3),
  });
  expect(await readAuditHead(scope)).toMatchObject({ seq: 3 });
  const page = await listAudit(scope, range, 1, 10);
  expect(page.entries.map(({ entryId: _id, ...entry }) => entry)).toEqual([
    {
      date: day(3).toISOString(),
      actor: "user@example.test",
      operation: "access.refused",
      object: "Console",
      failureReason: "Not an admin",
    },
    {
      date: day(2).toISOString(),
      actor: "admin@example.test",
      operation: "backup-item.searched",
      object: "ada",
      failureReason: null,
    },
    {
      date: day(1).toISOString(),
      actor: "admin@example.test",
      operation: "user.logged-in",
      object: "Console",
      failureReason: null,
    },
  ]);
  expect(await verifyAudit(scope, () => day(30))).toMatchObject({ intact: true, entries: 3 });
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when an entry is changed around the API, then the log's page leaves it out and the chain's check reports it", async () => {
  await regionDb("region-ch")
    .collection("organizations")
    .doc("org-1")
    .collection("auditLogs")
    .doc("search-1")
    .update({ actor: 42 });
  const page = await listAudit(scope, range, 1, 10);
  expect(page.totalEntries).toBe(3);
  expect(page.entries.map((entry) => entry.operation)).toEqual(["access.refused", "user.logged-in"]);
  expect(await verifyAudit(scope, () => day(30))).toMatchObject({
    intact: false,
    firstBroken: { entryId: "search-1" },
  });
});
