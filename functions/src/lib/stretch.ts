/**
 * One stretch of a task-queue worker (a recovery, an export, a restore drill, an integrity verification):
 * a delivery works on one run for a time budget, then saves its position and re-enqueues its task, so a
 * long run is many short deliveries. A delivery opens by finding the organisation among those this region
 * serves (another region's task is dropped) and taking the run's lease until a little past its deadline (a
 * run that is finished, or held by another worker, is dropped); near the deadline it saves and hands the
 * rest over to a new delivery of the same task.
 */
import { randomUUID } from "node:crypto";
import type { RegionId } from "@alpvault/contracts/regions";
import type { Scope } from "./tenancy";

/** How long past the deadline a delivery's lease stays live. */
export const LEASE_MARGIN_MS = 2 * 60_000;

/** What a stretch worker takes from its wiring. */
export interface StretchDeps<T> {
  enqueue: (regionId: RegionId, task: T, options?: { id?: string }) => Promise<void>;
  /** How long one delivery may work before it saves and re-enqueues (ms). */
  budgetMs: number;
  /** The region this worker runs in: tasks of another region's organisations are dropped. */
  servingRegion?: RegionId;
  now?: () => number;
}

/** How a worker opens its stretch: its organisation lookup and its run's lease. */
export interface StretchOpening<O extends Scope, R> {
  /** The organisation when `servingRegion` serves it. */
  organization(organizationId: string, servingRegion: RegionId | undefined): Promise<O | undefined>;
  /** Takes the run's lease for `holder` until `until`: the run, or undefined to drop the delivery. */
  lease(scope: Scope, holder: string, until: string, now: string): Promise<R | undefined>;
}

/** A delivery that holds its run's lease. */
export interface Stretch<O extends Scope, R> {
  organization: O;
  scope: Scope;
  /** This delivery's lease holder. */
  holder: string;
  /** The run, as the lease found it. */
  run: R;
  now: () => number;
  /** When this delivery stops working (ms). */
  deadline: number;
  /** Whether the delivery's time is up. */
  late(): boolean;
  /**
   * Saves (`false`: the lease is lost, and the delivery is "dropped"), then re-enqueues the task for the
   * next delivery ("continued").
   */
  handOver(save: () => Promise<boolean | void>, options?: { id?: string }): Promise<"continued" | "dropped">;
}

/** Opens a delivery's stretch: undefined when the delivery is to be dropped. */
export async function openStretch<T extends { organizationId: string }, O extends Scope, R>(
  task: T,
  deps: StretchDeps<T>,
  opening: StretchOpening<O, R>,
): Promise<Stretch<O, R> | undefined> {
  const now = deps.now ?? Date.now;
  const organization = await opening.organization(task.organizationId, deps.servingRegion);
  if (!organization) return undefined;
  const scope: Scope = { organizationId: organization.organizationId, regionId: organization.regionId };
  const holder = randomUUID();
  const deadline = now() + deps.budgetMs;
  const until = new Date(deadline + LEASE_MARGIN_MS).toISOString();
  const run = await opening.lease(scope, holder, until, new Date(now()).toISOString());
  if (run === undefined) return undefined;
  return {
    organization,
    scope,
    holder,
    run,
    now,
    deadline,
    late: () => now() >= deadline,
    async handOver(save, options) {
      if ((await save()) === false) return "dropped";
      await (options ? deps.enqueue(scope.regionId, task, options) : deps.enqueue(scope.regionId, task));
      return "continued";
    },
  };
}
