/**
 * One catalog's items in each catalog format (docs/backup-format.md §9), for tests that compare what the
 * readers find: three organisations of the in-memory Firestore holding the same versions, all in version 1,
 * all in version 2, and half in each (a migration under way: even positions in version 1, odd in version 2).
 */
import { FirestoreCatalog } from "./repo";
import { keyringOf } from "./sealed-documents";
import { deriveKeys, newDataKey } from "../../engine/format/keys";
import type { CatalogVersion, ItemKind } from "../../engine/runner/catalog";
import type { SearchFields } from "../../engine/sources/source";

/** The data key the version-2 organisations seal with. */
export const SEALING_KEYS = deriveKeys(newDataKey());

export const FORMAT_SCOPES = {
  v1: { organizationId: "org-v1", regionId: "ch" },
  v2: { organizationId: "org-v2", regionId: "ch", keyring: keyringOf("org-v2", [SEALING_KEYS]) },
  mixed: { organizationId: "org-mixed", regionId: "ch", keyring: keyringOf("org-mixed", [SEALING_KEYS]) },
} as const;

export type FormatScope = (typeof FORMAT_SCOPES)[keyof typeof FORMAT_SCOPES];

/** Writes `versions` of `resourceId` into each of the three organisations. */
export async function writeInEachFormat(resourceId: string, versions: CatalogVersion[]): Promise<void> {
  await new FirestoreCatalog(FORMAT_SCOPES.v1).writeVersions(resourceId, versions);
  await new FirestoreCatalog(FORMAT_SCOPES.v2, SEALING_KEYS).writeVersions(resourceId, versions);
  const even = versions.filter((_, index) => index % 2 === 0);
  const odd = versions.filter((_, index) => index % 2 === 1);
  await new FirestoreCatalog(FORMAT_SCOPES.mixed).writeVersions(resourceId, even);
  await new FirestoreCatalog(FORMAT_SCOPES.mixed, SEALING_KEYS).writeVersions(resourceId, odd);
}

/** A first version of `itemKey` with these search fields (one inline chunk), `fields` over the defaults. */
export function testVersion(
  itemKey: string,
  kind: ItemKind,
  search: SearchFields,
  fields: Partial<CatalogVersion> = {},
): CatalogVersion {
  return {
    versionId: `${itemKey}@1`,
    itemKey,
    kind,
    versionKey: "1",
    contentKey: itemKey,
    capturedAt: "2026-03-01T10:00:00.000Z",
    runId: "run-1",
    size: 10,
    storedBytes: 10,
    contentDigest: "d".repeat(64),
    dataKeyId: SEALING_KEYS.dataKeyId,
    metadata: {},
    search,
    formatVersion: 1,
    chunks: [{ id: "c".repeat(64), size: 10 }],
    ...fields,
  };
}
