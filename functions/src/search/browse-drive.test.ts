/**
 * A drive's folders in catalog format v2 (docs/backup-format.md §9.3): the sub-folders a browse lists come
 * from folder documents (their paths are tokens, with no order to range over) and equal version 1's,
 * whether the files are in version 1, version 2 or half in each; the folder documents hold no name.
 */
import { FORMAT_SCOPES, testVersion, writeInEachFormat } from "../backups/catalog/testing";
import type { CatalogVersion } from "../engine/runner/catalog";
import { regionDb } from "../lib/firebase";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import { subFolders } from "./browse-drive";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const RESOURCE = "user-1";
const scopes = FORMAT_SCOPES;

const FOLDERS = [
  "My Drive/Finance/Zq7secret 2026",
  "My Drive/Finance",
  "My Drive/Travel",
  "Team Drive/Plans",
];

function file(n: number): CatalogVersion {
  const shown = FOLDERS[n % FOLDERS.length] as string;
  return testVersion(
    `f${n}`,
    "drive-file",
    {
      kind: "drive",
      display: { name: `file ${n}`, path: shown },
      name: `file ${n}`,
      path: shown.toLowerCase(),
      mimeType: "text/plain",
      createdBy: "ada@example.test",
      modifiedTime: "2026-03-01T09:00:00.000Z",
      size: 10,
      googleId: `f${n}`,
      keywords: ["file"],
    },
    { metadata: { name: `file ${n}`, mimeType: "text/plain", path: shown } },
  );
}

const FILES = Array.from({ length: 8 }, (_, n) => file(n));

beforeAll(async () => {
  await writeInEachFormat(RESOURCE, FILES);
});

test.each(["v2", "mixed"] as const)(
  "when a drive's folders are browsed in %s, then each level lists the sub-folders of version 1",
  async (format) => {
    for (const folder of ["", "my drive", "my drive/finance", "team drive", "my drive/travel"]) {
      const one = await subFolders(scopes.v1, RESOURCE, folder);
      expect(await subFolders(scopes[format], RESOURCE, folder)).toEqual(one);
    }
    expect((await subFolders(scopes.v1, RESOURCE, "my drive")).folders).toEqual([
      { name: "Finance", path: "My Drive/Finance" },
      { name: "Travel", path: "My Drive/Travel" },
    ]);
  },
);

test("when the folders of format v2 are stored, then no document holds a folder's name", async () => {
  const folders = await regionDb("region-ch")
    .collection(`organizations/org-v2/resources/${RESOURCE}/folders`)
    .get();
  expect(folders.size).toBe(6);
  for (const doc of folders.docs) {
    const stored = JSON.stringify({ id: doc.id, ...doc.data() }).toLowerCase();
    for (const name of ["zq7secret", "finance", "travel", "plans"]) expect(stored).not.toContain(name);
  }
});

test("when files, versions and folders are stored in either format, then every document decodes as its kind", () => {
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});
