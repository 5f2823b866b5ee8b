/**
 * A region's scheduled dispatcher (Cloud Scheduler every 10 minutes in production, one job per region,
 * each running in its region; the local scheduler calls them on a timer). For the region's organisations
 * only: it records the run, re-syncs resources that are due, ends graceful periods that are over, then runs
 * the per-organisation jobs (one file each in this folder): backups, expired exports, restore drills, the
 * daily integrity verifications and the charges of automatic additions.
 */
import type { RegionId } from "@alpvault/contracts/regions";
import * as logs from "../logs";
import { recordDispatcherRun } from "../system/service";
import { organizationsIn } from "../organizations/service";
import { backupsJob } from "./backups";
import { chargesJob } from "./charges";
import { drillsJob } from "./drills";
import { endGracefulPeriods } from "./graceful-periods";
import { expiredExportsJob } from "./expired-exports";
import type { DispatchCounts, OrganizationJob } from "./job";
import { resyncResources } from "./resync-resources";
import { verificationsJob } from "./verifications";

/** The per-organisation jobs, in the order they run. */
const ORGANIZATION_JOBS: readonly OrganizationJob[] = [
  backupsJob,
  expiredExportsJob,
  drillsJob,
  verificationsJob,
  chargesJob,
];

export async function runDispatcher(regionId: RegionId, scheduledTime: string): Promise<void> {
  const now = new Date(scheduledTime);
  const state = await recordDispatcherRun(regionId, scheduledTime);
  const resync = await resyncResources(regionId, now);
  await endGracefulPeriods(regionId, now);
  const counts: DispatchCounts = {
    backupsScheduled: 0,
    backupsRedispatched: 0,
    drillsStarted: 0,
    verificationsScheduled: 0,
    chargesSent: 0,
  };
  for await (const organization of organizationsIn(regionId)) {
    for (const job of ORGANIZATION_JOBS) {
      try {
        const done = await job.run(organization, now);
        for (const [name, count] of Object.entries(done) as [keyof DispatchCounts, number][])
          counts[name] += count;
      } catch (error) {
        job.failed(organization.organizationId, error);
      }
    }
  }
  logs.dispatcherRan({
    regionId,
    scheduledTime,
    runs: state.runs,
    resynced: resync.synced,
    resyncFailed: resync.failed,
    ...counts,
  });
}
