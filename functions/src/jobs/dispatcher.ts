/**
 * A region's scheduled dispatcher (Cloud Scheduler every 10 minutes in production, one job per region,
 * each running in its region; the local scheduler calls them on a timer). For the region's organisations
 * only: it records the run, then runs the per-organisation jobs below for each organisation in turn. Each
 * job calls one domain's service and answers what it did as counts, which the dispatcher sums into its log
 * line; a job failing for one organisation is logged and does not stop the others.
 */
import type { RegionId } from "@alpvault/contracts/regions";
import * as logs from "../logs";
import { loadWorkspaceConfig } from "../config";
import { recordDispatcherRun } from "../system/service";
import { organizationsIn, type Organization } from "../organizations/service";
import { dispatchOrganization as dispatchBackups } from "../backups/service";
import { dispatchVerification } from "../backups/verify/service";
import { billingServices } from "../billing/wiring";
import { endGracefulPeriodIfOver } from "../billing/service";
import { dispatchDrill } from "../drills/service";
import { deleteExpiredExports } from "../export/jobs";
import { exportStorage } from "../export/task";
import { resyncIfDue } from "../resources/service";
import { workspaceGateway } from "../workspace/gateway";

export interface DispatchCounts {
  resynced: number;
  resyncFailed: number;
  backupsStopped: number;
  backupsScheduled: number;
  backupsRedispatched: number;
  drillsStarted: number;
  verificationsScheduled: number;
  chargesSent: number;
}

export const NO_DISPATCH: DispatchCounts = {
  resynced: 0,
  resyncFailed: 0,
  backupsStopped: 0,
  backupsScheduled: 0,
  backupsRedispatched: 0,
  drillsStarted: 0,
  verificationsScheduled: 0,
  chargesSent: 0,
};

export interface OrganizationJob {
  run(organization: Organization, now: Date): Promise<Partial<DispatchCounts>>;
  /** Logs a failure of the job for one organisation (and may count it). */
  failed(organizationId: string, error: unknown): Partial<DispatchCounts> | void;
}

/** The per-organisation jobs, in the order they run. */
const ORGANIZATION_JOBS: readonly OrganizationJob[] = [
  /**
   * Re-syncs an organisation whose users, groups and shared drives were last read long ago, through its
   * set-up admin's delegation. A failure (the admin left, the app was uninstalled) is counted.
   */
  {
    async run(organization, now) {
      const synced = await resyncIfDue(workspaceGateway(loadWorkspaceConfig()), organization, now);
      return { resynced: synced ? 1 : 0 };
    },
    failed(organizationId, error) {
      logs.resourceSyncFailed({ organizationId, error });
      return { resyncFailed: 1 };
    },
  },
  /** A graceful period whose end has passed stops the organisation's backups (audited, with an alert). */
  {
    async run(organization, now) {
      const stopped = await endGracefulPeriodIfOver(organization, organization, now);
      return { backupsStopped: stopped ? 1 : 0 };
    },
    failed: (organizationId, error) => logs.gracefulStopFailed({ organizationId, error }),
  },
  /** Starts the organisation's backups that are due, and enqueues its stranded runs again. */
  {
    async run(organization, now) {
      const dispatched = await dispatchBackups(organization, now);
      return { backupsScheduled: dispatched.scheduled, backupsRedispatched: dispatched.redispatched };
    },
    failed: (organizationId, error) => logs.backupDispatchFailed({ organizationId, error }),
  },
  /** Deletes the organisation's exports whose week is over (their files and their records). */
  {
    async run(organization, now) {
      await deleteExpiredExports(organization, exportStorage, now);
      return {};
    },
    failed: (organizationId, error) => logs.backupDispatchFailed({ organizationId, error }),
  },
  /** Starts the organisation's restore drill when its schedule says one is due. */
  {
    async run(organization, now) {
      const drill = await dispatchDrill(organization, now);
      return { drillsStarted: drill.started ? 1 : 0 };
    },
    failed: (organizationId, error) => logs.drillDispatchFailed({ organizationId, error }),
  },
  /** Integrity verification, once a day per organisation (and its runs nobody works on). */
  {
    async run(organization, now) {
      const verify = await dispatchVerification(organization, now);
      return { verificationsScheduled: verify.scheduled };
    },
    failed: (organizationId, error) => logs.backupDispatchFailed({ organizationId, error }),
  },
  /** Sends the organisation's automatic additions (seats, storage packs) to its payment subscription. */
  {
    async run(organization) {
      const { sent, pending, failed } = await billingServices(organization.regionId).sendCharges(
        organization,
      );
      if (failed) logs.chargeRefused({ organizationId: organization.organizationId, pending });
      return { chargesSent: sent };
    },
    failed: (organizationId, error) => logs.chargesFailed({ organizationId, error }),
  },
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
