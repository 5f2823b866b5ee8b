/**
 * The catalog's documents as `FirestoreCatalog` writes them decode (the catalog conformance suite runs
 * the whole catalog over the in-memory Firestore: tests/engine/firestore-catalog.test.ts); here, what a
 * catalog document that does not decode gives: an item document without a current version, as a test
 * once wrote into the demo mailbox, made the recovery estimate a 500 TypeError.
 */
import { logger } from "firebase-functions";
import { StoredDocumentError } from "../../lib/stored";
import { regionDb } from "../../lib/firebase";
import { memoryDatabases as databases } from "../../testing/memory-firestore";
import { undecodedDocuments } from "../../testing/stored-kinds";
import { CATALOG_ITEM, CATALOG_VERSION } from "./documents";
import type { CatalogVersion } from "../../engine/runner/catalog";
import { chosenTotals } from "../service";
import { nextFolderPath, readStream } from "../../search/repo";
import { FirestoreCatalog, itemsAfter, itemsByKey } from "./repo";

jest.mock("../../lib/firebase", () =>
  jest
    .requireActual<typeof import("../../testing/memory-firestore")>("../../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const RESOURCE = "user-1";
const BROKEN_PATH = `organizations/org-1/resources/${RESOURCE}/items/mail-without-version`;

function driveVersion(itemKey: string): CatalogVersion {
  return {
    ...mailVersion(itemKey),
    kind: "drive-file",
    metadata: {
      name: "Budget.xlsx",
      mimeType: "application/vnd.ms-excel",
      path: "My Drive/Finance",
      version: "7",
    },
    search: {
      kind: "drive",
      display: { name: "Budget.xlsx", path: "My Drive/Finance" },
      name: "budget.xlsx",
      path: "my drive/finance",
      mimeType: "application/vnd.ms-excel",
      createdBy: "ada@example.test",
      modifiedTime: "2026-03-01T09:00:00.000Z",
      size: 1234,
      googleId: itemKey,
      keywords: ["budget", "xlsx"],
    },
  };
}

function mailVersion(itemKey: string): CatalogVersion {
  return {
    versionId: `${itemKey}@1`,
    itemKey,
    kind: "gmail-message",
    versionKey: "1",
    contentKey: itemKey,
    capturedAt: "2026-03-01T10:00:00.000Z",
    runId: "run-1",
    size: 1234,
    storedBytes: 800,
    contentDigest: "d".repeat(64),
    dataKeyId: "0123456789abcdef0123456789abcdef",
    metadata: { labels: [{ id: "INBOX", name: "inbox" }], threadId: `thread-${itemKey}`, historyId: "1" },
    search: {
      kind: "mail",
      subject: "figures",
      fromName: "ada",
      fromEmail: "ada@example.test",
      to: ["ueli@example.test"],
      date: "2026-03-01T09:00:00.000Z",
      labels: ["inbox"],
      size: 1234,
      keywords: ["figures"],
    },
    formatVersion: 1,
    chunks: [{ id: "c".repeat(64), size: 1234 }],
  };
}

const logged: unknown[][] = [];

beforeAll(async () => {
  await new FirestoreCatalog(scope).writeVersions(RESOURCE, [mailVersion("mail-1"), driveVersion("file-1")]);
  // An item document without its current version: never written by the catalog.
  await regionDb("region-ch")
    .doc(BROKEN_PATH)
    .set({
      itemKey: "mail-without-version",
      sourceId: "mail-without-version",
      kind: "gmail-message",
      currentVersionId: "mail-without-version@1",
      deletedAtSource: null,
      firstSeenAt: "2026-03-01T10:00:00.000Z",
      lastSeenAt: "2026-03-01T10:00:00.000Z",
      search: mailVersion("mail-without-version").search,
    });
});

beforeEach(() => {
  logged.length = 0;
  jest.spyOn(logger, "error").mockImplementation((...args: unknown[]) => {
    logged.push(args);
  });
});

afterEach(() => jest.restoreAllMocks());

test("when the catalog writes an item, then every document it wrote decodes, and only the item without a version does not", () => {
  expect(undecodedDocuments(databases)).toEqual([
    { database: "region-ch", path: BROKEN_PATH, kind: "catalog item", fields: ["current"] },
  ]);
});

test("when an item or a version was written before a field existed, then it still decodes without it", async () => {
  const [item] = await itemsByKey(scope, RESOURCE, ["mail-1"]);
  const { capturedAt: _capturedAt, ...olderCurrent } = item!.current;
  expect(CATALOG_ITEM.decode({ ...item, current: olderCurrent }, "mail-1")).toEqual({
    success: true,
    value: { ...item, current: olderCurrent },
  });
  const { endedAt: _endedAt, ...olderVersion } = { ...mailVersion("mail-1"), endedAt: null };
  expect(CATALOG_VERSION.decode(olderVersion, "mail-1@1")).toEqual({ success: true, value: olderVersion });
});

test("when search reads the items the catalog wrote, then each decodes as search sees it, and the broken one has none", async () => {
  const mail = await readStream(scope, RESOURCE, "gmail-message", {}, undefined, 10);
  expect(mail.map((entry) => [entry.id, entry.item?.current?.capturedAt])).toEqual([
    ["mail-without-version", undefined],
    ["mail-1", "2026-03-01T10:00:00.000Z"],
  ]);
  const [file] = await readStream(scope, RESOURCE, "drive-file", {}, undefined, 10);
  expect(file?.item).toMatchObject({
    itemKey: "file-1",
    current: { metadata: { version: "7" } },
    search: { kind: "drive" },
  });
  expect(await nextFolderPath(scope, RESOURCE, "", "\uf8ff")).toEqual({
    path: "my drive/finance",
    shown: "My Drive/Finance",
  });
});

test("when items are read by key and one has no current version, then it is not held (left out, logged)", async () => {
  const [held, broken] = await itemsByKey(scope, RESOURCE, ["mail-1", "mail-without-version"]);
  expect(held).toMatchObject({ itemKey: "mail-1", current: { size: 1234 } });
  expect(broken).toBeUndefined();
  expect(logged).toEqual([
    [
      "stored document unreadable",
      { kind: "catalog item", path: BROKEN_PATH, fields: ["current"], handling: "skipped" },
    ],
  ]);
});

test("when a recovery of named items is estimated and one has no current version, then the estimate counts the others", async () => {
  const totals = await chosenTotals(scope, {
    resourceId: RESOURCE,
    kind: "gmail-message",
    itemIds: ["mail-1", "mail-without-version"],
    asOf: null,
  });
  expect(totals).toEqual({ items: 1, bytes: 1234, contentless: 0 });
});

test("when a whole mailbox is walked and an item has no current version, then the walk fails with the kind and path", async () => {
  const walk = itemsAfter(scope, RESOURCE, "gmail-message", null, 10);
  await expect(walk).rejects.toBeInstanceOf(StoredDocumentError);
  await expect(walk).rejects.toMatchObject({ kind: "catalog item", path: BROKEN_PATH, fields: ["current"] });
});

test("when the runner reads items and one has no current version, then it fails with the kind and path, not a TypeError", async () => {
  await expect(
    new FirestoreCatalog(scope).getItems(RESOURCE, ["mail-without-version"]),
  ).rejects.toMatchObject({
    name: "StoredDocumentError",
    message: `The stored catalog item ${BROKEN_PATH} does not decode (current)`,
  });
});
