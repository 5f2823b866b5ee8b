import type { RegionId } from "@alpvault/contracts/regions";
import { advanceGracefulPeriods } from "../billing/service";
import { recordDispatcherRun } from "../system/service";
import { loadWorkspaceConfig } from "../config";
import { organizationsIn } from "../organizations/service";
import { resyncDueOrganizations } from "../resources/service";
import { workspaceGateway } from "../workspace/gateway";
import * as logs from "../logs";
import { deleteExpiredExports } from "../export/jobs";
import { exportStorage } from "../export/task";
import { dispatchOrganization } from "./service";
import { dispatchDrill } from "../drills/service";
import { dispatchVerification } from "./verify/service";

/**
 * A region's scheduled dispatcher (Cloud Scheduler every 10 minutes in production, one job per region,
 * each running in its region; the local scheduler calls them on a timer). For the region's organisations
 * only: it records the run, re-syncs resources that are due, advances graceful periods, then starts the
 * backups, restore drills and the daily integrity verifications that are due and enqueues stranded runs
 * again, into the region's queues, and deletes the exports whose week is over.
 */
export async function runDispatcher(regionId: RegionId, scheduledTime: string): Promise<void> {
  const state = await recordDispatcherRun(regionId, scheduledTime);
  const resync = await resyncDueOrganizations(
    workspaceGateway(loadWorkspaceConfig()),
    organizationsIn(regionId),
    new Date(scheduledTime),
    (organizationId, error) => logs.resourceSyncFailed({ organizationId, error }),
  );
  // Graceful periods whose end has passed stop backups (audited, with an alert).
  const graceful = await advanceGracefulPeriods(
    new Date(scheduledTime),
    (organizationId, error) => logs.gracefulStopFailed({ organizationId, error }),
    [regionId],
  );
  if (graceful.stopped > 0) logs.backupsStoppedAfterGracefulPeriod({ organizations: graceful.stopped });
  let scheduled = 0;
  let redispatched = 0;
  let drills = 0;
  let verifications = 0;
  for await (const organization of organizationsIn(regionId)) {
    try {
      const dispatched = await dispatchOrganization(organization, new Date(scheduledTime));
      scheduled += dispatched.scheduled;
      redispatched += dispatched.redispatched;
    } catch (error) {
      logs.backupDispatchFailed({ organizationId: organization.organizationId, error });
    }
    try {
      await deleteExpiredExports(organization, exportStorage, new Date(scheduledTime));
    } catch (error) {
      logs.backupDispatchFailed({ organizationId: organization.organizationId, error });
    }
    try {
      const drill = await dispatchDrill(organization, new Date(scheduledTime));
      if (drill.started) drills += 1;
    } catch (error) {
      logs.drillDispatchFailed({ organizationId: organization.organizationId, error });
    }
    // Integrity verification, once a day per organisation (and its runs nobody works on).
    try {
      const verify = await dispatchVerification(organization, new Date(scheduledTime));
      verifications += verify.scheduled;
    } catch (error) {
      logs.backupDispatchFailed({ organizationId: organization.organizationId, error });
    }
  }
  logs.dispatcherRan({
    regionId,
    scheduledTime,
    runs: state.runs,
    resynced: resync.synced,
    resyncFailed: resync.failed,
    backupsScheduled: scheduled,
    backupsRedispatched: redispatched,
    drillsStarted: drills,
    verificationsScheduled: verifications,
  });
}
