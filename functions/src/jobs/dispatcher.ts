/**
 * A region's scheduled dispatcher (Cloud Scheduler every 10 minutes in production, one job per region,
 * each running in its region; the local scheduler calls them on a timer). For the region's organisations
 * only: it records the run, then runs the per-organisation jobs (one file each in this folder) for each
 * organisation in turn: resources re-synced when due, a graceful period that is over ended, backups,
 * expired exports, restore drills, the daily integrity verifications and the charges of automatic additions.
 */
import type { RegionId } from "@alpvault/contracts/regions";
import * as logs from "../logs";
import { recordDispatcherRun } from "../system/service";
import { organizationsIn, type Organization } from "../organizations/service";
import { backupsJob } from "./backups";
import { chargesJob } from "./charges";
import { drillsJob } from "./drills";
import { gracefulPeriodJob } from "./graceful-periods";
import { expiredExportsJob } from "./expired-exports";
import { NO_DISPATCH, type DispatchCounts, type OrganizationJob } from "./job";
import { resyncJob } from "./resync-resources";
import { verificationsJob } from "./verifications";

/** The per-organisation jobs, in the order they run. */
const ORGANIZATION_JOBS: readonly OrganizationJob[] = [
  resyncJob,
  gracefulPeriodJob,
  backupsJob,
  expiredExportsJob,
  drillsJob,
  verificationsJob,
  chargesJob,
];

function add(into: DispatchCounts, done: Partial<DispatchCounts> | void): void {
  for (const [name, count] of Object.entries(done ?? {}) as [keyof DispatchCounts, number][])
    into[name] += count;
}

/**
 * Every job of the dispatcher for one organisation at `now`, in order; one job's failure is logged and the
 * next job runs. The scheduled run calls it for each organisation of the region; a test calls it for its own
 * organisation at the time it chooses.
 */
export async function dispatchOrganization(organization: Organization, now: Date): Promise<DispatchCounts> {
  const counts = { ...NO_DISPATCH };
  for (const job of ORGANIZATION_JOBS) {
    try {
      add(counts, await job.run(organization, now));
    } catch (error) {
      add(counts, job.failed(organization.organizationId, error));
    }
  }
  return counts;
}

export async function runDispatcher(regionId: RegionId, scheduledTime: string): Promise<void> {
  const now = new Date(scheduledTime);
  const state = await recordDispatcherRun(regionId, scheduledTime);
  const counts = { ...NO_DISPATCH };
  for await (const organization of organizationsIn(regionId)) {
    add(counts, await dispatchOrganization(organization, now));
  }
  const { backupsStopped, ...logged } = counts;
  if (backupsStopped > 0) logs.backupsStoppedAfterGracefulPeriod({ organizations: backupsStopped });
  logs.dispatcherRan({ regionId, scheduledTime, runs: state.runs, ...logged });
}
