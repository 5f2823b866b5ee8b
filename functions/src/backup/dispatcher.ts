import { advanceGracefulPeriods } from "../billing/service";
import { recordDispatcherRun } from "../system/repo";
import { loadWorkspaceConfig } from "../config";
import { allOrganizations } from "../organizations/repo";
import { resyncDueOrganizations } from "../resources/service";
import { workspaceGateway } from "../workspace/gateway";
import * as logs from "../logs";
import { dispatchOrganization } from "./service";

/**
 * The scheduled dispatcher's handler (Cloud Scheduler every 10 minutes in production; the local
 * scheduler calls it on a timer). It records each run, re-syncs organisations' resources that are due,
 * advances graceful periods, then starts the backups that are due and enqueues stranded runs again.
 */
export async function runDispatcher(scheduledTime: string): Promise<void> {
  const state = await recordDispatcherRun(scheduledTime);
  const resync = await resyncDueOrganizations(
    workspaceGateway(loadWorkspaceConfig()),
    allOrganizations(),
    new Date(scheduledTime),
    (organizationId, error) => logs.resourceSyncFailed({ organizationId, error }),
  );
  // Graceful periods whose end has passed stop backups (audited, with an alert).
  const graceful = await advanceGracefulPeriods(new Date(scheduledTime), (organizationId, error) =>
    logs.gracefulStopFailed({ organizationId, error }),
  );
  if (graceful.stopped > 0) logs.backupsStoppedAfterGracefulPeriod({ organizations: graceful.stopped });
  let scheduled = 0;
  let redispatched = 0;
  for await (const organization of allOrganizations()) {
    try {
      const dispatched = await dispatchOrganization(organization, new Date(scheduledTime));
      scheduled += dispatched.scheduled;
      redispatched += dispatched.redispatched;
    } catch (error) {
      logs.backupDispatchFailed({ organizationId: organization.organizationId, error });
    }
  }
  logs.dispatcherRan({
    scheduledTime,
    runs: state.runs,
    resynced: resync.synced,
    resyncFailed: resync.failed,
    backupsScheduled: scheduled,
    backupsRedispatched: redispatched,
  });
}
