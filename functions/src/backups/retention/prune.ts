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
 *
 * Versions say when they stopped being current (`endedAt`, §6), so retention decides from them alone:
 * - `endedAt` null: current (or may be: a version an interrupted run left), kept;
 * - otherwise it ended then; among an item's versions, when none is current, the one that ended last is
 *   the current version of an item deleted at the source (its `endedAt` is the deletion, after every other
 *   version's end), which archiving keeps.
 * Versions written before `endedAt` existed lack it: for an item with such a version, retention needs the
 * item's state (its document: current version and deletion) and orders its versions by capture.
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
  /**
   * ISO 8601: when it stopped being current; null while it is (or may be) current; absent on versions
   * written before the field existed.
   */
  endedAt?: string | null;
}

export interface ItemState {
  currentVersionId: string;
  /** ISO 8601, or null while the item exists at the source. */
  deletedAtSource: string | null;
}

const DAY_MS = 24 * 3600 * 1000;

/** Whether retention decides an item from its versions alone (every one says when it ended). */
export function decidedByVersions(versions: readonly VersionAge[]): boolean {
  return versions.every((version) => version.endedAt !== undefined);
}

/**
 * The ids of the versions to prune (every version of the item when the whole item goes). `item` (its
 * document's state) is needed only when a version lacks `endedAt` (`decidedByVersions`); without it such
 * an item keeps everything.
 */
export function prunableVersions(
  item: ItemState | undefined,
  versions: readonly VersionAge[],
  rule: RetentionRule,
  now: Date,
): string[] {
  const horizon = now.getTime() - rule.retentionDays * DAY_MS;
  if (decidedByVersions(versions)) return prunableByEndings(versions, rule, horizon);
  if (!item) return [];
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

function prunableByEndings(versions: readonly VersionAge[], rule: RetentionRule, horizon: number): string[] {
  const ended = versions.filter((version) => version.endedAt !== null && version.endedAt !== undefined);
  // No version current: the item was deleted at the source, and the one that ended last was its current.
  const deletedCurrent =
    ended.length === versions.length
      ? [...ended].sort(
          (a, b) =>
            Date.parse(b.endedAt as string) - Date.parse(a.endedAt as string) ||
            Date.parse(b.capturedAt) - Date.parse(a.capturedAt) ||
            b.versionId.localeCompare(a.versionId),
        )[0]
      : undefined;
  return ended
    .filter((version) => !(rule.archiving && version === deletedCurrent))
    .filter((version) => Date.parse(version.endedAt as string) < horizon)
    .sort(
      (a, b) => Date.parse(a.capturedAt) - Date.parse(b.capturedAt) || a.versionId.localeCompare(b.versionId),
    )
    .map((version) => version.versionId);
}
