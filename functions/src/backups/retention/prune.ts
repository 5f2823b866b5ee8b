/**
 * Which versions of an item retention lets go (docs/backup-format.md §7). Pure: the garbage collector
 * applies it item by item.
 *
 * A version is kept while it is current and for `retentionDays` after it stopped being current. It stops
 * being current when the next version was captured, or, for the item's current version, when the item was
 * deleted at the source. So:
 * - the current version of an item that still exists is always kept;
 * - an older version is kept for `retentionDays` after its successor's capture;
 * - the current version of an item deleted at the source is kept for `retentionDays` after the deletion,
 *   or for ever when the policy archives deleted items.
 * An item whose versions all go is removed from the catalog with them.
 */

export interface RetentionRule {
  retentionDays: number;
  /** Keep the last version of items deleted at the source for ever. */
  archiving: boolean;
}

export interface VersionAge {
  versionId: string;
  /** ISO 8601. */
  capturedAt: string;
}

export interface ItemState {
  currentVersionId: string;
  /** ISO 8601, or null while the item exists at the source. */
  deletedAtSource: string | null;
}

const DAY_MS = 24 * 3600 * 1000;

/** The ids of the versions to prune (every version of the item when the whole item goes). */
export function prunableVersions(
  item: ItemState,
  versions: readonly VersionAge[],
  rule: RetentionRule,
  now: Date,
): string[] {
  const horizon = now.getTime() - rule.retentionDays * DAY_MS;
  const ordered = [...versions].sort(
    (a, b) => Date.parse(a.capturedAt) - Date.parse(b.capturedAt) || a.versionId.localeCompare(b.versionId),
  );
  const prune: string[] = [];
  ordered.forEach((version, index) => {
    if (version.versionId === item.currentVersionId) {
      if (item.deletedAtSource === null || rule.archiving) return;
      if (Date.parse(item.deletedAtSource) < horizon) prune.push(version.versionId);
      return;
    }
    const successor = ordered[index + 1];
    // A version with no successor that is not current (written after the item doc moved on, or left by
    // an interrupted run) ended when the current version was captured: keep it until that ages out too.
    const endedAt = successor ? Date.parse(successor.capturedAt) : Date.parse(version.capturedAt);
    if (endedAt < horizon) prune.push(version.versionId);
  });
  return prune;
}
