/**
 * Catalog format v2's documents (docs/backup-format.md §9.2): what the Firestore catalog stores of an item
 * and a version holds nothing a person wrote; read back through the scope's keys it is the item as
 * written; moved, altered, or read without the keys it is not.
 */
import { logger } from "firebase-functions";
import { regionDb } from "../../lib/firebase";
import { decodeDocument, StoredDocumentError } from "../../lib/stored";
import { deriveKeys, newDataKey } from "../../engine/format/keys";
import type { CatalogVersion } from "../../engine/runner/catalog";
import { catalogDocId } from "../../engine/runner/catalog-ids";
import { testVersion } from "./testing";
import { FirestoreCatalog, itemsAfter, itemsByKey, versionAt } from "./repo";
import { catalogItemKind, isSealed, keyringOf, MissingCatalogKeysError } from "./sealed-documents";

jest.mock("../../lib/firebase", () =>
  jest
    .requireActual<typeof import("../../testing/memory-firestore")>("../../testing/memory-firestore")
    .memoryFirebase(),
);

const MARKER = "zq7sealed";
const keys = deriveKeys(newDataKey());
const scope = {
  organizationId: "org-sealed",
  regionId: "ch",
  keyring: keyringOf("org-sealed", [keys]),
} as const;
const RESOURCE = "user-1";
const items = regionDb("region-ch").collection(
  `organizations/${scope.organizationId}/resources/${RESOURCE}/items`,
);

function mailVersion(itemKey: string): CatalogVersion {
  return testVersion(
    itemKey,
    "gmail-message",
    {
      kind: "mail",
      display: { subject: `Figures ${MARKER}`, fromName: "Ada Muster" },
      subject: `figures ${MARKER}`,
      fromName: "ada muster",
      fromEmail: `ada.${MARKER}@example.test`,
      to: ["ueli@example.test"],
      date: "2026-03-01T09:00:00.000Z",
      labels: [`projects ${MARKER}`],
      size: 1234,
      keywords: ["figures", MARKER],
    },
    {
      size: 1234,
      storedBytes: 800,
      dataKeyId: keys.dataKeyId,
      metadata: {
        labels: [{ id: "Label_1", name: `Projects ${MARKER}` }],
        threadId: `thread-${itemKey}`,
        historyId: "1",
      },
    },
  );
}

beforeAll(async () => {
  await new FirestoreCatalog(scope, keys).writeVersions(RESOURCE, [
    mailVersion("mail-1"),
    mailVersion("mail-2"),
  ]);
});

afterEach(() => jest.restoreAllMocks());

test("when an item and its version are stored in format v2, then neither document holds a word, name or address of the mail", async () => {
  const item = await items.doc("mail-1").get();
  const version = await items.doc("mail-1").collection("versions").doc(catalogDocId("mail-1@1")).get();
  for (const stored of [JSON.stringify(item.data()), JSON.stringify(version.data())]) {
    for (const secret of [MARKER, "figures", "muster", "ueli@", "example.test", "projects"]) {
      expect(stored).not.toContain(secret);
    }
  }
  expect(item.data()).toMatchObject({ index: { key: keys.dataKeyId, date: "2026-03-01T09:00:00.000Z" } });
});

test("when the catalog reads v2 documents with the scope's keys, then they are the item and version as written", async () => {
  const [item] = await itemsByKey(scope, RESOURCE, ["mail-1"]);
  expect(item?.search).toEqual(mailVersion("mail-1").search);
  expect(item?.current.metadata).toEqual(mailVersion("mail-1").metadata);
  expect(
    (await itemsAfter(scope, RESOURCE, "gmail-message", null, 10)).map((entry) => entry.itemKey),
  ).toEqual(["mail-1", "mail-2"]);
  expect(await versionAt(scope, RESOURCE, "mail-1", "2026-03-02T00:00:00.000Z")).toEqual({
    ...mailVersion("mail-1"),
    endedAt: null,
  });
});

test("when a v2 document is read without the catalog's keys, then the read fails as the reader's mistake, never as data", async () => {
  const plain = { organizationId: scope.organizationId, regionId: scope.regionId };
  await expect(itemsByKey(plain, RESOURCE, ["mail-1"])).rejects.toBeInstanceOf(MissingCatalogKeysError);
});

test("when a sealed value is moved to another item, altered, or read with another key, then the document does not decode", async () => {
  jest.spyOn(logger, "error").mockImplementation(() => undefined);
  const one = await items.doc("mail-1").get();
  const two = await items.doc("mail-2").get();
  const data = one.data();
  const sealedOfOne = isSealed(data) ? data.sealed : "";
  const moved = { ...two.data(), sealed: sealedOfOne };
  const altered = { ...one.data(), sealed: `${sealedOfOne.slice(0, -2)}AA` };
  const kind = catalogItemKind(scope);
  const snapshot = (path: string, data: unknown) => ({
    id: path.split("/").pop()!,
    exists: true,
    ref: { path },
    data: () => data,
  });
  expect(() => decodeDocument(kind, snapshot(two.ref.path, moved))).toThrow(StoredDocumentError);
  expect(() => decodeDocument(kind, snapshot(one.ref.path, altered))).toThrow(StoredDocumentError);
  const other = catalogItemKind({
    ...scope,
    keyring: keyringOf(scope.organizationId, [deriveKeys(newDataKey())]),
  });
  expect(() => decodeDocument(other, one)).toThrow(StoredDocumentError);
  // The same document decodes where it is, with its key.
  expect(decodeDocument(kind, one)?.itemKey).toBe("mail-1");
});
