/**
 * Which resources a day's verification reads (docs/backup-engine.md, "Integrity verification"). Pure: the
 * dispatcher's daily run and the unit tests call it with the resources' sizes and verification dates.
 *
 * The guarantee: every stored object is read at least once every 30 days.
 * - Rotation: resources are taken oldest verification first (never verified first), while the day's byte
 *   budget lasts: total stored bytes ÷ `ROTATION_DAYS` (at least `MIN_DAILY_BYTES`). With the budget the
 *   whole organisation is read about once every `ROTATION_DAYS` days, spread evenly over the days. The
 *   oldest resource is always taken, even when alone it is larger than the budget.
 * - Deadline: a resource whose last verification (or, never verified, the day the planner first saw it
 *   with backups) is `DEADLINE_DAYS` old is taken whatever the budget, so growth or one huge resource can
 *   delay the rotation but never past the deadline. Daily runs start within a day of each other, so a
 *   resource is read again at most `DEADLINE_DAYS` + 1 days after the last time.
 * - Shared chunks (the same attachment in many mailboxes) are read once: a chunk read within
 *   `CHUNK_FRESH_MS` (by another resource's verification of the same daily run) is not read again. Every
 *   chunk belongs to a resource read at most `DEADLINE_DAYS` + 1 days apart, and at that reading it is read
 *   unless it was read in the day before: at most `DEADLINE_DAYS` + 2 = 29 days between two reads.
 */

export const ROTATION_DAYS = 25;
export const DEADLINE_DAYS = 27;
export const CHUNK_FRESH_MS = 24 * 3600 * 1000;
/** The smallest daily budget: small organisations are read in full in a day or two. */
export const MIN_DAILY_BYTES = 2 * 1024 ** 3;

const DAY_MS = 24 * 3600 * 1000;

export interface PlanInput {
  resourceId: string;
  /** Stored backup bytes of the resource (its mail and drive backups). */
  bytes: number;
  /** ISO date-time of its last verification, or null. */
  lastVerifiedAt: string | null;
  /** ISO date-time the planner first saw it with backups (counts as its verification age when never verified). */
  trackedSince: string | null;
}

export interface DayPlan {
  /** The resources to verify today, in order (overdue first, then oldest first). */
  resourceIds: string[];
  budgetBytes: number;
  /** Bytes the plan reads (the resources' sizes). */
  plannedBytes: number;
  /** Resources taken because of the deadline, whatever the budget. */
  overdue: number;
}

/** The daily byte budget for an organisation storing `totalBytes`. */
export function dailyBudget(totalBytes: number, minimum = MIN_DAILY_BYTES): number {
  return Math.max(minimum, Math.ceil(totalBytes / ROTATION_DAYS));
}

/** When a resource's verification age starts: its last verification, else when it was first tracked. */
function ageStart(resource: PlanInput, now: Date): number {
  const at = resource.lastVerifiedAt ?? resource.trackedSince;
  return at ? Date.parse(at) : now.getTime();
}

export function planDay(
  resources: readonly PlanInput[],
  now: Date,
  minimumBudget = MIN_DAILY_BYTES,
): DayPlan {
  const candidates = resources.filter((resource) => resource.bytes > 0);
  const total = candidates.reduce((sum, resource) => sum + resource.bytes, 0);
  const budgetBytes = dailyBudget(total, minimumBudget);
  const deadline = now.getTime() - DEADLINE_DAYS * DAY_MS;
  // Never verified first, then the oldest verification; ties by id (a stable order from day to day).
  const ordered = [...candidates].sort((a, b) => {
    if ((a.lastVerifiedAt === null) !== (b.lastVerifiedAt === null))
      return a.lastVerifiedAt === null ? -1 : 1;
    const byAge = ageStart(a, now) - ageStart(b, now);
    return byAge !== 0 ? byAge : a.resourceId < b.resourceId ? -1 : a.resourceId > b.resourceId ? 1 : 0;
  });
  const overdue = ordered.filter((resource) => ageStart(resource, now) <= deadline);
  const taken = new Set(overdue.map((resource) => resource.resourceId));
  let plannedBytes = overdue.reduce((sum, resource) => sum + resource.bytes, 0);
  for (const resource of ordered) {
    if (taken.has(resource.resourceId)) continue;
    if (taken.size > 0 && plannedBytes + resource.bytes > budgetBytes) break;
    taken.add(resource.resourceId);
    plannedBytes += resource.bytes;
  }
  return {
    resourceIds: [...overdue, ...ordered.filter((resource) => !overdue.includes(resource))]
      .filter((resource) => taken.has(resource.resourceId))
      .map((resource) => resource.resourceId),
    budgetBytes,
    plannedBytes,
    overdue: overdue.length,
  };
}
