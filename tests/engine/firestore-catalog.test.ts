/**
 * The catalog conformance suite against the Firestore catalog (`backups/catalog/repo.ts`) over the
 * in-memory Firestore, in each catalog format: the versions and chunk index entries it writes are read back
 * through their kinds' schemas, so they decode; of version 2, every item and version is stored sealed.
 */
import { regionDb } from "../../functions/src/lib/firebase";
import { decodeDocument, decodeDocuments } from "../../functions/src/lib/stored";
import { FirestoreCatalog } from "../../functions/src/backups/catalog/repo";
import { CHUNK_ENTRY } from "../../functions/src/backups/catalog/documents";
import { catalogDocId } from "../../functions/src/engine/runner/catalog-ids";
import { describeCatalog, type CatalogUnderTest } from "../support/catalog-conformance";
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

/**
 * A Firestore catalog of a new organisation, in catalog format `format`. Of version 2 it also checks that
 * every item and version it reads back is stored sealed: nothing of its search fields or metadata in clear.
 */
function firestoreCatalogUnderTest(format: 1 | 2): CatalogUnderTest {
  organizations += 1;
  const organizationId = `org-${organizations}`;
  const keys = deriveKeys(newDataKey());
  const scope =
    format === 2
      ? { organizationId, regionId: "ch" as const, keyring: keyringOf(organizationId, [keys]) }
      : { organizationId, regionId: "ch" as const };
  const organization = regionDb("region-ch").collection("organizations").doc(organizationId);
  return {
    catalog: format === 2 ? new FirestoreCatalog(scope, keys) : new FirestoreCatalog(scope),
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
      const item = organization
        .collection("resources")
        .doc(resourceId)
        .collection("items")
        .doc(catalogDocId(itemKey));
      const versions = (await item.collection("versions").get()).docs;
      if (format === 2) {
        const stored = await item.get();
        if (stored.exists) {
          expect(stored.data()).toEqual(
            expect.objectContaining({ sealed: expect.any(String), index: expect.anything() }),
          );
          expect(stored.data()).not.toHaveProperty("search");
        }
        for (const doc of versions) expect(doc.data()).not.toHaveProperty("search");
      }
      return decodeDocuments(catalogVersionKind(scope), versions);
    },
    chunkEntry: async (chunkId) =>
      decodeDocument(CHUNK_ENTRY, await organization.collection("chunkRefs").doc(chunkId).get()),
  };
}

describeCatalog("FirestoreCatalog (in memory)", () => firestoreCatalogUnderTest(1));

/** The same suite with every item and version written in catalog format v2 (sealed, docs/backup-format.md §9). */
describeCatalog("FirestoreCatalog (in memory, format v2)", () => firestoreCatalogUnderTest(2));
