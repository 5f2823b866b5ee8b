/**
 * Resources, alerts and the sync state as the resources repository writes them decode and read back as
 * written; a resource that does not decode is left out of the lists and fails a read with its kind and
 * path.
 */
import { logger } from "firebase-functions";
import { regionDb } from "../lib/firebase";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import {
  addAlert,
  applySync,
  listAlerts,
  listResources,
  lastSyncAt,
  markAllAlertsRead,
  putAlert,
  readResourceDetail,
  usageCounts,
} from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const at = "2026-03-01T10:00:00.000Z";

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test("when a sync adds and removes resources and alerts are raised, then they read back as written", async () => {
  await applySync(
    scope,
    [
      { resourceId: "user-1", type: "email", name: "Ada", email: "ada@example.test", status: "active" },
      { resourceId: "drive-1", type: "shared_drive", name: "Finance", email: null, status: "active" },
    ],
    at,
  );
  await applySync(
    scope,
    [{ resourceId: "user-1", type: "email", name: "Ada B.", email: "ada@example.test", status: "suspended" }],
    at,
  );
  const empty = {
    policyId: null,
    policyName: null,
    protected: false,
    lastBackupAt: null,
    nextBackupAt: null,
    mailBackupBytes: 0,
    driveBackupBytes: 0,
    calendarBackupBytes: 0,
    contactsBackupBytes: 0,
    activeBackup: null,
    lastBackupFailure: null,
    services: {},
    lastVerifiedAt: null,
    integrity: null,
  };
  expect(await listResources(scope)).toEqual([
    {
      ...empty,
      resourceId: "drive-1",
      type: "shared_drive",
      name: "Finance",
      email: null,
      status: "deleted",
    },
    {
      ...empty,
      resourceId: "user-1",
      type: "email",
      name: "Ada B.",
      email: "ada@example.test",
      status: "suspended",
    },
  ]);
  expect(await readResourceDetail(scope, "user-1")).toMatchObject({
    name: "Ada B.",
    mailItems: 0,
    driveItems: 0,
  });
  expect(await lastSyncAt(scope)).toBe(at);
  expect(await usageCounts(scope)).toEqual({ emails: 0, files: 0, lastCycleBytes: 0 });

  const alert = {
    createdAt: at,
    kind: "resources-added" as const,
    message: "2 resources were added.",
    read: false,
  };
  await addAlert(scope, alert);
  const drill = {
    ...alert,
    createdAt: "2026-03-02T10:00:00.000Z",
    kind: "drill-failed" as const,
    message: "The drill failed.",
  };
  await putAlert(scope, "drill-1", drill);
  expect(await markAllAlertsRead(scope)).toBe(2);
  expect((await listAlerts(scope, 10)).map(({ alertId: _id, ...rest }) => rest)).toEqual([
    { ...drill, read: true },
    { ...alert, read: true },
  ]);
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when a resource does not decode, then the lists leave it out and reading it fails with its kind and path", async () => {
  const resources = regionDb("region-ch").collection("organizations").doc("org-1").collection("resources");
  await resources.doc("broken").set({ type: "calendar", name: "Room 1" });
  expect((await listResources(scope)).map((resource) => resource.resourceId)).toEqual(["drive-1", "user-1"]);
  await expect(readResourceDetail(scope, "broken")).rejects.toMatchObject({
    kind: "resource",
    path: "organizations/org-1/resources/broken",
    fields: ["type"],
  });
});
