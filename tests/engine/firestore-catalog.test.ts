/**
 * The catalog conformance suite against the Firestore catalog (`backups/catalog/repo.ts`) over the
 * in-memory Firestore: the documents it writes are read back through their kinds' schemas, so every item,
 * version, chunk index entry and run it writes decodes.
 */
import { regionDb } from "../../functions/src/lib/firebase";
import { decodeDocument, decodeDocuments } from "../../functions/src/lib/stored";
import { FirestoreCatalog } from "../../functions/src/backups/catalog/repo";
import { CATALOG_ITEM, CATALOG_VERSION, CHUNK_ENTRY } from "../../functions/src/backups/catalog/documents";
import { catalogDocId } from "../../functions/src/engine/runner/catalog-ids";
import { describeCatalog } from "../support/catalog-conformance";
import { catalogVersionKind, keyringOf } from "../../functions/src/backups/catalog/sealed-documents";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";

jest.mock("../../functions/src/lib/firebase", () =>
  jest
    .requireActual<typeof import("../../functions/src/testing/memory-firestore")>(
      "../../functions/src/testing/memory-firestore",
    )
    .memoryFirebase(),
);

let organizations = 0;

describeCatalog("FirestoreCatalog (in memory)", () => {
  organizations += 1;
  const scope = { organizationId: `org-${organizations}`, regionId: "ch" } as const;
  const organization = regionDb("region-ch").collection("organizations").doc(scope.organizationId);
  const items = (resourceId: string) =>
    organization.collection("resources").doc(resourceId).collection("items");
  return {
    catalog: new FirestoreCatalog(scope),
    createRun: async ({ runId, ...fields }) => {
      await organization
        .collection("backupRuns")
        .doc(runId)
        .create({
          state: "pending",
          cursor: null,
          progress: { items: 0, bytes: 0, storedBytes: 0 },
          ...fields,
        });
    },
    versions: async (resourceId, itemKey) => {
      const keys =
        itemKey === undefined
          ? decodeDocuments(CATALOG_ITEM, (await items(resourceId).get()).docs).map((item) => item.itemKey)
          : [itemKey];
      const versions = await Promise.all(
        keys.map(
          async (key) => (await items(resourceId).doc(catalogDocId(key)).collection("versions").get()).docs,
        ),
      );
      return decodeDocuments(CATALOG_VERSION, versions.flat());
    },
    chunkEntry: async (chunkId) =>
      decodeDocument(CHUNK_ENTRY, await organization.collection("chunkRefs").doc(chunkId).get()),
  };
});

/** The same suite with every item and version written in catalog format v2 (sealed, docs/backup-format.md §9). */
describeCatalog("FirestoreCatalog (in memory, format v2)", () => {
  organizations += 1;
  const keys = deriveKeys(newDataKey());
  const scope = {
    organizationId: `org-${organizations}`,
    regionId: "ch",
    keyring: keyringOf(`org-${organizations}`, [keys]),
  } as const;
  const organization = regionDb("region-ch").collection("organizations").doc(scope.organizationId);
  const items = (resourceId: string) =>
    organization.collection("resources").doc(resourceId).collection("items");
  return {
    catalog: new FirestoreCatalog(scope, keys),
    createRun: async ({ runId, ...fields }) => {
      await organization
        .collection("backupRuns")
        .doc(runId)
        .create({
          state: "pending",
          cursor: null,
          progress: { items: 0, bytes: 0, storedBytes: 0 },
          ...fields,
        });
    },
    versions: async (resourceId, itemKey) => {
      const docs = await Promise.all(
        (await items(resourceId).get()).docs
          .filter((doc) => doc.id === catalogDocId(itemKey))
          .map(async (doc) => {
            // Every item and version is stored sealed: nothing of its search fields or metadata in clear.
            expect(doc.data()).toEqual(
              expect.objectContaining({ sealed: expect.any(String), index: expect.anything() }),
            );
            expect(doc.data()).not.toHaveProperty("search");
            return (await doc.ref.collection("versions").get()).docs;
          }),
      );
      for (const doc of docs.flat()) expect(doc.data()).not.toHaveProperty("search");
      return decodeDocuments(catalogVersionKind(scope), docs.flat());
    },
    chunkEntry: async (chunkId) =>
      decodeDocument(CHUNK_ENTRY, await organization.collection("chunkRefs").doc(chunkId).get()),
  };
});
