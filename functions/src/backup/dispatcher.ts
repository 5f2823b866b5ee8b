import { advanceGracefulPeriods } from "../billing/service";
import { recordDispatcherRun } from "../system/repo";
import { loadWorkspaceConfig } from "../config";
import { allOrganizations } from "../organizations/repo";
import { resyncDueOrganizations } from "../resources/service";
import { workspaceGateway } from "../workspace/gateway";
import * as logs from "../logs";

/**
 * The scheduled dispatcher's handler (Cloud Scheduler every 10 minutes in production; the local
 * scheduler calls it on a timer). It records each run and re-syncs organisations' resources that are due;
 * computing due backups and enqueueing backup tasks arrives with the backup engine.
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
  logs.dispatcherRan({
    scheduledTime,
    runs: state.runs,
    resynced: resync.synced,
    resyncFailed: resync.failed,
  });
}
