/**
 * How the catalog's documents follow from its versions (docs/backup-format.md §6), shared by both catalogs
 * (Firestore's and the in-memory one) so they agree: an item document from its current version, and when
 * each version stopped being current (`endedAt`).
 */
import type { CatalogItem, CatalogVersion, CurrentVersion } from "./catalog";

/**
 * What an item document keeps of a version when it is (or was) the current one. `capturedAt` is the
 * version document's (its first capture, when the version was stored already).
 */
export function currentOf(version: CatalogVersion, capturedAt = version.capturedAt): CurrentVersion {
  const chunkList =
    "manifestObject" in version ? { manifestObject: version.manifestObject } : { chunks: version.chunks };
  return {
    versionId: version.versionId,
    versionKey: version.versionKey,
    contentKey: version.contentKey,
    capturedAt,
    size: version.size,
    contentDigest: version.contentDigest,
    dataKeyId: version.dataKeyId,
    metadata: version.metadata,
    ...(version.healedAt ? { healedAt: version.healedAt } : {}),
    ...chunkList,
  };
}

/**
 * The item document once `version` is its current one (`previous`: the document before, if any;
 * `capturedAt`: the version document's capture time). Both catalogs write items with it, so they agree.
 */
export function itemOf(
  version: CatalogVersion,
  previous: CatalogItem | undefined,
  capturedAt = version.capturedAt,
): CatalogItem {
  const firstSeenAt = previous?.firstSeenAt ?? version.capturedAt;
  const datedLater =
    version.search.kind === "mail" && Date.parse(version.search.date) > Date.parse(firstSeenAt);
  return {
    itemKey: version.itemKey,
    kind: version.kind,
    sourceId: version.itemKey,
    currentVersionId: version.versionId,
    current: currentOf(version, capturedAt),
    deletedAtSource: null,
    firstSeenAt,
    lastSeenAt: version.capturedAt,
    search: version.search,
    ...(datedLater ? { datedLater: true as const } : {}),
  };
}

/** A version whose `endedAt` a `writeVersions` call sets. */
export interface Ending {
  itemKey: string;
  versionId: string;
  endedAt: string | null;
}

/**
 * The `endedAt` a `writeVersions` call gives (by version id): each item's versions of the call, in call
 * order, each ended by the next one's capture; the last one current (null); and the version the item named
 * current before the call (`currentBefore`, by item key), if another, ended by the first one's capture.
 */
export function endings(
  versions: readonly CatalogVersion[],
  currentBefore: ReadonlyMap<string, string | undefined>,
): Map<string, Ending> {
  const ends = new Map<string, Ending>();
  const current = new Map(currentBefore);
  for (const version of versions) {
    const before = current.get(version.itemKey);
    if (before !== undefined && before !== version.versionId) {
      ends.set(before, { itemKey: version.itemKey, versionId: before, endedAt: version.capturedAt });
    }
    ends.set(version.versionId, { itemKey: version.itemKey, versionId: version.versionId, endedAt: null });
    current.set(version.itemKey, version.versionId);
  }
  return ends;
}
